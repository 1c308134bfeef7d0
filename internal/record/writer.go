package record

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/rac-cli/rac/internal/store"
	"golang.org/x/sys/unix"
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
	// Parent is the qualified reference of the recording this one runs
	// inside ("" for none), already validated by the caller.
	Parent string
	// Slug names the recording instead of argv (a plain word: rac record
	// --name); "": the name comes from argv.
	Slug string
	// Source is Meta.Source: what feeds the recording ("" for rac run).
	Source string
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

	// reserve is the footer's room, taken at the start (see Finish)
	reserve *os.File

	mu      sync.Mutex // guards chunks, last and err
	chunks  *os.File
	last    lastChunk // the chunk index's last entry
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
	if o.Slug != "" {
		name = Name(seq, []string{o.Slug})
	}
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
	if err := w.fill(o); err != nil {
		return fail(err)
	}
	if err := sr.Rename(tmp, name); err != nil {
		return fail(err)
	}
	return w, nil
}

// fill writes what a new recording holds before it is renamed into place:
// its metadata, the room its footer needs, and one sink per stream.
func (w *Writer) fill(o CreateOptions) error {
	w.Meta = Meta{
		Format: FormatVersion, Session: w.Session, Name: w.Name, Seq: w.Seq,
		Argv: o.Argv, Cwd: o.Cwd, StartedAt: w.now().UTC(), RacVersion: o.RacVersion,
		Mode: o.Mode, Streams: o.Streams, Redact: o.Redact, PID: os.Getpid(),
		Parent: o.Parent, Source: o.Source,
	}
	if w.cap != nil {
		w.Meta.MaxBytes, w.Meta.HeadBytes = w.cap.max, w.cap.head
	}
	mb, err := encodeMeta(&w.Meta)
	if err != nil {
		return err
	}
	if err := writeNew(w.dir, MetaFile, append(mb, '\n')); err != nil {
		return err
	}
	if w.reserve, err = reserveFooter(w.dir); err != nil {
		return err
	}
	for _, s := range o.Streams {
		sink, err := w.newSink(s)
		if err != nil {
			return err
		}
		w.streams[s] = sink
	}
	return nil
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
// failed close can mean a short recording) and releases the lock. The
// footer goes into the room reserved for it when the recording started,
// so a file system that filled up during the run (the recording broke
// off) still gets the command's outcome: the recorder lived, and the
// recording must not read as if it had died.
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
	f.Signal = boundString(f.Signal, maxSignal)
	f.OutcomeFrom = boundString(f.OutcomeFrom, maxOutcomeFrom)
	f.Notes = boundNotes(f.Notes, maxNotesJSON)
	if err := errors.Join(append(errs, w.Err())...); err != nil {
		f.BrokenOff = true
		f.Notes = append(f.Notes, boundString("recording broken off: "+firstLine(err.Error()), maxBrokenNote))
	}
	f.Redactions = boundRedactions(f.Redactions, maxRedactionsJSON)
	if g := f.Agent; g != nil {
		b := *g
		for _, s := range []*string{&b.Kind, &b.Format, &b.Version, &b.Stream, &b.Model, &b.Outcome} {
			*s = boundString(*s, maxAgentField)
		}
		f.Agent = &b
	}
	// Everything but the footer is written and closed: the folder is as
	// it stays. A folder that cannot be measured only costs GC a stat of
	// each file, so that is no reason to break the recording off.
	f.Disk, _ = MeasureDir(w.dir)
	fb, err := fitFooter(&f)
	if err == nil {
		err = w.writeFooter(append(fb, '\n'))
	}
	w.closeFiles()
	return err
}

// Abandon ends the recording without an outcome: whatever was stored is
// kept, every file is closed (each close checked) and the lock released,
// and no footer is written, so readers see it as incomplete, as they see
// the recording of a recorder that died (with the signal MarkStopping
// wrote, if any). It is for a producer that lost its source before it
// could say how the command ended (a stream cut off, a remote runner
// gone).
func (w *Writer) Abandon() error {
	var errs []error
	for _, s := range w.streams {
		errs = append(errs, s.close())
	}
	w.mu.Lock()
	if w.chunks != nil {
		errs = append(errs, w.chunks.Close())
		w.chunks = nil
	}
	w.mu.Unlock()
	w.closeFiles()
	return errors.Join(append(errs, w.Err())...)
}

