package record

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/rac-cli/rac/internal/store"
)

// dataFile is a data or index file as a reader sees it: the raw bytes
// (rawFile) or their compressed form (seekFile), read by the offsets of
// the raw bytes.
type dataFile interface {
	io.ReaderAt
	io.Closer
	// dataSize is the number of raw bytes the file holds.
	dataSize() (int64, error)
	// hole finds a hole in the file's first size raw bytes (see holeIn).
	hole(size int64) (int64, bool)
}

// rawFile is a data file as the recorder wrote it.
type rawFile struct{ *os.File }

func (f rawFile) dataSize() (int64, error)                { return fileSize(f.File) }
func (f rawFile) hole(size int64) (int64, bool)           { return holeIn(f.File, size) }
func (f rawFile) ReadAt(p []byte, off int64) (int, error) { return f.File.ReadAt(p, off) }

// openData opens a data file of the recording: NAME as written, else its
// compressed form NAME.zst. The raw file comes first: compression
// renames NAME.zst into place before it removes NAME, so one of the two
// is always there, and both only hold the same bytes.
func (r *Recording) openData(name string) (dataFile, int64, error) {
	f, err := store.OpenSafe(r.dir, name)
	if err == nil {
		size, err := fileSize(f)
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		return rawFile{f}, size, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, 0, err
	}
	zf, zerr := store.OpenSafe(r.dir, name+zstSuffix)
	if zerr != nil {
		if errors.Is(zerr, fs.ErrNotExist) {
			return nil, 0, err // the raw file's error: neither is there
		}
		return nil, 0, zerr
	}
	s, zerr := openSeekFile(zf, r.Ref()+"/"+name+zstSuffix)
	if zerr != nil {
		zf.Close()
		var de *DamagedError
		if errors.As(zerr, &de) {
			return nil, 0, zerr
		}
		return nil, 0, r.damagedErr(name+zstSuffix+" cannot be read: "+zerr.Error(), zerr)
	}
	return s, s.Size(), nil
}

// CompressOptions control Compress.
type CompressOptions struct {
	// FrameSize is how many raw bytes one frame holds; 0 means
	// DefaultFrameSize. At most 4 MiB.
	FrameSize int
	// MinSize: a file of at most this many bytes stays raw; 0 means
	// MinCompressSize.
	MinSize int64
	// Late, when it returns true, stops the work between two frames: the
	// file being compressed stays raw (its temporary file is removed).
	Late func() bool
	// midPart: the file is a part of a stream but its last (see frameLen)
	midPart bool
	// AllGrams writes every compressed stream's 4-gram filter (see
	// grams.go), however little it saves; without it a filter is written
	// only where it pays. Tests make small streams.
	AllGrams bool
	// RegionLog is log2 of the bytes of a region of the filter's region
	// map (see grams.go); 0 means 64 KiB. Tests make regions tiny.
	RegionLog int
}

// CompressStats say what Compress did.
type CompressStats struct {
	Files    int   // files compressed by this call
	RawBytes int64 // their raw size
	ZstBytes int64 // their compressed size
	// Done says no file of the recording is left raw (an empty file
	// stays raw: it holds nothing to compress).
	Done bool
}

// MinCompressSize is the size up to which a file stays raw: a file system
// gives a file whole blocks (4 KiB on the usual ones), so a smaller one
// would take as much room compressed.
const MinCompressSize = 4 << 10

// ErrLate is returned by Compress when Late stopped it.
var ErrLate = errors.New("compression stopped: out of time")

// isCompressTemp reports whether name is a temporary file of Compress,
// which a Compress that was killed leaves in a recording's folder (no
// reader opens it; the next Compress of the recording removes it).
func isCompressTemp(name string) bool { return strings.Contains(name, tmpInfix) }

const tmpInfix = ".ztmp-"

var (
	encOnce sync.Once
	enc     *zstd.Encoder
	encErr  error
)

