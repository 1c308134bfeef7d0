package record

// A finished recording's data files may be stored compressed (see
// compress.go): NAME.zst in place of NAME, in the zstd seekable format
// (zstd's contrib/seekable_format): independent zstd frames of at most
// maxFrameIn bytes of the stream each, then a skippable frame holding the
// seek table (each frame's compressed and decompressed size) and a
// 9-byte footer: frame count, descriptor, magic 0x8F92EAB1. Any seekable
// zstd tool reads such a file; plain `zstd -d` reads it too (it skips the
// table's frame).
//
// The table is written by rac and checked before it is used: its sizes
// must add up to the file's, no frame may claim more than maxFrameIn
// bytes, and a frame must decode (its content checksum holds) to exactly
// the size the table states. Anything else is a DamagedError naming the
// recording and the file: never a wrong line.
//
// The seekable library for Go (SaveTheRbtz/zstd-seekable-format-go) adds
// that table codec and a ReaderAt over it; it also brings a logger and
// further modules, does not bound what a table may claim before it
// allocates, and cannot say which recording a bad frame belongs to. The
// codec is 150 lines here.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/zstd"
)

const (
	zstSuffix        = ".zst"
	seekableMagic    = 0x8F92EAB1
	skippableMagic   = 0x184D2A5E // the seekable format's skippable frame (nibble E)
	seekFooterLen    = 9
	skipHeaderLen    = 8
	seekEntryLen     = 8  // compressed size, decompressed size (no checksum)
	seekEntryCRCLen  = 12 // with the optional checksum, which rac does not write
	seekChecksumFlag = 1 << 7
	seekReservedBits = 0x7c // descriptor bits 2-6 must be zero
	// maxFrameIn bounds what one frame may hold of the stream, for the
	// writer (DefaultFrameSize and any FrameSize given) and the reader
	// (a table claiming more is not one rac wrote): a reader never holds
	// more than this decoded.
	maxFrameIn = 4 << 20
)

// DefaultFrameSize is how much of a stream one frame holds, but for a
// stream's last frames (see frameLen). Measured on the bench's shapes (32
// MiB each, zstd's better level; docs/store.md has the figures): frames
// of 256 KiB left its git log at 3.91x and its plain log lines at 4.03x,
// 512 KiB made 4.00x and 4.22x, 1 MiB 4.05x and 4.33x (every other shape
// gains 1-6% too), for the same CPU to compress and 5-15% less to
// decode. zstd's best level gained less than the bigger frames on these
// two (git log 3.92x at 256 KiB, 4.03x at 1 MiB) for four to six times
// the CPU. A read in the middle of a stream decodes a frame (about a
// millisecond for 1 MiB); a tail, the common read, decodes only the small
// last frames.
const DefaultFrameSize = 1 << 20

// tailFrameSize bounds the frames that end a stream: the last two
// frames of its last file hold a quarter of the frame size each, at most
// 128 KiB, so a tail (which counts lines from the line index entry at the
// start of a frame to the end) decodes at most 256 KiB, whatever the
// frame size, for a ratio a fraction of a percent lower. (Measured, 41
// interleaved runs of read --tail 80 of 64 MiB: last frames of 256 KiB
// added 1.1 to 1.7 ms of wall time over the raw recording, 1.5 ms of CPU;
// 128 KiB 0.3 to 0.7 ms, 0.3 to 0.9 ms of CPU.) A capped stream's other
// files (its head, the tail segments before the last) end in a frame of
// what is left (see endsStream).
const tailFrameSize = 128 << 10

// smallFrame is the size of the frames that end a stream.
func smallFrame(frame int) int64 { return int64(max(1, min(frame/4, tailFrameSize))) }

// frameLen is the length of the next frame of a file of frames of frame
// bytes when rest bytes are left: frames of frame bytes, and when the
// file ends a stream (last), two of at most a quarter of it
// (tailFrameSize at most) for the last bytes, the frame before those
// holding whatever is left.
func frameLen(rest int64, frame int, last bool) int64 {
	tail := smallFrame(frame)
	if !last || rest > 2*tail {
		if last {
			rest -= 2 * tail
		}
		return min(int64(frame), rest)
	}
	return min(tail, rest)
}

