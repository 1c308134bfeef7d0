package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/store"
)

// SeamsFile lists the seams of a recording that was appended to (Reopen):
// where one part ends and the next begins.
const SeamsFile = "seams.json"

// maxSeams bounds the seams a recording takes: each append costs one, and
// seams.json is read whole.
const maxSeams = 1000

// Seam is where a part of an appended recording ends and the next one
// begins: when the next one began, what each stream had stored by then,
// and how the part before had ended (StatusStreamEnded, or
// StatusIncomplete with the signal that stopped its recorder, if one
// was written down).
type Seam struct {
	At       time.Time         `json:"at"`
	Stored   map[string]Counts `json:"stored"`
	Before   string            `json:"before"`
	Stopping string            `json:"stopping,omitempty"`
}

// Errors of Reopen: the recording's outcome was stated (it is final), its
// recorder still runs, or it cannot be continued (damaged, or a capped
// recording with more than one stream in its rolling tail).
var (
	ErrFinal      = errors.New("its outcome was stated, so it is final")
	ErrStillOpen  = errors.New("it is still being recorded")
	ErrNotAppend  = errors.New("it cannot be appended to")
	errSeamsLimit = fmt.Errorf("%w: it has %d seams already", ErrNotAppend, maxSeams)
)

// Stated reports whether a footer states how the command ended: every
// status but StatusStreamEnded (nobody said) does.
func (f *Footer) Stated() bool { return f.Status != StatusStreamEnded }

// ReopenOptions name a recording to continue.
type ReopenOptions struct {
	Session *store.Session
	Name    string
	Now     func() time.Time
}

// Reopened is a recording reopened for more output: its writer, the seam
// just written down, and the footer of the part before (nil when that
// part was incomplete).
type Reopened struct {
	W      *Writer
	Seam   Seam
	Before *Footer
}

// Reopen continues a recording whose outcome was never stated (its
// footer says StatusStreamEnded, or it has none: incomplete): it takes the
// recording's lock (ErrStillOpen while its recorder runs), refuses one
// with a stated outcome (ErrFinal), writes the seam down, takes the
// footer back as the footer's reserve, and returns a writer that goes on
// where each stream ended: a capped recording goes on with its head and
// rolling tail as they were (ErrNotAppend when more than one stream is in
// its tail).
func Reopen(o ReopenOptions) (*Reopened, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	seq, ok := ParseName(o.Name)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not a recording name", store.ErrUnsafeFile, o.Name)
	}
	sr := o.Session.Root()
	fi, err := sr.Lstat(o.Name)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", store.ErrUnsafeFile, o.Name)
	}
	w := &Writer{Session: o.Session.Name, Name: o.Name, Seq: seq, now: now, streams: map[string]*StreamSink{}}
	if w.dir, err = sr.OpenRoot(o.Name); err != nil {
		return nil, err
	}
	re, err := w.reopen()
	if err != nil {
		w.closeFiles()
		return nil, err
	}
	return re, nil
}

