package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rac-cli/rac/internal/store"
)

// part is one file holding the stream bytes [start, start+size).
type part struct {
	f     *os.File
	start int64
	size  int64
}

// streamView reads a stream by its offsets as received: one file, or for
// a capped recording the head file and the kept tail segments, with the
// dropped bytes between them missing.
type streamView struct {
	parts []part
	cut   *StreamCut // nil: nothing dropped
}

func (v *streamView) Close() {
	for _, p := range v.parts {
		p.f.Close()
	}
}

// Size is the offset after the last stored byte.
func (v *streamView) Size() int64 {
	if len(v.parts) == 0 {
		return 0
	}
	last := v.parts[len(v.parts)-1]
	return last.start + last.size
}

// Kept is the number of stored bytes still on disk.
func (v *streamView) Kept() int64 {
	var n int64
	for _, p := range v.parts {
		n += p.size
	}
	return n
}

// each calls fn with the kept bytes of [off, off+n) in order, part by
// part, with the offset each piece starts at.
func (v *streamView) each(off, n int64, buf []byte, fn func(b []byte, at int64) error) error {
	end := off + n
	for _, p := range v.parts {
		lo, hi := max(off, p.start), min(end, p.start+p.size)
		for lo < hi {
			k := min(hi-lo, int64(len(buf)))
			m, err := p.f.ReadAt(buf[:k], lo-p.start)
			if m > 0 {
				if ferr := fn(buf[:m], lo); ferr != nil {
					return ferr
				}
				lo += int64(m)
			}
			if err != nil && !(err == io.EOF && m > 0) {
				if err == io.EOF {
					break
				}
				return err
			}
		}
	}
	return nil
}

// openView opens a stream for reading. A missing stream file is an empty
// stream.
func (r *Recording) openView(stream string) (*streamView, error) {
	if _, ok := streamIDs[stream]; !ok {
		return nil, errors.New("unknown stream " + strconv.Quote(stream))
	}
	v := &streamView{}
	f, err := store.OpenSafe(r.dir, stream)
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	size, err := fileSize(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	v.parts = append(v.parts, part{f: f, size: size})
	if r.Meta.MaxBytes == 0 {
		return v, nil
	}
	if err := r.addSegments(v, stream); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// addSegments adds the kept tail segments of a capped stream.
func (r *Recording) addSegments(v *streamView, stream string) error {
	cuts, err := r.Cuts()
	if err != nil {
		return err
	}
	if c, ok := cuts[stream]; ok {
		v.cut = &c
	}
	d, err := r.dir.Open(".")
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	var starts []int64
	byStart := map[int64]string{}
	for _, n := range names {
		hex, ok := strings.CutPrefix(n, stream+tailInfix)
		if !ok {
			continue
		}
		start, err := strconv.ParseInt(hex, 16, 64)
		if err != nil || (v.cut != nil && start < v.cut.KeptFrom) {
			continue // a segment the cut already dropped
		}
		starts = append(starts, start)
		byStart[start] = n
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	for _, st := range starts {
		f, err := store.OpenSafe(r.dir, byStart[st])
		if errors.Is(err, fs.ErrNotExist) {
			continue // dropped while we listed
		}
		if err != nil {
			return err
		}
		size, err := fileSize(f)
		if err != nil {
			f.Close()
			return err
		}
		v.parts = append(v.parts, part{f: f, start: st, size: size})
	}
	return nil
}

// Cuts returns where each stream of a capped recording was cut: from the
// footer when finished, else from the cut file the recorder keeps.
func (r *Recording) Cuts() (map[string]StreamCut, error) {
	if r.Footer != nil {
		return r.Footer.Cut, nil
	}
	b, err := store.ReadSmallFile(r.dir, CutFile, 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cuts map[string]StreamCut
	if err := json.Unmarshal(b, &cuts); err != nil {
		return nil, err
	}
	return cuts, nil
}

// KeptBytes is what the recording holds on disk over all its streams.
func (r *Recording) KeptBytes() int64 {
	var n int64
	for _, s := range r.Meta.Streams {
		if v, err := r.openView(s); err == nil {
			n += v.Kept()
			v.Close()
		}
	}
	return n
}

// StreamSize is the stored size of a stream as received, cut bytes
// included (0 when it has no file).
func (r *Recording) StreamSize(stream string) int64 {
	v, err := r.openView(stream)
	if err != nil {
		return 0
	}
	defer v.Close()
	return v.Size()
}

func fileSize(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// Piece is a run of a stream's kept bytes with no cut inside, and the
// number of the line its first byte belongs to.
type Piece struct {
	R         io.Reader
	FirstLine int64
}

// Pieces returns a stream's kept bytes as readers, split at the cut; close
// releases the files.
func (r *Recording) Pieces(stream string) (pieces []Piece, closeFn func(), err error) {
	v, err := r.openView(stream)
	if err != nil {
		return nil, nil, err
	}
	var cur []io.Reader
	first := int64(1)
	next := int64(0)
	for _, p := range v.parts {
		from := int64(0)
		if p.start > next && len(cur) > 0 {
			pieces = append(pieces, Piece{R: io.MultiReader(cur...), FirstLine: first})
			cur = nil
			if v.cut != nil {
				// the kept tail starts inside a line: begin at the next one
				first = v.cut.LinesBefore() + 2
				from = firstLineEnd(p.f, p.size)
			}
		}
		cur = append(cur, io.NewSectionReader(p.f, from, p.size-from))
		next = p.start + p.size
	}
	if len(cur) > 0 {
		pieces = append(pieces, Piece{R: io.MultiReader(cur...), FirstLine: first})
	}
	return pieces, v.Close, nil
}

// Dir is the recording's folder path, for tools that open files themselves.
func (r *Recording) Dir() string { return r.dir.Name() }

// DirStat describes the folder the recording's handle holds open: what was
// really opened, whatever its name says (tests check a resolved reference
// by the device and inode of this folder).
func (r *Recording) DirStat() (fs.FileInfo, error) { return r.dir.Stat(".") }

// firstLineEnd is the offset after the first newline of f (within 1 MiB),
// or 0 when there is none.
func firstLineEnd(f *os.File, size int64) int64 {
	buf := make([]byte, min(size, 1<<20))
	n, _ := f.ReadAt(buf, 0)
	if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
		return int64(i) + 1
	}
	return 0
}
