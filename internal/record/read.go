package record

import (
	"bytes"
	"fmt"
	"io"
	"sort"
)

// Line is one line of a stream. N counts lines within the stream from 1,
// the numbering grep, explain and --lines share. Text has no newline; NL
// says whether the line ended with one. A Marker line is not output but
// rac's note of where a capped recording was cut (N is 0).
type Line struct {
	Stream string
	N      int64
	Text   []byte
	NL     bool
	Marker bool
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

const readBlock = 256 << 10

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

// CutMarker is the text of the marker line at a cut.
func CutMarker(stream string, c StreamCut) string {
	return fmt.Sprintf("[rac: %d bytes (%d lines) of %s cut here: the recording keeps its head and its tail]", c.DroppedBytes, c.DroppedLines, stream)
}

// lineState assembles one stream's lines from pieces of bytes.
type lineState struct {
	stream   string
	cut      *StreamCut
	n        int64 // number of the line being assembled
	partial  []byte
	consumed int64 // offset after the last byte fed
	skip     bool  // drop the first line: it starts before what was read
}

// feed takes b, which starts at offset at. A jump past consumed means the
// bytes between were cut: the partial line ends there and a marker follows.
func (st *lineState) feed(b []byte, at int64, emit func(Line) error) error {
	if at > st.consumed && st.cut != nil {
		if len(st.partial) > 0 && !st.skip {
			if err := emit(Line{Stream: st.stream, N: st.n, Text: st.partial}); err != nil {
				return err
			}
		}
		st.partial = st.partial[:0]
		if err := emit(Line{Stream: st.stream, Text: []byte(CutMarker(st.stream, *st.cut)), Marker: true}); err != nil {
			return err
		}
		// the kept tail starts inside a line: that piece is no line, drop it
		st.n = st.cut.LinesBefore() + 1
		st.skip = true
	}
	st.consumed = at + int64(len(b))
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			st.partial = append(st.partial, b...)
			return nil
		}
		text := b[:i]
		if len(st.partial) > 0 {
			text = append(st.partial, text...)
			st.partial = st.partial[:0]
		}
		b = b[i+1:]
		if st.skip {
			st.skip = false
		} else if err := emit(Line{Stream: st.stream, N: st.n, Text: text, NL: true}); err != nil {
			return err
		}
		st.n++
	}
	return nil
}

// flush ends a last line that has no newline.
func (st *lineState) flush(emit func(Line) error) error {
	if len(st.partial) > 0 && !st.skip {
		return emit(Line{Stream: st.stream, N: st.n, Text: st.partial})
	}
	return nil
}

func (r *Recording) streamLines(o LineOptions, fn func(Line) error) error {
	v, err := r.openView(o.Stream)
	if err != nil {
		return err
	}
	defer v.Close()
	size := v.Size()
	start, first := int64(0), int64(1)
	switch {
	case o.Tail > 0:
		if start, err = tailStart(v, o.Tail); err != nil {
			return err
		}
		if first, err = r.lineAt(v, o.Stream, start); err != nil {
			return err
		}
	case o.From > 1:
		if start, first, err = r.seekLine(v, o.Stream, o.From); err != nil {
			return err
		}
	}
	emitted := int64(0)
	emit := func(l Line) error {
		if !l.Marker {
			if o.From > 0 && l.N < o.From {
				return nil
			}
			if o.To > 0 && l.N > o.To {
				return ErrStop
			}
		}
		if o.Head > 0 && emitted >= o.Head {
			return ErrStop
		}
		if !l.Marker {
			emitted++
		}
		return fn(l)
	}
	st := &lineState{stream: o.Stream, cut: v.cut, n: first, consumed: start}
	if v.cut != nil && o.From > v.cut.HeadLines+1 && o.From <= v.cut.LinesBefore() {
		// the lines asked for were cut: say so
		if err := emit(Line{Stream: o.Stream, Text: []byte(CutMarker(o.Stream, *v.cut)), Marker: true}); err != nil {
			return err
		}
	}
	buf := make([]byte, readBlock)
	if err := v.each(start, size-start, buf, func(b []byte, at int64) error { return st.feed(b, at, emit) }); err != nil {
		return err
	}
	return st.flush(emit)
}

// tailStart finds the offset where the last n lines begin, reading
// backwards in blocks: the cost is the size of those lines.
func tailStart(v *streamView, n int64) (int64, error) {
	const block = 64 << 10
	buf := make([]byte, block)
	need := n
	trailing := true // a newline as the very last byte ends a line, it starts none
	for i := len(v.parts) - 1; i >= 0; i-- {
		p := v.parts[i]
		end := p.size
		for end > 0 {
			from := max(0, end-block)
			b := buf[:end-from]
			if _, err := p.f.ReadAt(b, from); err != nil && err != io.EOF {
				return 0, err
			}
			for j := len(b) - 1; j >= 0; j-- {
				if b[j] != '\n' {
					trailing = false
					continue
				}
				if trailing {
					trailing = false
					continue
				}
				need--
				if need == 0 {
					return p.start + from + int64(j) + 1, nil
				}
			}
			end = from
		}
	}
	if len(v.parts) > 0 {
		return v.parts[0].start, nil
	}
	return 0, nil
}

// marks returns the line index with the cut as one more entry, and
// without entries inside the cut bytes.
func (r *Recording) marks(v *streamView, stream string) ([]LineMark, error) {
	marks, err := r.LineIndex(stream)
	if err != nil || v.cut == nil {
		return marks, err
	}
	out := marks[:0]
	for _, m := range marks {
		if m.Off <= v.cut.HeadEnd || m.Off >= v.cut.KeptFrom {
			out = append(out, m)
		}
	}
	out = append(out, LineMark{Newlines: v.cut.LinesBefore(), Off: v.cut.KeptFrom})
	sort.Slice(out, func(i, j int) bool { return out[i].Off < out[j].Off })
	return out, nil
}

