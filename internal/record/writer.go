package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rac-cli/rac/internal/store"
)

// CreateOptions describe a recording about to start.
type CreateOptions struct {
	Session    *store.Session
	Argv       []string // already redacted by the caller: it is stored as given
	Cwd        string   // likewise
	Mode       string
	Streams    []string
	Redact     bool
	RacVersion string
	Now        func() time.Time
	// MaxBytes caps the recording over all streams (0: no cap); the first
	// HeadBytes are kept whole and the rest is a rolling tail.
	MaxBytes  int64
	HeadBytes int64
}

// Writer is a recording being written. It becomes visible in the session
// only once its lock is held, so no reader ever sees a starting recording
// without a lock or footer.
type Writer struct {
	Session string
	Name    string
	Seq     int64
	Meta    Meta

	dir  *os.Root
	lock *store.Lock
	now  func() time.Time

	mu      sync.Mutex // guards chunks and err
	chunks  *os.File
	err     error
	streams map[string]*StreamSink
	cap     *capper // nil: not capped
}

// Create allocates the next number of the session, creates the recording
// under a temporary name, takes its lock, writes its metadata and renames
// it into place.
func Create(o CreateOptions) (*Writer, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	seq, err := o.Session.NextSeq()
	if err != nil {
		return nil, fmt.Errorf("allocate a number in session %s: %w", o.Session.Name, err)
	}
	name := Name(seq, o.Argv)
	// name is new in the session (its number was just taken under the
	// session lock and numbers are never reused), so this is too; the pid
	// says whose it is. (Not crypto/rand: its first use costs a quarter of
	// a millisecond on every rac start.)
	tmp := ".new-" + name + "-" + strconv.Itoa(os.Getpid())
	sr := o.Session.Root()
	if err := sr.Mkdir(tmp, 0o700); err != nil {
		return nil, err
	}
	w := &Writer{Session: o.Session.Name, Name: name, Seq: seq, now: now, streams: map[string]*StreamSink{}}
	if o.MaxBytes > 0 {
		w.cap = newCapper(o.MaxBytes, o.HeadBytes)
	}
	fail := func(err error) (*Writer, error) {
		w.closeFiles()
		_ = sr.RemoveAll(tmp)
		return nil, err
	}
	if w.dir, err = sr.OpenRoot(tmp); err != nil {
		return fail(err)
	}
	lf, err := store.CreateExcl(w.dir, LockFile)
	if err != nil {
		return fail(err)
	}
	if w.lock, err = store.NewLock(lf); err != nil {
		lf.Close()
		return fail(err)
	}
	w.Meta = Meta{
		Format: FormatVersion, Session: w.Session, Name: name, Seq: seq,
		Argv: o.Argv, Cwd: o.Cwd, StartedAt: now().UTC(), RacVersion: o.RacVersion,
		Mode: o.Mode, Streams: o.Streams, Redact: o.Redact, PID: os.Getpid(),
	}
	if w.cap != nil {
		w.Meta.MaxBytes, w.Meta.HeadBytes = w.cap.max, w.cap.head
	}
	mb, err := encodeMeta(&w.Meta)
	if err != nil {
		return fail(err)
	}
	if err := writeNew(w.dir, MetaFile, append(mb, '\n')); err != nil {
		return fail(err)
	}
	for _, s := range o.Streams {
		sink, err := w.newSink(s)
		if err != nil {
			return fail(err)
		}
		w.streams[s] = sink
	}
	if err := sr.Rename(tmp, name); err != nil {
		return fail(err)
	}
	return w, nil
}

func writeNew(r *os.Root, name string, data []byte) error {
	f, err := store.CreateExcl(r, name)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	return errors.Join(werr, f.Close())
}

// Ref is the qualified reference SESSION/NAME.
func (w *Writer) Ref() string { return w.Session + "/" + w.Name }

// MarkStopping writes down, at once, that sig reached the recorder while
// the command ran: if the recorder is killed before its footer, the
// recording reads "incomplete" with the signal that was stopping it.
func (w *Writer) MarkStopping(sig string) error {
	return store.WriteFileAtomic(w.dir, StoppingFile, []byte(sig+"\n"))
}

// Sink returns the store side of one stream.
func (w *Writer) Sink(stream string) *StreamSink { return w.streams[stream] }

// Err returns the first store error, after which nothing more is written.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *Writer) setErr(err error) {
	w.mu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.mu.Unlock()
}

// Finish writes the footer, closes every file (checking each close: a
// failed close can mean a short recording) and releases the lock.
func (w *Writer) Finish(f Footer) error {
	f.Format = FormatVersion
	f.Stored = map[string]Counts{}
	for name, s := range w.streams {
		f.Stored[name] = s.counts()
	}
	if w.cap != nil {
		f.Cut = w.cap.cutsCopy()
		f.Truncated = f.Cut != nil
	}
	var errs []error
	for _, s := range w.streams {
		errs = append(errs, s.close())
	}
	if w.chunks != nil {
		errs = append(errs, w.chunks.Close())
		w.chunks = nil
	}
	if err := errors.Join(append(errs, w.Err())...); err != nil {
		f.BrokenOff = true
		f.Notes = append(f.Notes, "recording broken off: "+firstLine(err.Error()))
	}
	// Everything but the footer is written and closed: the folder is as
	// it stays. A folder that cannot be measured only costs GC a stat of
	// each file, so that is no reason to break the recording off.
	f.Disk, _ = MeasureDir(w.dir)
	fb, err := encodeFooter(&f)
	if err == nil {
		// Written in place, not renamed: the lock is still held, and a
		// reader that finds a footer it cannot parse under a held lock
		// takes the recording as running.
		err = writeNew(w.dir, FooterFile, append(fb, '\n'))
	}
	w.closeFiles()
	return err
}