var (
	decOnce sync.Once
	dec     *zstd.Decoder
	decErr  error
)

// decoder is the one zstd decoder every reader shares: DecodeAll is safe
// for concurrent use and keeps up to GOMAXPROCS block decoders, with no
// goroutine of its own.
func decoder() (*zstd.Decoder, error) {
	decOnce.Do(func() {
		dec, decErr = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)),
			// lowmem made decoding 30% slower here (321 against 455
			// MB/s), for a few hundred KiB less per decoder
			zstd.WithDecoderLowmem(false),
			zstd.WithDecoderMaxMemory(maxFrameIn),
			zstd.WithDecoderMaxWindow(maxFrameIn))
	})
	return dec, decErr
}

// seekFrame is one frame of a seekable file.
type seekFrame struct {
	cOff, dOff int64 // where it starts in the file, and in the stream
	cLen, dLen int32
}

// seekTable is a checked seek table.
type seekTable struct {
	frames []seekFrame
	size   int64 // decompressed: the stream bytes the file holds
}

// frameAt is the index of the frame holding stream byte off (off < size).
func (t *seekTable) frameAt(off int64) int {
	return sort.Search(len(t.frames), func(i int) bool { return t.frames[i].dOff+int64(t.frames[i].dLen) > off })
}

var errNotSeekable = errors.New("not a seekable zstd file")

// readSeekTable reads and checks the seek table of a file of fileSize
// bytes. It reads no more than the table's own bytes, and a table that
// claims more frames than the file could hold is refused before anything
// is allocated for it.
func readSeekTable(f io.ReaderAt, fileSize int64) (*seekTable, error) {
	if fileSize < skipHeaderLen+seekFooterLen {
		return nil, fmt.Errorf("%w: %d bytes", errNotSeekable, fileSize)
	}
	var foot [seekFooterLen]byte
	if _, err := f.ReadAt(foot[:], fileSize-seekFooterLen); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(foot[5:]) != seekableMagic {
		return nil, fmt.Errorf("%w: no seek table magic", errNotSeekable)
	}
	desc := foot[4]
	if desc&seekReservedBits != 0 {
		return nil, fmt.Errorf("%w: reserved descriptor bits set", errNotSeekable)
	}
	entry := int64(seekEntryLen)
	if desc&seekChecksumFlag != 0 {
		entry = seekEntryCRCLen
	}
	n := int64(binary.LittleEndian.Uint32(foot[:4]))
	tableLen := skipHeaderLen + n*entry + seekFooterLen
	if tableLen > fileSize {
		return nil, fmt.Errorf("%w: table of %d frames is larger than the file", errNotSeekable, n)
	}
	b := make([]byte, tableLen-seekFooterLen)
	if _, err := f.ReadAt(b, fileSize-tableLen); err != nil {
		return nil, err
	}
	if binary.LittleEndian.Uint32(b) != skippableMagic || int64(binary.LittleEndian.Uint32(b[4:])) != tableLen-skipHeaderLen {
		return nil, fmt.Errorf("%w: bad seek table frame header", errNotSeekable)
	}
	t := &seekTable{frames: make([]seekFrame, n)}
	var cOff int64
	for i := range t.frames {
		e := b[skipHeaderLen+int64(i)*entry:]
		c, d := int64(binary.LittleEndian.Uint32(e)), int64(binary.LittleEndian.Uint32(e[4:]))
		if c == 0 || d == 0 || d > maxFrameIn || c > fileSize {
			return nil, fmt.Errorf("%w: frame %d claims %d bytes in %d", errNotSeekable, i, d, c)
		}
		t.frames[i] = seekFrame{cOff: cOff, dOff: t.size, cLen: int32(c), dLen: int32(d)}
		cOff += c
		t.size += d
	}
	if cOff != fileSize-tableLen {
		return nil, fmt.Errorf("%w: frames add up to %d bytes, the file holds %d before its table", errNotSeekable, cOff, fileSize-tableLen)
	}
	return t, nil
}

