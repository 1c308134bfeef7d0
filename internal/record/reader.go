package record

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/rac-cli/rac/internal/store"
)

// ErrNewerFormat is returned for a recording written by a newer rac.
var ErrNewerFormat = errors.New("recording format is newer than this rac understands")

// ErrDamaged is what a DamagedError is: a recording whose files do not
// agree with each other (changed or cut short behind rac's back).
var ErrDamaged = errors.New("recording is damaged")

// DamagedError says which files of a recording disagree. Readers return
// it instead of reading what a damaged file claims: no line is numbered
// or shown wrongly, and no file's claimed size is walked.
type DamagedError struct {
	Ref    string // SESSION/NAME
	Detail string // what does not match, naming the files
	Err    error  // the error behind it, if any
}

func (e *DamagedError) Error() string {
	return "recording " + e.Ref + " is damaged: " + e.Detail
}

// Is makes errors.Is(err, ErrDamaged) hold.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

func (e *DamagedError) Unwrap() error { return e.Err }

func (r *Recording) damaged(format string, args ...any) error {
	return &DamagedError{Ref: r.Ref(), Detail: fmt.Sprintf(format, args...)}
}

func (r *Recording) damagedErr(detail string, err error) error {
	return &DamagedError{Ref: r.Ref(), Detail: detail, Err: err}
}

// Recording is a recording opened for reading.
type Recording struct {
	Session string
	Name    string
	Seq     int64
	Meta    Meta
	Footer  *Footer // nil while running or when the recorder died
	Status  string
	// Stopping is the signal (SIGTERM, ...) that reached the recorder
	// while the command ran, when it wrote it down before ending: an
	// incomplete recording with it was killed while stopping the command.
	Stopping string

	dir *os.Root
}

// Ref is the qualified reference SESSION/NAME.
func (r *Recording) Ref() string { return r.Session + "/" + r.Name }

// Close releases the recording's folder handle.
func (r *Recording) Close() error { return r.dir.Close() }

// ListNames returns the names of the recordings in a session, by number:
// every entry with a recording's name, also one that is not a plain
// folder (a symlink out of the store, a FIFO), so that it is refused by
// Open and its readers say so, instead of vanishing from list and grep.
func ListNames(sess *store.Session) ([]string, error) {
	f, err := sess.Root().Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	type item struct {
		seq  int64
		name string
	}
	var items []item
	for _, e := range ents {
		if n, ok := ParseName(e.Name()); ok {
			items = append(items, item{n, e.Name()})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].seq < items[j].seq })
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = it.name
	}
	return names, nil
}

// Open opens recording name of a session and works out its status: a
// footer means finished; no footer and a held lock means running; neither
// means the recorder died (incomplete). No pid is trusted.
func Open(sess *store.Session, name string) (*Recording, error) {
	seq, ok := ParseName(name)
	if !ok {
		return nil, fmt.Errorf("%w: %q is not a recording name", store.ErrUnsafeFile, name)
	}
	fi, err := sess.Root().Lstat(name)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is not a directory", store.ErrUnsafeFile, name)
	}
	dir, err := sess.Root().OpenRoot(name)
	if err != nil {
		return nil, err
	}
	r := &Recording{Session: sess.Name, Name: name, Seq: seq, dir: dir}
	if err := r.load(); err != nil {
		dir.Close()
		return nil, err
	}
	return r, nil
}

func (r *Recording) load() error {
	b, err := store.ReadSmallFile(r.dir, MetaFile, 1<<20)
	if err != nil {
		return fmt.Errorf("read metadata of %s: %w", r.Ref(), err)
	}
	var probe struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return fmt.Errorf("read metadata of %s: %w", r.Ref(), err)
	}
	if probe.Format > FormatVersion {
		return fmt.Errorf("%w: %s has format %d, this rac reads up to %d (upgrade rac)", ErrNewerFormat, r.Ref(), probe.Format, FormatVersion)
	}
	if err := json.Unmarshal(b, &r.Meta); err != nil {
		return fmt.Errorf("read metadata of %s: %w", r.Ref(), err)
	}
	if err := r.Refresh(); err != nil {
		return err
	}
	return nil
}

