package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/rac-cli/rac/internal/store"
	"golang.org/x/sys/unix"
)

// part is one file holding the stream bytes [start, start+size): the raw
// bytes, or their compressed form (see seekable.go).
type part struct {
	f     dataFile
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
// stream. What it shows is bounded by what the recording states: a
// finished stream holds exactly the bytes its footer counts (more on disk,
// the end of a write that failed, is not shown; fewer is damage), the
// parts of a capped stream follow each other but for the one cut its cut
// information names, and a stream without a footer has no holes (a
// recorder only appends). Anything else is a DamagedError, so no reader
// walks gigabytes a file claims or numbers a line wrongly.
func (r *Recording) openView(stream string) (*streamView, error) {
	if _, ok := streamIDs[stream]; !ok {
		return nil, errors.New("unknown stream " + strconv.Quote(stream))
	}
	if r.Meta.MaxBytes == 0 {
		v := &streamView{}
		f, size, err := r.openData(stream)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if err == nil {
			v.parts = append(v.parts, part{f: f, size: size})
		}
		if err := r.settle(v, stream); err != nil {
			v.Close()
			return nil, err
		}
		return v, nil
	}
	// A running recorder may drop a segment (writing its cut first) while
	// the folder is listed: the cut read before and after the listing
	// agree when the listing is whole.
	for range 8 {
		before, err := r.Cuts()
		if err != nil {
			return nil, r.damagedErr(CutFile+" cannot be read: "+err.Error(), err)
		}
		v, err := r.openCapped(stream, before)
		if err != nil {
			return nil, err
		}
		after, err := r.Cuts()
		if err != nil {
			v.Close()
			return nil, r.damagedErr(CutFile+" cannot be read: "+err.Error(), err)
		}
		if before[stream] == after[stream] {
			if err := r.settle(v, stream); err != nil {
				v.Close()
				return nil, err
			}
			return v, nil
		}
		v.Close()
	}
	return nil, fmt.Errorf("read %s: its cut kept moving while it was read; try again", r.Ref())
}

// openCapped opens the head file and the kept tail segments of a capped
// stream as cut says they are.
func (r *Recording) openCapped(stream string, cuts map[string]StreamCut) (*streamView, error) {
	v := &streamView{}
	if c, ok := cuts[stream]; ok {
		v.cut = &c
	}
	f, _, err := r.openData(stream)
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	v.parts = append(v.parts, part{f: f})
	d, err := r.dir.Open(".")
	if err != nil {
		v.Close()
		return nil, err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		v.Close()
		return nil, err
	}
	var starts []int64
	byStart := map[int64]string{}
	for _, n := range names {
		// a segment may be there raw, compressed, or both for a moment
		// (compress.go): openData takes the raw one first
		n = strings.TrimSuffix(n, zstSuffix)
		hex, ok := strings.CutPrefix(n, stream+tailInfix)
		if !ok {
			continue
		}
		start, err := strconv.ParseInt(hex, 16, 64)
		if err != nil || start < 0 || (v.cut != nil && start < v.cut.KeptFrom) {
			continue // a segment the cut already dropped
		}
		if _, dup := byStart[start]; dup {
			continue
		}
		starts = append(starts, start)
		byStart[start] = n
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	for _, st := range starts {
		f, _, err := r.openData(byStart[st])
		if errors.Is(err, fs.ErrNotExist) {
			continue // dropped while we listed: the cut moved, the caller sees it
		}
		if err != nil {
			v.Close()
			return nil, err
		}
		v.parts = append(v.parts, part{f: f, start: st})
	}
	// Sizes are taken once every file is open: a segment is full before
	// the next one exists, so no part looks shorter than it is.
	for i := range v.parts {
		if v.parts[i].size, err = v.parts[i].f.dataSize(); err != nil {
			v.Close()
			return nil, err
		}
	}
	return v, nil
}

// settle checks a view's parts against each other, the cut and the
// footer, and bounds it by what the footer counts.
func (r *Recording) settle(v *streamView, stream string) error {
	var cut *StreamCut
	if v.cut != nil && v.cut.DroppedBytes > 0 {
		cut = v.cut
		if cut.HeadEnd < 0 || cut.KeptFrom <= cut.HeadEnd || cut.KeptFrom-cut.HeadEnd != cut.DroppedBytes ||
			cut.HeadLines < 0 || cut.DroppedLines < 0 || cut.HeadLines > cut.HeadEnd || cut.DroppedLines > cut.DroppedBytes {
			return r.damaged("the cut of %s does not add up", stream)
		}
	}
	gap := false
	for i := 1; i < len(v.parts); i++ {
		prev, p := v.parts[i-1], v.parts[i]
		end := prev.start + prev.size
		switch {
		case p.start == end:
		case cut != nil && !gap && end == cut.HeadEnd && p.start == cut.KeptFrom:
			gap = true
		default:
			return r.damaged("%s does not follow on from byte %d of %s", partName(stream, p.start), end, stream)
		}
	}
	if cut != nil && !gap {
		return r.damaged("%s is cut at byte %d but its files do not show that cut", stream, cut.HeadEnd)
	}
	if bound, ok := r.storedBytes(stream); ok {
		size := v.Size()
		if size < bound {
			return r.damaged("%s holds %d bytes, its footer says %d", stream, size, bound)
		}
		if size > bound {
			// the rest of a write that failed (the recording broke off)
			// is no part of it
			for len(v.parts) > 0 {
				last := &v.parts[len(v.parts)-1]
				if last.start >= bound && len(v.parts) > 1 {
					last.f.Close()
					v.parts = v.parts[:len(v.parts)-1]
					continue
				}
				last.size = bound - last.start
				break
			}
			if cut != nil && (len(v.parts) < 2 || v.parts[1].start != cut.KeptFrom) {
				return r.damaged("%s is cut at byte %d but its footer counts %d bytes", stream, cut.HeadEnd, bound)
			}
		}
	}
	// A recorder only appends, so it never leaves a hole in what it
	// wrote: a hole there (a stream file replaced by a sparse one as
	// large as the footer counts) would read as NULs where output was.
	// Past the footer's count a hole is no part of the recording.
	for _, p := range v.parts {
		if at, ok := p.f.hole(p.size); ok {
			return r.damaged("%s has a hole at byte %d, which no recorder writes", partName(stream, p.start), at)
		}
	}
	return nil
}

// storedBytes is the size of a stream as received, from the footer.
func (r *Recording) storedBytes(stream string) (int64, bool) {
	if r.Footer == nil {
		return 0, false
	}
	c, ok := r.Footer.Stored[stream]
	return c.Bytes, ok && c.Bytes >= 0
}

func partName(stream string, start int64) string {
	if start == 0 {
		return stream
	}
	return fmt.Sprintf("%s%s%016x", stream, tailInfix, start)
}

// holeIn finds the first hole in f's first size bytes: SEEK_HOLE, which
// (unlike st_blocks, which a compressing file system shrinks too) says
// where the file system stores no data. A file system without it reports
// the file's end, so no hole.
func holeIn(f *os.File, size int64) (int64, bool) {
	if size <= 0 {
		return 0, false
	}
	at, err := unix.Seek(int(f.Fd()), 0, unix.SEEK_HOLE)
	if err != nil || at >= size {
		return 0, false
	}
	return at, true
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
	// Frames, set when every file of the piece is compressed, gives the
	// bytes R gives, in order, without copying them: fn has a decoded
	// frame (or what is left of one), of at most MaxFrameBytes, valid
	// only until fn returns. An error from fn ends it and is returned.
	// Use R or Frames, not both.
	Frames func(fn func(b []byte) error) error
}

// MaxFrameBytes bounds what one call of a Piece's Frames has.
const MaxFrameBytes = maxFrameIn

// Pieces returns a stream's kept bytes as readers, split at the cut; close
// releases the files. Each piece is numbered as Lines numbers it: by the
// line its first byte belongs to, so the kept tail of a line the cut went
// through is that line, as 'rac out read' shows it after the marker.
func (r *Recording) Pieces(stream string) (pieces []Piece, closeFn func(), err error) {
	v, err := r.openView(stream)
	if err != nil {
		return nil, nil, err
	}
	var cur []io.Reader
	var zst []part // cur's files when all are compressed
	first := int64(1)
	next := int64(0)
	add := func() {
		if len(cur) == 0 {
			return
		}
		pc := Piece{R: io.MultiReader(cur...), FirstLine: first}
		if len(zst) == len(cur) {
			pc.Frames = framesOf(zst)
		}
		pieces = append(pieces, pc)
	}
	for _, p := range v.parts {
		if p.start > next {
			// settle allows one gap, the cut's
			add()
			cur, zst = nil, nil
			first = v.cut.LinesBefore() + 1
		}
		if p.size > 0 {
			cur = append(cur, io.NewSectionReader(p.f, 0, p.size))
			if _, ok := p.f.(*seekFile); ok {
				zst = append(zst, p)
			}
		}
		next = p.start + p.size
	}
	add()
	return pieces, v.Close, nil
}

// framesOf is Piece.Frames over compressed parts.
func framesOf(parts []part) func(fn func([]byte) error) error {
	return func(fn func([]byte) error) error {
		for _, p := range parts {
			if err := p.f.(*seekFile).frames(p.size, fn); err != nil {
				return err
			}
		}
		return nil
	}
}

// Dir is the recording's folder path, for tools that open files themselves.
func (r *Recording) Dir() string { return r.dir.Name() }

// DirStat describes the folder the recording's handle holds open: what was
// really opened, whatever its name says (tests check a resolved reference
// by the device and inode of this folder).
func (r *Recording) DirStat() (fs.FileInfo, error) { return r.dir.Stat(".") }