// appendSeekTable appends the seek table of frames (compressed and
// decompressed sizes) to b.
func appendSeekTable(b []byte, sizes [][2]uint32) []byte {
	b = binary.LittleEndian.AppendUint32(b, skippableMagic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(sizes)*seekEntryLen+seekFooterLen))
	for _, s := range sizes {
		b = binary.LittleEndian.AppendUint32(b, s[0])
		b = binary.LittleEndian.AppendUint32(b, s[1])
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(sizes)))
	b = append(b, 0)
	return binary.LittleEndian.AppendUint32(b, seekableMagic)
}

// seekFile reads a seekable file by stream offsets: a part of a
// streamView, as an *os.File of the raw bytes is. It keeps the last few
// frames it decoded (a tail read counts newlines over the frame of a line
// index entry and the ones either side of it, then reads the last), and
// decodes ahead while the file is read forwards.
type seekFile struct {
	f     *os.File
	table *seekTable
	fsize int64  // the file's size on disk
	ref   string // SESSION/NAME/FILE, for errors
	mu    sync.Mutex
	kept  []keptFrame // the most recently used last
	run   int         // frames loaded one after the other so far
	last  int         // the frame loaded last, -1 for none
	// ahead holds frames decoded in advance while the file is read
	// forwards (see prefetch)
	ahead map[int]*decoded
	// forward: the file counts among forwardReaders
	forward bool
}

// forwardReaders counts the files of this process being read forwards
// (grep's workers, a whole read): each is decoded on the core of its
// reader, so a file decodes ahead only while they leave a core spare.
var forwardReaders atomic.Int32

// keptFrames and keptBytes bound the decoded frames a seekFile keeps:
// three, of at most 2 MiB together (the last is always kept): a tail's
// two small last frames and the one before, or a read in the middle's
// frame and its neighbour. A file read forwards keeps only the frame it
// is on (no frame before it is looked at again).
const (
	keptFrames = 3
	keptBytes  = 2 << 20
)

type keptFrame struct {
	i int
	b []byte
}

// openSeekFile checks f's seek table.
func openSeekFile(f *os.File, ref string) (*seekFile, error) {
	size, err := fileSize(f)
	if err != nil {
		return nil, err
	}
	t, err := readSeekTable(f, size)
	if err != nil {
		return nil, err
	}
	return &seekFile{f: f, table: t, fsize: size, ref: ref, last: -1}, nil
}

// Size is the number of stream bytes the file holds.
func (s *seekFile) Size() int64 { return s.table.size }

// Close waits for the frames being decoded ahead, then closes the file.
func (s *seekFile) Close() error {
	s.mu.Lock()
	s.notForward()
	for _, d := range s.ahead {
		<-d.done
		putFrame(d.b)
	}
	s.ahead = nil
	s.release()
	s.mu.Unlock()
	return s.f.Close()
}

func (s *seekFile) dataSize() (int64, error) { return s.table.size, nil }

// hole looks for a hole in the compressed file: rac never writes one.
func (s *seekFile) hole(int64) (int64, bool) { return holeIn(s.f, s.fsize) }

// ReadAt reads stream bytes as an *os.File's ReadAt would read the raw
// file. A frame that does not decode to what the table says is a
// DamagedError.
func (s *seekFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for n < len(p) {
		if off >= s.table.size {
			return n, io.EOF
		}
		i := s.table.frameAt(off)
		b, err := s.load(i)
		if err != nil {
			return n, err
		}
		k := copy(p[n:], b[off-s.table.frames[i].dOff:])
		n += k
		off += int64(k)
	}
	return n, nil
}

