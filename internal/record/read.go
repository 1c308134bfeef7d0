package record

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
)

// Line is one line of a stream. N counts lines within the stream from 1,
// the numbering grep, explain and --lines share. Text has no newline; NL
// says whether the line ended with one.
type Line struct {
	Stream string
	N      int64
	Text   []byte
	NL     bool
}

// LineOptions choose which lines Lines yields.
type LineOptions struct {
	Stream string // "" means every stream, in arrival order
	Head   int64  // first N lines (0: no limit)
	Tail   int64  // last N lines (0: no limit)
	From   int64  // with Stream: first line number (0: from the start)
	To     int64  // with Stream: last line number (0: to the end)
}

// ErrStop ends a Lines walk early without an error.
var ErrStop = fmt.Errorf("stop")

// Lines yields lines in order. With a stream and a tail, it seeks from the
// end; with From it starts at the nearest line index entry; so neither
// costs the size of the recording. The Text slice is only valid during fn.
func (r *Recording) Lines(o LineOptions, fn func(Line) error) error {
	var err error
	if o.Stream != "" {
		err = r.streamLines(o, fn)
	} else {
		err = r.mergedLines(o, fn)
	}
	if err == ErrStop {
		return nil
	}
	return err
}

func (r *Recording) streamLines(o LineOptions, fn func(Line) error) error {
	f, err := r.OpenStream(o.Stream)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	defer f.Close()
	size, err := fileSize(f)
	if err != nil {
		return err
	}
	start, first := int64(0), int64(1)
	switch {
	case o.Tail > 0:
		if start, err = tailStart(f, size, o.Tail); err != nil {
			return err
		}
		if first, err = r.lineAt(f, o.Stream, start); err != nil {
			return err
		}
	case o.From > 1:
		if start, first, err = r.seekLine(f, o.Stream, size, o.From); err != nil {
			return err
		}
	}
	emitted := int64(0)
	return scanLines(io.NewSectionReader(f, start, size-start), first, func(n int64, text []byte, nl bool) error {
		if o.From > 0 && n < o.From {
			return nil
		}
		if o.To > 0 && n > o.To {
			return ErrStop
		}
		if o.Head > 0 && emitted >= o.Head {
			return ErrStop
		}
		emitted++
		return fn(Line{Stream: o.Stream, N: n, Text: text, NL: nl})
	})
}

// scanLines calls fn for each line of rd, numbering from first.
func scanLines(rd io.Reader, first int64, fn func(n int64, text []byte, nl bool) error) error {
	br := bufio.NewReaderSize(rd, 256<<10)
	n := first
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			continue
		}
		if long != nil {
			chunk = append(long, chunk...)
			long = nil
		}
		if len(chunk) > 0 {
			nl := chunk[len(chunk)-1] == '\n'
			text := chunk
			if nl {
				text = chunk[:len(chunk)-1]
			}
			if ferr := fn(n, text, nl); ferr != nil {
				return ferr
			}
			n++
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func fileSize(f *os.File) (int64, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// tailStart finds the offset where the last n lines of f begin, reading
// backwards in blocks: the cost is the size of those lines.
func tailStart(f *os.File, size, n int64) (int64, error) {
	const block = 64 << 10
	buf := make([]byte, block)
	end := size
	need := n
	// a newline as the very last byte ends the last line, it does not start one
	if size > 0 {
		var last [1]byte
		if _, err := f.ReadAt(last[:], size-1); err != nil {
			return 0, err
		}
		if last[0] == '\n' {
			end = size - 1
		}
	}
	for end > 0 {
		from := max(0, end-block)
		b := buf[:end-from]
		if _, err := f.ReadAt(b, from); err != nil && err != io.EOF {
			return 0, err
		}
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] == '\n' {
				need--
				if need == 0 {
					return from + int64(i) + 1, nil
				}
			}
		}
		end = from
	}
	return 0, nil
}

// lineAt returns the number of the line that starts at off.
func (r *Recording) lineAt(f *os.File, stream string, off int64) (int64, error) {
	marks, err := r.LineIndex(stream)
	if err != nil {
		return 0, err
	}
	base := LineMark{}
	if i := sort.Search(len(marks), func(i int) bool { return marks[i].Off > off }); i > 0 {
		base = marks[i-1]
	}
	nl, err := countNewlines(f, base.Off, off)
	return base.Newlines + nl + 1, err
}

// seekLine finds the offset where line number want starts, starting from
// the nearest line index entry before it.
func (r *Recording) seekLine(f *os.File, stream string, size, want int64) (int64, int64, error) {
	marks, err := r.LineIndex(stream)
	if err != nil {
		return 0, 0, err
	}
	base := LineMark{}
	if i := sort.Search(len(marks), func(i int) bool { return marks[i].Newlines >= want-1 }); i > 0 {
		base = marks[i-1]
	}
	// walk forward from base to the start of line want
	off, nl := base.Off, base.Newlines
	buf := make([]byte, 64<<10)
	for off < size && nl < want-1 {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if n == 0 && err != nil {
			return 0, 0, err
		}
		b := buf[:n]
		for len(b) > 0 && nl < want-1 {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				off += int64(len(b))
				b = nil
				break
			}
			nl++
			off += int64(i) + 1
			b = b[i+1:]
		}
	}
	return off, nl + 1, nil
}