// Refresh re-reads the footer and status (for a reader following a
// running recording). A running recording is checked for its footer again
// after the lock test, so a recorder finishing in between is seen as done.
func (r *Recording) Refresh() error {
	for range 2 {
		b, err := store.ReadSmallFile(r.dir, FooterFile, 1<<20)
		if err == nil {
			var f Footer
			if jerr := json.Unmarshal(b, &f); jerr == nil {
				r.Footer = &f
				r.Status = f.Status
				return nil
			}
			// being written (lock held: running) or damaged (incomplete)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		locked, err := store.IsLocked(r.dir, LockFile)
		if err != nil {
			return err
		}
		if locked {
			r.Footer, r.Status = nil, StatusRunning
			return nil
		}
	}
	r.Footer, r.Status = nil, StatusIncomplete
	if b, err := store.ReadSmallFile(r.dir, StoppingFile, 256); err == nil {
		r.Stopping = strings.TrimSpace(string(b))
	}
	return nil
}

// MetadataOnly reports whether the recording holds no output, by design:
// the command ran on the terminal itself (passthrough mode), so reading it
// back prints nothing, and a reader says why.
func (r *Recording) MetadataOnly() bool { return len(r.Meta.Streams) == 0 }

// Streams are the streams this recording has, in metadata order.
func (r *Recording) Streams() []string { return r.Meta.Streams }

// Chunks reads the chunk index. Bytes of a stream beyond what the index
// covers (a recorder killed between a data write and its index write) are
// appended as one chunk per stream, so nothing stored is ever hidden. The
// index is read no further than one entry per stored byte could reach
// (each chunk holds at least one), and a hole in it is damage.
func (r *Recording) Chunks() ([]Chunk, error) {
	sizes := map[string]int64{}
	var total int64
	for _, s := range r.Meta.Streams {
		v, err := r.openView(s)
		if err != nil {
			return nil, err
		}
		sizes[s] = v.Size()
		total += sizes[s]
		v.Close()
	}
	var out []Chunk
	covered := map[string]int64{}
	f, _, err := r.openData(ChunksFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		defer f.Close()
		size, err := r.indexSize(f, ChunksFile, int64(len(chunksMagic))+chunkSize*total)
		if err != nil {
			return nil, err
		}
		if err := r.checkMagic(f, size, ChunksFile, chunksMagic); err != nil {
			return nil, err
		}
		buf := make([]byte, 2730*chunkSize)
		for off := int64(len(chunksMagic)); off+chunkSize <= size; {
			n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
			n -= n % chunkSize
			for b := buf[:n]; len(b) >= chunkSize; b = b[chunkSize:] {
				c := decodeChunk(b[:chunkSize])
				if c.Stream == "" || c.Len == 0 || c.Off != covered[c.Stream] {
					continue
				}
				out = append(out, c)
				covered[c.Stream] += c.Len
			}
			off += int64(n)
			if n == 0 {
				if err != nil && err != io.EOF {
					return nil, err
				}
				break
			}
		}
	}
	// Arrival order across streams; each stream's chunks keep their order
	// because their times never decrease.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	for _, s := range r.Meta.Streams {
		size := sizes[s]
		if size < covered[s] {
			// the index promises more than the file holds: trust the file
			out = clampChunks(out, s, size)
			covered[s] = size
		}
		if size > covered[s] {
			out = append(out, Chunk{Stream: s, Off: covered[s], Len: size - covered[s]})
		}
	}
	return out, nil
}

// indexSize is the size of an index file to read: at most limit, what the
// data it indexes could need. Beyond it, or with a hole, the index is not
// one a recorder wrote; while the recorder runs the index may be ahead of
// the data measured, and the rest is read another time.
func (r *Recording) indexSize(f dataFile, name string, limit int64) (int64, error) {
	size, err := f.dataSize()
	if err != nil {
		return 0, err
	}
	if size > limit {
		if r.Status != StatusRunning {
			return 0, r.damaged("%s is %d bytes, more than the recording's output could need (%d)", name, size, limit)
		}
		size = limit
	}
	if at, ok := f.hole(size); ok {
		return 0, r.damaged("%s has a hole at byte %d, which no recorder writes", name, at)
	}
	return size, nil
}