// frames calls fn with the file's first n stream bytes, frame by frame,
// as they are decoded (see Piece.Frames): a frame stays where load keeps
// it until the next load, which only this reader makes.
func (s *seekFile) frames(n int64, fn func([]byte) error) error {
	for off := int64(0); off < min(n, s.table.size); {
		s.mu.Lock()
		i := s.table.frameAt(off)
		b, err := s.load(i)
		s.mu.Unlock()
		if err != nil {
			return err
		}
		b = b[off-s.table.frames[i].dOff:]
		b = b[:min(int64(len(b)), n-off)]
		if err := fn(b); err != nil {
			return err
		}
		off += int64(len(b))
	}
	// fn has returned for the last frame: keep none of them while the
	// caller goes on to the next part of the stream (a stream of a capped
	// recording is its head and several tail files, each kept open until
	// the whole stream is read), and no longer count as a file read
	// forwards (so another may decode ahead)
	s.mu.Lock()
	s.release()
	s.notForward()
	s.mu.Unlock()
	return nil
}

// notForward ends s's count among forwardReaders; the caller holds mu.
func (s *seekFile) notForward() {
	if s.forward {
		s.forward = false
		forwardReaders.Add(-1)
	}
}

// release puts back the frames s keeps; the caller holds mu.
func (s *seekFile) release() {
	for _, f := range s.kept {
		putFrame(f.b)
	}
	s.kept = s.kept[:0]
}

// load returns frame i decoded.
func (s *seekFile) load(i int) ([]byte, error) {
	for k, f := range s.kept {
		if f.i == i {
			if k != len(s.kept)-1 {
				s.kept = append(append(s.kept[:k:k], s.kept[k+1:]...), f)
			}
			return f.b, nil
		}
	}
	if i == s.last+1 {
		s.run++
	} else {
		s.run = 1
	}
	s.last = i
	held := int(s.table.frames[i].dLen)
	for _, f := range s.kept {
		held += len(f.b)
	}
	// read forwards, no frame before this one is looked at again
	forwards := s.run >= forwardRun
	if forwards && !s.forward {
		s.forward = true
		forwardReaders.Add(1)
	}
	for len(s.kept) > 0 && (len(s.kept) >= keptFrames || held > keptBytes || forwards) {
		held -= len(s.kept[0].b)
		putFrame(s.kept[0].b)
		s.kept = append(s.kept[:0], s.kept[1:]...)
	}
	var b []byte
	if d, ok := s.ahead[i]; ok {
		delete(s.ahead, i)
		<-d.done
		if d.err != nil {
			return nil, d.err
		}
		b = d.b
	} else {
		var err error
		if b, err = s.decode(i, getFrame()); err != nil {
			return nil, err
		}
	}
	if s.run >= forwardRun && i == len(s.table.frames)-1 {
		// read forwards to the end: the reader goes on to the next part
		s.release()
	}
	s.kept = append(s.kept, keptFrame{i, b})
	if s.run >= forwardRun {
		// read forwards: decode what comes next meanwhile
		s.prefetch(i + 1)
	}
	return b, nil
}

// decode decodes frame i into dst.
func (s *seekFile) decode(i int, dst []byte) ([]byte, error) {
	fr := s.table.frames[i]
	cp := compressedBufs.Get().(*[]byte)
	defer compressedBufs.Put(cp)
	if cap(*cp) < int(fr.cLen) {
		*cp = make([]byte, fr.cLen)
	}
	c := (*cp)[:fr.cLen]
	if _, err := s.f.ReadAt(c, fr.cOff); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("read %s: %w", s.ref, err)
	}
	d, err := decoder()
	if err != nil {
		return nil, err
	}
	if cap(dst) < int(fr.dLen)+decodeSlack {
		dst = make([]byte, 0, int(fr.dLen)+decodeSlack)
	}
	out, err := d.DecodeAll(c, dst[:0])
	if err != nil {
		return nil, s.damaged(i, err.Error(), err)
	}
	if len(out) != int(fr.dLen) {
		return nil, s.damaged(i, fmt.Sprintf("it holds %d bytes, its seek table says %d", len(out), fr.dLen), nil)
	}
	return out, nil
}