func (w *Writer) reopen() (*Reopened, error) {
	var err error
	if w.lock, err = store.LockFile(w.dir, LockFile, false); err != nil {
		if errors.Is(err, store.ErrLocked) {
			return nil, ErrStillOpen
		}
		return nil, err
	}
	if err := w.readMeta(); err != nil {
		return nil, err
	}
	re := &Reopened{W: w, Seam: Seam{Before: StatusIncomplete}}
	if err := w.partBefore(re); err != nil {
		return nil, err
	}
	seams, err := w.seams()
	if err != nil {
		return nil, err
	}
	if w.Meta.MaxBytes > 0 {
		w.cap = newCapper(w.Meta.MaxBytes, w.Meta.HeadBytes)
	}
	for _, s := range w.Meta.Streams {
		sink, err := w.reopenSink(s)
		if err != nil {
			return nil, err
		}
		w.streams[s] = sink
	}
	if err := w.reopenCap(); err != nil {
		return nil, err
	}
	re.Seam.Stored = map[string]Counts{}
	for name, s := range w.streams {
		re.Seam.Stored[name] = s.counts()
	}
	if err := w.reopenChunks(); err != nil {
		return nil, err
	}
	// everything is read: from here on the recording changes
	re.Seam.At = w.now().UTC()
	sb, err := json.MarshalIndent(append(seams, re.Seam), "", "  ")
	if err != nil {
		return nil, err
	}
	if err := store.WriteFileAtomic(w.dir, SeamsFile, append(sb, '\n')); err != nil {
		return nil, err
	}
	if err := w.takeFooterBack(re.Before != nil); err != nil {
		return nil, err
	}
	if err := w.dir.Remove(StoppingFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return re, nil
}

func (w *Writer) readMeta() error {
	mb, err := store.ReadSmallFile(w.dir, MetaFile, 1<<20)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(mb, &w.Meta); err != nil {
		return fmt.Errorf("read metadata of %s: %w", w.Ref(), err)
	}
	if w.Meta.Format > FormatVersion {
		return fmt.Errorf("%w: %s has format %d, this rac writes %d", ErrNewerFormat, w.Ref(), w.Meta.Format, FormatVersion)
	}
	return nil
}

// partBefore reads how the part before ended: its footer (refused when
// it states an outcome), or none (incomplete, maybe with the signal that
// stopped its recorder).
func (w *Writer) partBefore(re *Reopened) error {
	fb, err := store.ReadSmallFile(w.dir, FooterFile, 1<<20)
	switch {
	case err == nil:
		var f Footer
		if err := json.Unmarshal(fb, &f); err != nil {
			return fmt.Errorf("%w: read the footer of %s: %v", ErrNotAppend, w.Ref(), err)
		}
		if f.Stated() {
			return ErrFinal
		}
		re.Before, re.Seam.Before = &f, f.Status
	case !errors.Is(err, fs.ErrNotExist):
		return err
	default:
		if b, err := store.ReadSmallFile(w.dir, StoppingFile, 256); err == nil {
			re.Seam.Stopping = strings.TrimSpace(string(b))
		}
	}
	return nil
}

// seams are the seams written so far; a recording with maxSeams takes no
// more.
func (w *Writer) seams() ([]Seam, error) {
	var seams []Seam
	if b, err := store.ReadSmallFile(w.dir, SeamsFile, 1<<20); err == nil {
		if err := json.Unmarshal(b, &seams); err != nil {
			return nil, fmt.Errorf("%w: read the seams of %s: %v", ErrNotAppend, w.Ref(), err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if len(seams) >= maxSeams {
		return nil, errSeamsLimit
	}
	return seams, nil
}

// reopenCap gives a capped recording's capper back what it knew: the
// head used, and for a stream in its rolling tail, its cut so far, its
// segments (the last one open again for more) and the tail's size. Only
// one stream may be in the tail: the order in which segments of several
// streams filled up is not on disk.
func (w *Writer) reopenCap() error {
	if w.cap == nil {
		return nil
	}
	c := w.cap
	f, err := w.dir.Open(".")
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	segs := map[string][]string{}
	for _, n := range names {
		if stream, _, ok := strings.Cut(n, tailInfix); ok {
			segs[stream] = append(segs[stream], n)
		}
	}
	if len(segs) > 1 {
		return fmt.Errorf("%w: its cap has begun a rolling tail in %d streams", ErrNotAppend, len(segs))
	}
	var cuts map[string]StreamCut
	if b, err := store.ReadSmallFile(w.dir, CutFile, 1<<20); err == nil {
		if err := json.Unmarshal(b, &cuts); err != nil {
			return fmt.Errorf("%w: read its cut: %v", ErrNotAppend, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for _, s := range w.streams {
		c.headUsed += s.off
	}
	for stream, names := range segs {
		s := w.streams[stream]
		if s == nil {
			return fmt.Errorf("%w: a tail segment of no stream of it (%s)", ErrNotAppend, names[0])
		}
		c.headUsed = c.head // a stream goes to its tail only when the head is full
		if err := s.reopenTail(names, cuts); err != nil {
			return err
		}
	}
	return nil
}

// reopenTail picks up a stream's rolling tail: its cut (from cut.json,
// or the head as it ends when nothing was dropped yet), then each
// segment in stream order, counted; the last one is opened to go on.
func (s *StreamSink) reopenTail(names []string, cuts map[string]StreamCut) error {
	c := s.w.cap
	cut, ok := cuts[s.stream]
	if !ok {
		cut = StreamCut{HeadEnd: s.off, KeptFrom: s.off, HeadLines: s.nl}
	}
	c.cuts[s.stream] = &cut
	s.inTail = true
	s.off, s.nl = cut.KeptFrom, cut.LinesBefore()
	slices.Sort(names) // the offsets are fixed-width hex: by name is by offset
	for len(names) > 0 {
		// a segment the cut already dropped, which a killed recorder had
		// not removed yet: removed now, as it would have been
		start, err := strconv.ParseInt(strings.TrimPrefix(names[0], s.stream+tailInfix), 16, 64)
		if err != nil || start >= s.off {
			break
		}
		if err := s.w.dir.Remove(names[0]); err != nil {
			return err
		}
		names = names[1:]
	}
	for i, name := range names {
		start, err := strconv.ParseInt(strings.TrimPrefix(name, s.stream+tailInfix), 16, 64)
		if err != nil || start != s.off {
			return fmt.Errorf("%w: its tail segment %s does not start where the stream goes on (%d)", ErrNotAppend, name, s.off)
		}
		f, err := store.OpenSafeRW(s.w.dir, name)
		if err != nil {
			return err
		}
		seg := &segment{sink: s, name: name, start: start}
		counted := &StreamSink{data: f}
		if err := counted.scan(); err != nil {
			f.Close()
			return err
		}
		seg.size, seg.nl = counted.off, counted.nl
		s.off += seg.size
		s.nl += seg.nl
		if seg.size > 0 {
			s.last = counted.last
		}
		c.tailBytes += seg.size
		if i < len(names)-1 {
			c.closed = append(c.closed, seg)
			f.Close()
			continue
		}
		s.seg, s.segInfo = f, seg
	}
	return nil
}

// reopenSink opens a stream's files to go on where the stream ends: its
// size, newlines and last byte, and where the next line index entry goes.
func (w *Writer) reopenSink(stream string) (*StreamSink, error) {
	id, ok := streamIDs[stream]
	if !ok {
		return nil, fmt.Errorf("%w: unknown stream %q", ErrNotAppend, stream)
	}
	data, err := store.OpenSafeRW(w.dir, stream)
	if err != nil {
		return nil, err
	}
	s := &StreamSink{w: w, stream: stream, id: id, data: data}
	if err := s.scan(); err != nil {
		data.Close()
		return nil, err
	}
	if _, err := data.Seek(s.off, io.SeekStart); err != nil {
		data.Close()
		return nil, err
	}
	lines, err := store.OpenSafeRW(w.dir, linesPfx+stream)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil // created on the next first byte
	}
	if err != nil {
		data.Close()
		return nil, err
	}
	s.lines = lines
	if err := s.reopenLines(); err != nil {
		_ = s.close()
		return nil, err
	}
	return s, nil
}

// scan counts the stream's bytes and newlines and notes its last byte.
func (s *StreamSink) scan() error {
	buf := make([]byte, 64<<10)
	for {
		n, err := s.data.Read(buf)
		if n > 0 {
			s.off += int64(n)
			s.nl += int64(bytes.Count(buf[:n], []byte{'\n'}))
			s.last = buf[n-1]
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// reopenLines checks the line index and sets where its next entry goes; a
// part of an entry a killed recorder left is cut off.
func (s *StreamSink) reopenLines() error {
	fi, err := s.lines.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	var magic [len(linesMagic)]byte
	if _, err := s.lines.ReadAt(magic[:], 0); err != nil || string(magic[:]) != linesMagic {
		return fmt.Errorf("%w: the line index of %s is damaged", ErrNotAppend, s.stream)
	}
	whole := int64(len(linesMagic)) + (size-int64(len(linesMagic)))/lineEntry*lineEntry
	if whole != size {
		if err := s.lines.Truncate(whole); err != nil {
			return err
		}
	}
	if whole > int64(len(linesMagic)) {
		var e [lineEntry]byte
		if _, err := s.lines.ReadAt(e[:], whole-lineEntry); err != nil {
			return err
		}
		s.nextIx = int64(binary.LittleEndian.Uint64(e[8:])) + lineStride
	}
	_, err = s.lines.Seek(whole, io.SeekStart)
	return err
}

// reopenChunks opens the chunk index, covers with one entry a stream's
// bytes it missed (a recorder killed between a data write and its entry),
// and makes the next write start an entry of its own, so the seam shows in
// the arrival order.
func (w *Writer) reopenChunks() error {
	f, err := store.OpenSafeRW(w.dir, ChunksFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	w.chunks = f
	b, err := io.ReadAll(io.LimitReader(f, MaxChunkIndex+1))
	if err != nil {
		return err
	}
	if len(b) < len(chunksMagic) || string(b[:len(chunksMagic)]) != chunksMagic {
		return fmt.Errorf("%w: its chunk index is damaged", ErrNotAppend)
	}
	end := int64(len(chunksMagic)) + int64(len(b)-len(chunksMagic))/chunkSize*chunkSize
	covered := map[string]int64{}
	for p := int64(len(chunksMagic)); p < end; p += chunkSize {
		c := decodeChunk(b[p : p+chunkSize])
		covered[c.Stream] = max(covered[c.Stream], c.Off+c.Len)
	}
	w.last = lastChunk{end: end}
	if end > int64(len(chunksMagic)) {
		w.last.pos = end - chunkSize
	}
	if err := f.Truncate(end); err != nil {
		return err
	}
	for _, name := range w.Meta.Streams {
		s := w.streams[name]
		if from := covered[name]; from < s.off && end+chunkSize <= w.chunkLimit() {
			encodeChunk(s.entry[:], s.id, from, s.off-from, w.now())
			if _, err := f.WriteAt(s.entry[:], end); err != nil {
				return err
			}
			w.last = lastChunk{pos: end, end: end + chunkSize}
			end += chunkSize
		}
	}
	return nil
}

// takeFooterBack turns the footer of the part before (found: it has one)
// back into the footer's reserve, or reserves the room anew.
func (w *Writer) takeFooterBack(found bool) error {
	if !found {
		f, err := store.OpenSafeRW(w.dir, footerReserveFile)
		if errors.Is(err, fs.ErrNotExist) {
			w.reserve, err = reserveFooter(w.dir)
			return err
		}
		if err != nil {
			return err
		}
		w.reserve = f
		return w.fillReserve()
	}
	if err := w.dir.Rename(FooterFile, footerReserveFile); err != nil {
		return err
	}
	f, err := store.OpenSafeRW(w.dir, footerReserveFile)
	if err != nil {
		return err
	}
	w.reserve = f
	return w.fillReserve()
}

// fillReserve gives a reserve taken back its whole room again.
func (w *Writer) fillReserve() error {
	if err := allocate(w.reserve, footerReserve); err == nil {
		return nil
	}
	_, err := w.reserve.WriteAt(bytes.Repeat([]byte{' '}, footerReserve), 0)
	return err
}

// Seams are the seams of an appended recording, oldest first; none for
// one never appended to.
func (r *Recording) Seams() ([]Seam, error) {
	b, err := store.ReadSmallFile(r.dir, SeamsFile, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var seams []Seam
	if err := json.Unmarshal(b, &seams); err != nil {
		return nil, r.damagedErr("its seams", err)
	}
	return seams, nil
}