// The footer's reserve. A footer is a few hundred bytes of fixed fields
// (three streams at most), its notes (bounded to maxNotesJSON encoded, the
// broken-off note to maxBrokenNote, the signal to maxSignal) and its
// redaction counts (rules beyond maxRedactionsJSON summed as "other"):
// under footerReserve, which TestFooterFitsItsReserve checks for the
// largest footer. The reserve is one block of the usual file systems (4
// KiB): cutting it to the footer's length then frees no block, about 2 µs
// where a 16 KiB reserve took 60 to 90 µs of every rac run's end on ext4
// (measured here). Real notes are a few short lines and real redaction
// counts a few rules.
const (
	footerReserveFile = "footer.reserve"
	footerReserve     = 4 << 10
	// maxAgentField bounds each string of the footer's agent note
	maxAgentField     = 128
	maxNotesJSON      = 1536
	maxRedactionsJSON = 1 << 10
	maxBrokenNote     = 512
	maxSignal         = 64
	maxOutcomeFrom    = 256
)

// fitFooter encodes f, giving up what matters least until it fits the
// reserve with its newline: escaping can make a bounded string six times
// its length (a control byte is \u00XX), so the byte bounds above leave
// the rare footer of escaped notes too long for one block. Where its
// outcome came from is cut first, then its notes go, from the last
// (broken_off stays set), then the redaction counts
// become one sum under "other", then the signal is cut short.
func fitFooter(f *Footer) ([]byte, error) {
	for {
		fb, err := encodeFooter(f)
		if err != nil || len(fb) < footerReserve {
			return fb, err
		}
		switch {
		case len(f.OutcomeFrom) > 32:
			// where the outcome came from matters less than the notes
			f.OutcomeFrom = boundString(f.OutcomeFrom, 32)
		case len(f.Notes) > 0:
			f.Notes = f.Notes[:len(f.Notes)-1]
		case len(f.Redactions) > 1:
			total := 0
			for _, n := range f.Redactions {
				total += n
			}
			f.Redactions = map[string]int{"other": total}
		case len(f.Signal) > 16:
			f.Signal = boundString(f.Signal, 16)
		default:
			return fb, nil // fixed fields only: written past the reserve
		}
	}
}