func countNewlines(f *os.File, from, to int64) (int64, error) {
	buf := make([]byte, 64<<10)
	var n int64
	for from < to {
		k, err := f.ReadAt(buf[:min(int64(len(buf)), to-from)], from)
		n += int64(bytes.Count(buf[:k], []byte{'\n'}))
		from += int64(k)
		if k == 0 && err != nil {
			return n, err
		}
	}
	return n, nil
}

// mergedLines yields the lines of every stream in arrival order: a line is
// yielded when it is complete, so lines of two streams never mix.
func (r *Recording) mergedLines(o LineOptions, fn func(Line) error) error {
	chunks, err := r.Chunks()
	if err != nil {
		return err
	}
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	open := func(s string) (*os.File, error) {
		if f, ok := files[s]; ok {
			return f, nil
		}
		f, err := r.OpenStream(s)
		if err != nil {
			return nil, err
		}
		files[s] = f
		return f, nil
	}
	startChunk := 0
	if o.Tail > 0 {
		if startChunk, err = tailChunk(chunks, open, o.Tail); err != nil {
			return err
		}
	}
	type state struct {
		n       int64
		partial []byte
		skip    bool // the first line is cut by the tail start: drop it
	}
	st := map[string]*state{}
	var ring []Line // for tail
	emitted := int64(0)
	emit := func(l Line) error {
		if o.Tail > 0 {
			l.Text = append([]byte(nil), l.Text...)
			ring = append(ring, l)
			if int64(len(ring)) > o.Tail {
				ring = ring[1:]
			}
			return nil
		}
		if o.Head > 0 && emitted >= o.Head {
			return ErrStop
		}
		emitted++
		return fn(l)
	}
	var buf []byte
	for _, c := range chunks[startChunk:] {
		s := st[c.Stream]
		f, err := open(c.Stream)
		if err != nil {
			return err
		}
		if s == nil {
			s = &state{n: 1}
			if startChunk > 0 {
				if s.n, err = r.lineAt(f, c.Stream, c.Off); err != nil {
					return err
				}
				s.skip = true
			}
			st[c.Stream] = s
		}
		if int64(cap(buf)) < c.Len {
			buf = make([]byte, c.Len)
		}
		b := buf[:c.Len]
		if _, err := f.ReadAt(b, c.Off); err != nil && err != io.EOF {
			return err
		}
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				s.partial = append(s.partial, b...)
				break
			}
			text := b[:i]
			if len(s.partial) > 0 {
				text = append(s.partial, text...)
				s.partial = s.partial[:0]
			}
			b = b[i+1:]
			if s.skip {
				s.skip = false
				s.n++
				continue
			}
			if err := emit(Line{Stream: c.Stream, N: s.n, Text: text, NL: true}); err != nil {
				return err
			}
			s.n++
		}
	}
	// lines without a final newline, in stream order
	for _, name := range r.Meta.Streams {
		if s := st[name]; s != nil && len(s.partial) > 0 && !s.skip {
			if err := emit(Line{Stream: name, N: s.n, Text: s.partial}); err != nil {
				return err
			}
		}
	}
	for _, l := range ring {
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}

// tailChunk returns the index of the chunk to start from so that at least
// n lines (plus one cut line per stream) follow, reading chunks backwards.
func tailChunk(chunks []Chunk, open func(string) (*os.File, error), n int64) (int, error) {
	need := n + 2
	var buf []byte
	for i := len(chunks) - 1; i >= 0; i-- {
		c := chunks[i]
		f, err := open(c.Stream)
		if err != nil {
			return 0, err
		}
		if int64(cap(buf)) < c.Len {
			buf = make([]byte, c.Len)
		}
		b := buf[:c.Len]
		if _, err := f.ReadAt(b, c.Off); err != nil && err != io.EOF {
			return 0, err
		}
		need -= int64(bytes.Count(b, []byte{'\n'}))
		if need <= 0 {
			return i, nil
		}
	}
	return 0, nil
}

// CopyRaw writes the exact stored bytes: one stream's file, or every
// chunk in arrival order.
func (r *Recording) CopyRaw(w io.Writer, stream string) error {
	if stream != "" {
		f, err := r.OpenStream(stream)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		defer f.Close()
		_, err = io.Copy(w, f)
		return err
	}
	chunks, err := r.Chunks()
	if err != nil {
		return err
	}
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for _, c := range chunks {
		f := files[c.Stream]
		if f == nil {
			if f, err = r.OpenStream(c.Stream); err != nil {
				return err
			}
			files[c.Stream] = f
		}
		if _, err := io.Copy(w, io.NewSectionReader(f, c.Off, c.Len)); err != nil {
			return err
		}
	}
	return nil
}