// lineAt returns the number of the line that starts at off.
func (r *Recording) lineAt(v *streamView, stream string, off int64) (int64, error) {
	marks, err := r.marks(v, stream)
	if err != nil {
		return 0, err
	}
	base := LineMark{}
	if i := sort.Search(len(marks), func(i int) bool { return marks[i].Off > off }); i > 0 {
		base = marks[i-1]
	}
	var nl int64
	err = v.each(base.Off, off-base.Off, make([]byte, 64<<10), func(b []byte, _ int64) error {
		nl += int64(bytes.Count(b, []byte{'\n'}))
		return nil
	})
	return base.Newlines + nl + 1, err
}

// seekLine finds the offset where line number want starts, walking from
// the nearest line index entry before it.
func (r *Recording) seekLine(v *streamView, stream string, want int64) (int64, int64, error) {
	marks, err := r.marks(v, stream)
	if err != nil {
		return 0, 0, err
	}
	base := LineMark{}
	if i := sort.Search(len(marks), func(i int) bool { return marks[i].Newlines >= want-1 }); i > 0 {
		base = marks[i-1]
	}
	off, nl := base.Off, base.Newlines
	if nl >= want-1 {
		return off, nl + 1, nil
	}
	found := false
	err = v.each(base.Off, v.Size()-base.Off, make([]byte, 64<<10), func(b []byte, at int64) error {
		if v.cut != nil && at >= v.cut.KeptFrom && off < v.cut.KeptFrom {
			off, nl = v.cut.KeptFrom, v.cut.LinesBefore() // walked across the cut
			if nl >= want-1 {
				found = true
				return ErrStop
			}
		}
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\n')
			if i < 0 {
				off += int64(len(b))
				return nil
			}
			nl++
			off += int64(i) + 1
			b = b[i+1:]
			if nl == want-1 {
				found = true
				return ErrStop
			}
		}
		return nil
	})
	if err != nil && err != ErrStop {
		return 0, 0, err
	}
	if !found {
		return v.Size(), nl + 1, nil
	}
	return off, nl + 1, nil
}

// views opens every stream of the recording.
func (r *Recording) views() (map[string]*streamView, func(), error) {
	vs := map[string]*streamView{}
	closeAll := func() {
		for _, v := range vs {
			v.Close()
		}
	}
	for _, s := range r.Meta.Streams {
		v, err := r.openView(s)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		vs[s] = v
	}
	return vs, closeAll, nil
}

// mergedLines yields the lines of every stream in arrival order: a line is
// yielded when it is complete, so lines of two streams never mix.
func (r *Recording) mergedLines(o LineOptions, fn func(Line) error) error {
	chunks, err := r.Chunks()
	if err != nil {
		return err
	}
	vs, closeAll, err := r.views()
	if err != nil {
		return err
	}
	defer closeAll()
	buf := make([]byte, readBlock)
	startChunk := 0
	if o.Tail > 0 {
		startChunk = tailChunk(chunks, vs, buf, o.Tail)
	}
	var ring []Line
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
		if !l.Marker {
			emitted++
		}
		return fn(l)
	}
	st := map[string]*lineState{}
	for _, c := range chunks[startChunk:] {
		v := vs[c.Stream]
		if v == nil {
			continue
		}
		s := st[c.Stream]
		if s == nil {
			s = &lineState{stream: c.Stream, cut: v.cut, n: 1}
			if startChunk > 0 {
				if s.n, err = r.lineAt(v, c.Stream, c.Off); err != nil {
					return err
				}
				s.consumed, s.skip = c.Off, true
			}
			st[c.Stream] = s
		}
		if err := v.each(c.Off, c.Len, buf, func(b []byte, at int64) error { return s.feed(b, at, emit) }); err != nil {
			return err
		}
	}
	for _, name := range r.Meta.Streams {
		if s := st[name]; s != nil {
			if err := s.flush(emit); err != nil {
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
func tailChunk(chunks []Chunk, vs map[string]*streamView, buf []byte, n int64) int {
	need := n + 2
	for i := len(chunks) - 1; i >= 0; i-- {
		c := chunks[i]
		if v := vs[c.Stream]; v != nil {
			_ = v.each(c.Off, c.Len, buf, func(b []byte, _ int64) error {
				need -= int64(bytes.Count(b, []byte{'\n'}))
				return nil
			})
		}
		if need <= 0 {
			return i
		}
	}
	return 0
}

// CopyRaw writes the exact stored bytes that are kept: one stream, or
// every chunk in arrival order. It returns the cuts the bytes skipped.
func (r *Recording) CopyRaw(w io.Writer, stream string) (map[string]StreamCut, error) {
	vs, closeAll, err := r.views()
	if err != nil {
		return nil, err
	}
	defer closeAll()
	cuts := map[string]StreamCut{}
	for name, v := range vs {
		if v.cut != nil && (stream == "" || stream == name) {
			cuts[name] = *v.cut
		}
	}
	buf := make([]byte, readBlock)
	write := func(b []byte, _ int64) error { _, err := w.Write(b); return err }
	if stream != "" {
		v := vs[stream]
		if v == nil {
			return cuts, nil
		}
		return cuts, v.each(0, v.Size(), buf, write)
	}
	chunks, err := r.Chunks()
	if err != nil {
		return nil, err
	}
	for _, c := range chunks {
		if v := vs[c.Stream]; v != nil {
			if err := v.each(c.Off, c.Len, buf, write); err != nil {
				return nil, err
			}
		}
	}
	return cuts, nil
}
