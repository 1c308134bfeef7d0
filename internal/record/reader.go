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

// ListNames returns the names of the recordings in a session, by number.
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
		if !e.IsDir() {
			continue
		}
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
			r.Status = StatusRunning
			return nil
		}
	}
	r.Status = StatusIncomplete
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
// appended as one chunk per stream, so nothing stored is ever hidden.
func (r *Recording) Chunks() ([]Chunk, error) {
	var out []Chunk
	covered := map[string]int64{}
	f, err := store.OpenSafe(r.dir, ChunksFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err == nil {
		defer f.Close()
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		if len(b) >= len(chunksMagic) {
			if string(b[:len(chunksMagic)]) != chunksMagic {
				return nil, fmt.Errorf("%w: chunk index of %s", ErrNewerFormat, r.Ref())
			}
			b = b[len(chunksMagic):]
			for len(b) >= chunkSize {
				c := decodeChunk(b[:chunkSize])
				b = b[chunkSize:]
				if c.Stream == "" || c.Off != covered[c.Stream] {
					continue
				}
				out = append(out, c)
				covered[c.Stream] += c.Len
			}
		}
	}
	// Arrival order across streams; each stream's chunks keep their order
	// because their times never decrease.
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	for _, s := range r.Meta.Streams {
		size := r.StreamSize(s)
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
	f, err := store.OpenSafe(r.dir, linesPfx+stream)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	if len(b) < len(linesMagic) || string(b[:len(linesMagic)]) != linesMagic {
		return nil, nil
	}
	b = b[len(linesMagic):]
	marks := make([]LineMark, 0, len(b)/lineEntry)
	for len(b) >= lineEntry {
		marks = append(marks, LineMark{
			Newlines: int64(binary.LittleEndian.Uint64(b)),
			Off:      int64(binary.LittleEndian.Uint64(b[8:])),
		})
		b = b[lineEntry:]
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