func (w *Writer) closeFiles() {
	for _, s := range w.streams {
		_ = s.close()
	}
	if w.chunks != nil {
		_ = w.chunks.Close()
		w.chunks = nil
	}
	if w.lock != nil {
		_ = w.lock.Close()
		w.lock = nil
	}
	if w.dir != nil {
		_ = w.dir.Close()
		w.dir = nil
	}
}

func firstLine(s string) string {
	if i := bytes.IndexByte([]byte(s), '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// StreamSink appends one stream's bytes to its data file and notes each
// write in the chunk index and, every lineStride bytes, in the line index.
// One goroutine writes to a sink at a time.
type StreamSink struct {
	w      *Writer
	stream string
	id     byte
	data   *os.File
	lines  *os.File
	off    int64
	nl     int64 // newlines written so far
	nextIx int64 // offset at or after which the next line index entry goes
	last   byte
	at     atomic.Int64 // arrival time (unix ns) of the bytes being written; set from the pump's side
	entry  [chunkSize]byte
	closed bool

	// capped recordings only
	inTail  bool
	seg     *os.File
	segInfo *segment
}

// newSink creates the stream's data file now, so its path (rac out path)
// exists from the start; its line index is made on the first byte.
func (w *Writer) newSink(stream string) (*StreamSink, error) {
	id, ok := streamIDs[stream]
	if !ok {
		return nil, fmt.Errorf("unknown stream %q", stream)
	}
	data, err := store.CreateExcl(w.dir, stream)
	if err != nil {
		return nil, err
	}
	return &StreamSink{w: w, stream: stream, id: id, data: data}, nil
}

// openLines creates the line index on the stream's first byte: most
// commands leave a stream empty, and creating files is most of what a
// short rac run costs.
func (s *StreamSink) openLines() error {
	lines, err := store.CreateExcl(s.w.dir, linesPfx+s.stream)
	if err != nil {
		return err
	}
	if _, err := lines.Write([]byte(linesMagic)); err != nil {
		lines.Close()
		return err
	}
	s.lines = lines
	return nil
}

// chunkIndex returns the chunk index, created on the first chunk; w.mu held.
func (w *Writer) chunkIndex() (*os.File, error) {
	if w.chunks != nil {
		return w.chunks, nil
	}
	f, err := store.CreateExcl(w.dir, ChunksFile)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write([]byte(chunksMagic)); err != nil {
		f.Close()
		return nil, err
	}
	w.chunks = f
	return f, nil
}

// Write stores p. After the first store error it discards everything and
// reports success, so the filter in front of it keeps flowing: the error is
// kept in the Writer and reported once.
func (s *StreamSink) Write(p []byte) (int, error) {
	if len(p) == 0 || s.closed || s.w.Err() != nil {
		return len(p), nil
	}
	if s.lines == nil {
		if err := s.openLines(); err != nil {
			s.w.setErr(err)
			return len(p), nil
		}
	}
	if s.off >= s.nextIx {
		var e [lineEntry]byte
		binary.LittleEndian.PutUint64(e[0:], uint64(s.nl))
		binary.LittleEndian.PutUint64(e[8:], uint64(s.off))
		if _, err := s.lines.Write(e[:]); err != nil {
			s.w.setErr(err)
			return len(p), nil
		}
		s.nextIx = s.off + lineStride
	}
	var err error
	if s.w.cap != nil {
		err = s.storeCapped(p, s.off, s.nl)
	} else {
		_, err = s.data.Write(p)
	}
	if err != nil {
		s.w.setErr(err)
		return len(p), nil
	}
	t := s.w.now()
	if ns := s.at.Load(); ns != 0 {
		t = time.Unix(0, ns)
	}
	encodeChunk(s.entry[:], s.id, s.off, int64(len(p)), t)
	s.w.mu.Lock()
	idx, err := s.w.chunkIndex()
	if err == nil {
		_, err = idx.Write(s.entry[:])
	}
	s.w.mu.Unlock()
	if err != nil {
		s.w.setErr(err)
	}
	s.off += int64(len(p))
	s.nl += int64(bytes.Count(p, []byte{'\n'}))
	s.last = p[len(p)-1]
	return len(p), nil
}

// Arrived sets the arrival time of the bytes the next writes store (a
// filter in front of the sink may hold bytes back and write them later).
func (s *StreamSink) Arrived(t time.Time) { s.at.Store(t.UnixNano()) }

// counts are of the stream as stored, cut or not.
func (s *StreamSink) counts() Counts {
	c := Counts{Bytes: s.off, Lines: s.nl}
	if s.off > 0 && s.last != '\n' {
		c.Lines++
	}
	return c
}

func (s *StreamSink) close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for _, f := range []*os.File{s.data, s.lines, s.seg} {
		if f != nil {
			errs = append(errs, f.Close())
		}
	}
	return errors.Join(errs...)
}