func (s *seekFile) damaged(i int, detail string, err error) error {
	ref, file := s.ref, ""
	for j := len(ref) - 1; j >= 0; j-- {
		if ref[j] == '/' {
			ref, file = s.ref[:j], s.ref[j+1:]
			break
		}
	}
	return &DamagedError{Ref: ref, Detail: fmt.Sprintf("frame %d of %s does not decode: %s", i, file, detail), Err: err}
}

// decoded is a frame decoded in advance.
type decoded struct {
	done chan struct{}
	b    []byte
	err  error
}

// A read that has loaded forwardRun frames one after the other reads
// forwards: grep, --raw, a whole read. A tail counts lines over at most
// three (the frame of a line index entry and the small last two), and
// decodes nothing ahead.
const forwardRun = 4

// prefetchBytes bounds what a forward read decodes ahead, in parallel
// with the reader's own work (grep's matching) and with the recordings
// other workers search: one frame of the default size.
// With the frame kept that is at most 2 MiB of decoded frames per file.
const prefetchBytes = 1 << 20

// prefetch decodes the frames from from on, prefetchBytes of them, in the
// background once the file is read forwards; the caller holds mu. On one
// CPU it would only add work, so it does nothing there.
func (s *seekFile) prefetch(from int) {
	if int(forwardReaders.Load()) >= runtime.GOMAXPROCS(0) {
		return // every core decodes a file read forwards already
	}
	if s.ahead == nil {
		s.ahead = map[int]*decoded{}
	}
	ahead := int64(0)
	for i := from; i < len(s.table.frames); i++ {
		if ahead += int64(s.table.frames[i].dLen); ahead > prefetchBytes && i > from {
			break
		}
		if _, ok := s.ahead[i]; ok {
			continue
		}
		d := &decoded{done: make(chan struct{})}
		s.ahead[i] = d
		go func(i int) {
			defer close(d.done)
			d.b, d.err = s.decode(i, getFrame())
		}(i)
	}
	// frames behind the reader are of no more use
	for j, d := range s.ahead {
		if j < from-1 {
			<-d.done
			putFrame(d.b)
			delete(s.ahead, j)
		}
	}
}

// frameFree recycles decoded frames' buffers: a forward read decodes
// frame after frame, and fresh buffers would be garbage faster than the
// collector returns it. It is a free list of at most maxFreeFrames, not a
// sync.Pool: a pool is emptied by every second collection, and under
// grep's soft memory limit the collector runs often, so a pool sent
// every frame to the allocator again (a megabyte each, fresh pages).
var frameFree struct {
	mu   sync.Mutex
	bufs [][]byte
}

// maxFreeFrames bounds the free list: a frame each for the readers of
// every core and one decoded ahead for each, and two to spare.
var maxFreeFrames = 2*runtime.GOMAXPROCS(0) + 2

// compressedBufs recycles the buffers a frame's compressed bytes are read
// into: one for each decode under way, not one for each file open (a
// capped recording's stream is several files, all open while it is read).
var compressedBufs = sync.Pool{New: func() any { return new([]byte) }}

func getFrame() []byte {
	frameFree.mu.Lock()
	defer frameFree.mu.Unlock()
	n := len(frameFree.bufs)
	if n == 0 {
		return nil
	}
	b := frameFree.bufs[n-1]
	frameFree.bufs[n-1] = nil
	frameFree.bufs = frameFree.bufs[:n-1]
	return b[:0]
}

// decodeSlack is room past a frame's end in the buffer it is decoded
// into: with it zstd's decoder copies matches and literals in whole
// blocks to the frame's last block too, which may overrun their end by
// up to 31 bytes (without it, the last block of each frame took the
// exact, slower copies).
const decodeSlack = 64

func putFrame(b []byte) {
	if cap(b) == 0 || cap(b) > maxFrameIn+decodeSlack {
		return
	}
	frameFree.mu.Lock()
	defer frameFree.mu.Unlock()
	if len(frameFree.bufs) < maxFreeFrames {
		frameFree.bufs = append(frameFree.bufs, b[:0])
	}
}