// encoder is zstd's better level (SpeedBetterCompression, about zstd
// -7; see DefaultFrameSize), one frame at a time: a pass compresses on
// one core, off every command's path.
func encoder() (*zstd.Encoder, error) {
	encOnce.Do(func() {
		enc, encErr = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(true))
	})
	return enc, encErr
}

// Compress rewrites the data files of a finished recording (each stream's
// file or files and the chunk index) in their compressed form: each
// NAME.zst is written beside NAME under a temporary name, synced and
// renamed into place, the line index is written anew, the folder is
// synced, and only then are the raw files removed, so a reader finds one
// whole form or the other of every file at every moment, and a kill at
// any point leaves a readable recording (and at most a temporary file no
// reader opens, which the next Compress removes). A recording that is running, died, or whose files do not
// agree (a reader reports that) is left as it is. The line index and the
// small files stay raw. A recording of a stream that ended with no stated
// outcome is left raw too: it is open to appends.
func (r *Recording) Compress(o CompressOptions) (CompressStats, error) {
	var st CompressStats
	if r.Footer == nil || r.Footer.Status == StatusStreamEnded {
		// running or died: not finished; a stream whose outcome nobody
		// stated stays open to rac record --append, which goes on
		// writing its raw files
		return st, nil
	}
	if o.FrameSize <= 0 {
		o.FrameSize = DefaultFrameSize
	}
	if o.FrameSize > maxFrameIn {
		return st, fmt.Errorf("frame size %d is over %d", o.FrameSize, maxFrameIn)
	}
	if err := r.removeCompressTemps(); err != nil {
		return st, err
	}
	names, err := r.rawNames()
	var de *DamagedError
	if errors.As(err, &de) {
		return st, nil // readers say what is wrong; it stays as it is
	}
	if err != nil {
		return st, err
	}
	var done []string          // held compressed too now
	redo := map[string]int64{} // a stream's compressed bytes
	mid := map[string]bool{}   // the files that end in no small frames
	for _, s := range r.Meta.Streams {
		v, err := r.openView(s)
		if err != nil {
			return st, err
		}
		for k, end := range endsStream(v.parts, o.FrameSize) {
			mid[partName(s, v.parts[k].start)] = !end
		}
		v.Close()
	}
	for _, name := range names {
		fo := o
		fo.midPart = mid[name]
		raw, zst, err := r.compressFile(name, fo)
		if err != nil {
			return st, err
		}
		if zst > 0 {
			st.Files++
			st.RawBytes += raw
			st.ZstBytes += zst
			done = append(done, name)
			redo[strings.SplitN(name, tailInfix, 2)[0]] += zst
		}
	}
	for _, s := range r.Meta.Streams {
		if zst, ok := redo[s]; ok {
			if err := r.rewriteLineIndex(s, o.FrameSize); err != nil {
				return st, err
			}
			if err := r.writeGrams(s, zst, o); err != nil {
				return st, err
			}
		}
	}
	if err := r.removeRaw(done); err != nil {
		return st, err
	}
	st.Done = true
	return st, nil
}

// rawNames are the recording's data files still raw, the chunk index
// last, once every stream and the chunk index hold to a reader's checks
// (a DamagedError otherwise: compressed, a hole in the chunk index would
// read as entries of zeros, no longer as damage).
func (r *Recording) rawNames() ([]string, error) {
	var names []string
	for _, s := range r.Meta.Streams {
		v, err := r.openView(s)
		if err != nil {
			return nil, err
		}
		for _, p := range v.parts {
			if _, raw := p.f.(rawFile); raw {
				names = append(names, partName(s, p.start))
			}
		}
		v.Close()
	}
	if _, err := r.Chunks(); err != nil {
		return nil, err
	}
	return append(names, ChunksFile), nil
}