// checkMagic tells an index of a newer format (the same magic with a
// higher digit) from one that is not an index at all.
func (r *Recording) checkMagic(f io.ReaderAt, size int64, name, magic string) error {
	if size < int64(len(magic)) {
		return nil // created, magic not written yet (or a recorder died there)
	}
	b := make([]byte, len(magic))
	if _, err := f.ReadAt(b, 0); err != nil {
		return err
	}
	if string(b) == magic {
		return nil
	}
	k := len(magic) - 2 // the version digit, before the newline
	if string(b[:k]) == magic[:k] && b[k] > magic[k] && b[k] <= '9' && b[k+1] == '\n' {
		return fmt.Errorf("%w: %s of %s", ErrNewerFormat, name, r.Ref())
	}
	return r.damaged("%s is not an index rac wrote", name)
}

func clampChunks(cs []Chunk, stream string, size int64) []Chunk {
	out := cs[:0]
	for _, c := range cs {
		if c.Stream == stream {
			if c.Off >= size {
				continue
			}
			if c.Off+c.Len > size {
				c.Len = size - c.Off
			}
		}
		out = append(out, c)
	}
	return out
}

// LineIndex returns the sparse line index of a stream: for each entry, the
// number of newlines before byte offset Off.
func (r *Recording) LineIndex(stream string) ([]LineMark, error) {
	v, err := r.openView(stream)
	if err != nil {
		return nil, err
	}
	defer v.Close()
	return r.lineIndex(v, stream)
}

// lineIndex reads the line index of the stream v shows, no further than
// its entries could reach (one each lineStride bytes or more, the first
// at offset 0), and checks that they could be the stream's: each after
// the last by at least a stride, by no more newlines than bytes, and
// within the stream. (That the counts are right is checked where an entry
// is used: see checkMark.)
func (r *Recording) lineIndex(v *streamView, stream string) ([]LineMark, error) {
	name := linesPfx + stream
	f, err := store.OpenSafe(r.dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := v.Size()
	size, err := r.indexSize(rawFile{f}, name, int64(len(linesMagic))+lineEntry*(data/lineStride+2))
	if err != nil {
		return nil, err
	}
	if err := r.checkMagic(f, size, name, linesMagic); err != nil {
		return nil, err
	}
	if size < int64(len(linesMagic)) {
		return nil, nil
	}
	b := make([]byte, size-int64(len(linesMagic)))
	if _, err := f.ReadAt(b, int64(len(linesMagic))); err != nil && err != io.EOF {
		return nil, err
	}
	marks := make([]LineMark, 0, len(b)/lineEntry)
	bad := func(i int) error { return r.damaged("%s does not match %s (entry %d)", name, stream, i) }
	for i := 0; len(b) >= lineEntry; i++ {
		m := LineMark{
			Newlines: int64(binary.LittleEndian.Uint64(b)),
			Off:      int64(binary.LittleEndian.Uint64(b[8:])),
		}
		b = b[lineEntry:]
		if m.Off > data || m.Off < 0 {
			if r.Status == StatusRunning && m.Off > data && i > 0 {
				break // written after the data was measured
			}
			return nil, bad(i)
		}
		if i == 0 {
			if m != (LineMark{}) {
				return nil, bad(i)
			}
		} else if p := marks[i-1]; m.Off-p.Off < lineStride || m.Newlines < p.Newlines || m.Newlines-p.Newlines > m.Off-p.Off {
			return nil, bad(i)
		}
		marks = append(marks, m)
	}
	return marks, nil
}

// LineMark says Newlines newlines come before byte Off of a stream.
type LineMark struct {
	Newlines int64
	Off      int64
}

// StreamLines is the number of lines of a stream as stored so far (a last
// line without a newline counts).
func (r *Recording) StreamLines(stream string) int64 {
	if r.Footer != nil {
		if c, ok := r.Footer.Stored[stream]; ok {
			return c.Lines
		}
	}
	var n int64
	_ = r.Lines(LineOptions{Stream: stream, Tail: 1}, func(l Line) error {
		if !l.Marker {
			n = l.N
		}
		return nil
	})
	return n
}