// reserveFooter takes the footer's room on disk: allocated (fallocate,
// or written where that is not supported), so writing the footer over it
// later needs no free space on file systems that overwrite in place. Its
// content reads as no JSON, should anyone look.
func reserveFooter(dir *os.Root) (*os.File, error) {
	f, err := store.CreateExcl(dir, footerReserveFile)
	if err != nil {
		return nil, err
	}
	err = allocate(f, footerReserve)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		_, err = f.WriteAt(bytes.Repeat([]byte{' '}, footerReserve), 0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// writeFooter puts the footer in place. The reserve is renamed to the
// footer (no new room needed) and then written over: while the lock is
// held a reader takes a footer it cannot parse for a running recording,
// and the footer's time comes after the folder's, which GC's summary
// check needs. Without a reserve it is created as before.
func (w *Writer) writeFooter(fb []byte) error {
	if w.reserve == nil {
		return writeNew(w.dir, FooterFile, fb)
	}
	f := w.reserve
	w.reserve = nil
	if err := w.dir.Rename(footerReserveFile, FooterFile); err != nil {
		f.Close()
		return err
	}
	_, werr := f.WriteAt(fb, 0)
	return errors.Join(werr, f.Truncate(int64(len(fb))), f.Close())
}

// boundString cuts s to at most n bytes, on a rune boundary.
func boundString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const more = "..."
	cut := n - len(more)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + more
}

// boundNotes keeps notes while they fit in budget bytes of JSON; the
// first that does not is cut to fit (when a useful part does), and the
// rest are left out.
func boundNotes(notes []string, budget int) []string {
	var out []string
	used := 0
	for _, n := range notes {
		size := len(appendJSONString(nil, n)) + 8 // indent, comma, newline
		if used+size <= budget {
			out = append(out, n)
			used += size
			continue
		}
		// escaping can take six bytes for one: cut until it fits
		for room := budget - used - 8; room >= 64; room /= 2 {
			if c := boundString(n, room); len(appendJSONString(nil, c))+8 <= budget-used {
				out = append(out, c)
				break
			}
		}
		break
	}
	return out
}

// boundRedactions keeps the counts of rules while their names fit in
// budget bytes of JSON, by name, and sums the rest as "other": totals
// stay right.
func boundRedactions(m map[string]int, budget int) map[string]int {
	size := 0
	for k := range m {
		size += len(appendJSONString(nil, k)) + 32
	}
	if size <= budget {
		return m
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := map[string]int{}
	used := len(`"other"`) + 32
	for _, k := range keys {
		if k == "other" {
			out[k] += m[k]
			continue
		}
		if s := len(appendJSONString(nil, k)) + 32; used+s <= budget {
			out[k] += m[k]
			used += s
			continue
		}
		out["other"] += m[k]
	}
	return out
}

func (w *Writer) closeFiles() {
	if w.reserve != nil {
		_ = w.reserve.Close()
		w.reserve = nil
	}
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
	// linesMu guards lines and firstTailMark: the capper prunes a
	// stream's line index from whichever stream's write dropped a segment
	linesMu       sync.Mutex
	firstTailMark int64 // offset of the first line entry past the head (-1: none)
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
	return &StreamSink{w: w, stream: stream, id: id, data: data, firstTailMark: -1}, nil
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
// lastChunk is where the chunk index's last entry is and what it says.
type lastChunk struct {
	id       byte
	off, n   int64
	t        time.Time
	pos, end int64 // the entry's offset in the file; the file's size
}

// MaxChunkIndex bounds the chunk index (24 bytes an entry): beyond it a
// stream's bytes are still stored, but without the arrival order across
// the streams, which readers then give stream by stream. Consecutive
// writes of one stream extend one entry, so only a switch between
// streams costs an entry: a chatty writer of one stream costs one.
const MaxChunkIndex = 16 << 20

// maxChunkLen is the most one entry grows to by extension: a reader
// starts a tail at an entry, so an entry is what a tail may read of the
// line before it (24 bytes an entry per MiB of one stream's output).
const maxChunkLen = 1 << 20

// addChunk records that s stored n more bytes at its offset, arrived at t:
// the last entry grows when it is s's and ends where these begin, else a
// new entry is appended while the index is under MaxChunkIndex.
func (w *Writer) addChunk(s *StreamSink, n int64, t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	idx, err := w.chunkIndex()
	if err != nil {
		return err
	}
	l := &w.last
	if l.end > 0 && l.id == s.id && l.off+l.n == s.off && l.n+n <= maxChunkLen {
		encodeChunk(s.entry[:], s.id, l.off, l.n+n, l.t)
		if _, err := idx.WriteAt(s.entry[:], l.pos); err != nil {
			return err
		}
		l.n += n
		return nil
	}
	if l.end == 0 {
		l.end = int64(len(chunksMagic))
	}
	if l.end+chunkSize > w.chunkLimit() {
		return nil
	}
	encodeChunk(s.entry[:], s.id, s.off, n, t)
	if _, err := idx.WriteAt(s.entry[:], l.end); err != nil {
		return err
	}
	*l = lastChunk{id: s.id, off: s.off, n: n, t: t, pos: l.end, end: l.end + chunkSize}
	return nil
}

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
func (s *StreamSink) Write(p []byte) (int, error) { return s.write(p, -1) }

// WriteCounted is Write for a caller that has counted the newlines in p
// already (nl): the pump counts what it reads, and with no filter between
// them the bytes it stores are the bytes it read.
func (s *StreamSink) WriteCounted(p []byte, nl int64) (int, error) { return s.write(p, nl) }

// write stores p, which holds nl newlines (-1: not counted yet).
func (s *StreamSink) write(p []byte, nl int64) (int, error) {
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
		if err := s.noteLine(s.nl, s.off); err != nil {
			s.w.setErr(err)
			return len(p), nil
		}
		s.nextIx = s.off + lineStride
	}
	if nl < 0 {
		nl = int64(bytes.Count(p, []byte{'\n'}))
	}
	var err error
	if s.w.cap != nil {
		err = s.storeCapped(p, s.off, s.nl, nl)
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
	if err := s.w.addChunk(s, int64(len(p)), t); err != nil {
		s.w.setErr(err)
	}
	s.off += int64(len(p))
	s.nl += nl
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