// removeRaw removes the raw files now held compressed, once every new
// name is durable: until then a kill leaves them all (and the next pass
// starts again, removing the temporaries). The stream files and the
// chunk index, which gc looks for (see gc.hasRaw), go after the tail
// segments.
func (r *Recording) removeRaw(done []string) error {
	if err := syncDir(r.dir); err != nil {
		return err
	}
	sort.SliceStable(done, func(i, j int) bool {
		return strings.Contains(done[i], tailInfix) && !strings.Contains(done[j], tailInfix)
	})
	for _, name := range done {
		if err := r.dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// rewriteLineIndex writes the line index of a stream being stored
// compressed anew, with an entry at the start of every frame (at least
// lineStride apart): a reader that starts from an entry then counts
// newlines in one frame, where the recorder's entries (one per write
// that crossed a stride) may be a megabyte apart, several frames to
// decode. A capped stream's kept tail is counted from the lines before
// it, as readers count it (marks). The entries are checked against the
// old index's (a mismatch keeps the old index: readers report it). It is
// written under a temporary name and renamed over the old one, which is
// as true of the same bytes: a kill leaves one or the other.
func (r *Recording) rewriteLineIndex(stream string, frame int) error {
	v, err := r.openView(stream)
	if err != nil {
		return nil // readers report it
	}
	defer v.Close()
	var want []int64
	ends := endsStream(v.parts, frame)
	for k, p := range v.parts {
		for off := int64(0); off < p.size; off += frameLen(p.size-off, frame, ends[k]) {
			if at := p.start + off; len(want) == 0 || at-want[len(want)-1] >= lineStride {
				want = append(want, at)
			}
		}
	}
	if len(want) == 0 || want[0] != 0 {
		return nil
	}
	old, err := r.marks(v, stream)
	if err != nil {
		return nil // the old one does not hold: readers say so
	}
	points := append([]int64(nil), want...)
	for _, m := range old {
		points = append(points, m.Off)
	}
	at, err := newlinesAt(v, points)
	if err != nil {
		return err
	}
	for _, m := range old {
		if at[m.Off] != m.Newlines {
			return nil // readers report it
		}
	}
	b := make([]byte, 0, len(linesMagic)+lineEntry*len(want))
	b = append(b, linesMagic...)
	for _, w := range want {
		b = binary.LittleEndian.AppendUint64(b, uint64(at[w]))
		b = binary.LittleEndian.AppendUint64(b, uint64(w))
	}
	_, err = r.replaceFile(linesPfx+stream, func(w io.Writer) (int64, error) {
		n, err := w.Write(b)
		return int64(n), err
	})
	return err
}

// newlinesAt counts, once through the stream, the newlines before each
// of points (a capped stream's kept tail counted from the lines before
// it, as marks counts them).
func newlinesAt(v *streamView, points []int64) (map[int64]int64, error) {
	sort.Slice(points, func(i, j int) bool { return points[i] < points[j] })
	at := map[int64]int64{}
	var nl int64
	next := 0
	settle := func(upTo int64) { // every point before upTo is at nl
		for next < len(points) && points[next] < upTo {
			at[points[next]] = nl
			next++
		}
	}
	tail := false
	err := v.each(0, v.Size(), make([]byte, readBlock), func(p []byte, off int64) error {
		if v.gapped() && !tail && off >= v.cut.KeptFrom {
			settle(off)
			nl, tail = v.cut.LinesBefore(), true
		}
		for len(p) > 0 {
			settle(off + 1)
			k := int64(len(p))
			if next < len(points) && points[next] < off+k {
				k = points[next] - off
			}
			nl += int64(bytes.Count(p[:k], []byte{'\n'}))
			p, off = p[k:], off+k
		}
		return nil
	})
	settle(math.MaxInt64)
	return at, err
}

// endsStream says which of a stream's files end in small frames (see
// frameLen): the last, and any before it that a tail may read, less than
// two small frames from the stream's end (a last segment of a few bytes,
// too small to compress).
func endsStream(parts []part, frame int) []bool {
	small := smallFrame(frame)
	ends := make([]bool, len(parts))
	var after int64
	for k := len(parts) - 1; k >= 0; k-- {
		ends[k] = after < 2*small
		after += parts[k].size
	}
	return ends
}

// replaceFile writes name anew: under a temporary name (write fills it),
// synced, then renamed over name, so a reader finds the old file or the
// new one, whole; on any failure the temporary file is removed (a kill
// leaves it to removeCompressTemps).
func (r *Recording) replaceFile(name string, write func(io.Writer) (int64, error)) (int64, error) {
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := name + tmpInfix + hex.EncodeToString(rnd[:])
	f, err := store.CreateExcl(r.dir, tmp)
	if err != nil {
		return 0, err
	}
	n, err := write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.dir.Rename(tmp, name)
	}
	if err != nil {
		_ = r.dir.Remove(tmp)
		return 0, err
	}
	return n, nil
}

// removeCompressTemps removes what a killed Compress left.
func (r *Recording) removeCompressTemps() error {
	d, err := r.dir.Open(".")
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	for _, n := range names {
		if isCompressTemp(n) {
			if err := r.dir.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// compressFile writes NAME.zst from NAME and removes NAME. A missing or
// empty NAME is left alone (0, 0).
func (r *Recording) compressFile(name string, o CompressOptions) (rawSize, zstSize int64, err error) {
	src, err := store.OpenSafe(r.dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	defer src.Close()
	rawSize, err = fileSize(src)
	minSize := o.MinSize
	if minSize == 0 {
		minSize = MinCompressSize
	}
	if err != nil || rawSize == 0 || rawSize <= minSize {
		return 0, 0, err
	}
	zstSize, err = r.replaceFile(name+zstSuffix, func(w io.Writer) (int64, error) {
		return writeSeekable(w, io.NewSectionReader(src, 0, rawSize), rawSize, o)
	})
	if err != nil {
		return 0, 0, err
	}
	return rawSize, zstSize, nil
}

func syncDir(dir *os.Root) error {
	d, err := dir.Open(".")
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// writeSeekable compresses the size bytes of src into w in the seekable
// format, in the frames framePlan gives, and returns the bytes written.
func writeSeekable(w io.Writer, src io.Reader, size int64, o CompressOptions) (int64, error) {
	e, err := encoder()
	if err != nil {
		return 0, err
	}
	frame := o.FrameSize
	if frame <= 0 {
		frame = DefaultFrameSize
	}
	in := make([]byte, frame)
	var out []byte
	var sizes [][2]uint32
	var written, done int64
	for done < size {
		if o.Late != nil && o.Late() {
			return written, ErrLate
		}
		n, err := io.ReadFull(src, in[:frameLen(size-done, frame, !o.midPart)])
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // shorter than its size said
			}
			return written, err
		}
		out = e.EncodeAll(in[:n], out[:0])
		if _, err := w.Write(out); err != nil {
			return written, err
		}
		written += int64(len(out))
		done += int64(n)
		sizes = append(sizes, [2]uint32{uint32(len(out)), uint32(n)})
	}
	table := appendSeekTable(nil, sizes)
	if _, err := w.Write(table); err != nil {
		return written, err
	}
	return written + int64(len(table)), nil
}

// ErrCompressed is what asking for the raw file of a stream stored
// compressed is (see CompressedError).
var ErrCompressed = errors.New("stream is stored compressed")

// CompressedError says a stream's file is stored compressed: no path
// holds its raw bytes, and 'rac out read --raw' gives them.
type CompressedError struct {
	Ref, Stream string
}

func (e *CompressedError) Error() string {
	return e.Stream + " of " + e.Ref + " is stored compressed (" + e.Stream + zstSuffix + "), so no file holds its bytes as recorded: read them with rac out read --raw --stream " + e.Stream + " " + e.Ref
}

// Is makes errors.Is(err, ErrCompressed) hold.
func (e *CompressedError) Is(target error) bool { return target == ErrCompressed }

// RawFile checks that a stream's bytes are in the file of its name
// (written raw, or not there at all: an empty stream), for a tool that
// opens it; a stream stored compressed is a CompressedError.
func (r *Recording) RawFile(stream string) error {
	if _, err := r.dir.Lstat(stream); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := r.dir.Lstat(stream + zstSuffix); err == nil {
		return &CompressedError{Ref: r.Ref(), Stream: stream}
	}
	return nil
}
