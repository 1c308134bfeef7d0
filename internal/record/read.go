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
// rac's note (N is 0): where a capped recording was cut, or how much of a
// line longer than MaxLineText was left out.
//
// In a capped recording each kept piece of a line is numbered as that
// line: the end of the head may be the start of line k and the kept tail
// may begin inside line m (its end, shown after the cut marker, is line
// m); Pieces numbers them the same way.
type Line struct {
	Stream string
	N      int64
	Text   []byte
	NL     bool
	Marker bool
	// Cut: the line has no newline and the recording is incomplete (its
	// recorder was killed): it may be the first part of a longer line,
	// cut by the kill, and must not read as a whole one.
	Cut bool

	long bool // a marker for the line before it, which was too long
}

// CutLineMarker is the marker after a line an incomplete recording ends
// in without its newline (a Line with Cut): what a reader must know
// before trusting it whole. read, grep and explain print it alike.
func CutLineMarker(n int64, stream string) string {
	return fmt.Sprintf("[rac: line %d of %s may be cut: the recorder was killed before its newline]", n, stream)
}

// MaxLineText is the most of one line Lines yields: memory stays bounded
// whatever a line's length (a marker line says how much more there was;
// 'rac out read --raw' copies every byte).
const MaxLineText = 16 << 20

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
	if r.Status == StatusIncomplete {
		whole := fn
		fn = func(l Line) error {
			l.Cut = !l.NL && !l.Marker
			return whole(l)
		}
	}
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

func longMarker(stream string, n, more int64) Line {
	return Line{Stream: stream, Marker: true, long: true,
		Text: fmt.Appendf(nil, "[rac: line %d of %s goes on for %d more bytes, not shown: rac out read --raw copies every byte]", n, stream, more)}
}

// lineState assembles one stream's lines from pieces of bytes.
type lineState struct {
	stream   string
	cut      *StreamCut
	n        int64 // number of the line being assembled
	partial  []byte
	over     int64 // bytes of that line beyond MaxLineText, left out
	consumed int64 // offset after the last byte fed
	skip     bool  // drop the first line: it starts before what was read
}

// feed takes b, which starts at offset at. A jump past consumed means the
// bytes between were cut: the partial line ends there, a marker follows,
// and the kept tail's first bytes are the rest of line LinesBefore()+1.
func (st *lineState) feed(b []byte, at int64, emit func(Line) error) error {
	if at > st.consumed && st.cut != nil {
		if len(st.partial) > 0 || st.over > 0 {
			if err := st.end(st.partial, false, emit); err != nil {
				return err
			}
		}
		st.partial, st.over, st.skip = st.partial[:0], 0, false
		if err := emit(Line{Stream: st.stream, Text: []byte(CutMarker(st.stream, *st.cut)), Marker: true}); err != nil {
			return err
		}
		st.n = st.cut.LinesBefore() + 1
	}
	st.consumed = at + int64(len(b))
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			st.add(b)
			return nil
		}
		text := b[:i]
		if len(st.partial) > 0 || st.over > 0 {
			st.add(text)
			text = st.partial
		} else if len(text) > MaxLineText {
			st.over = int64(len(text) - MaxLineText)
			text = text[:MaxLineText]
		}
		b = b[i+1:]
		if err := st.end(text, true, emit); err != nil {
			return err
		}
		st.partial, st.over = st.partial[:0], 0
		st.n++
	}
	return nil
}

// add appends to the partial line, up to MaxLineText.
func (st *lineState) add(b []byte) {
	room := max(0, MaxLineText-len(st.partial))
	if len(b) > room {
		st.over += int64(len(b) - room)
		b = b[:room]
	}
	st.partial = append(st.partial, b...)
}

// end yields a finished line (unless it is the one to skip) and, when it
// was too long, the marker that says so.
func (st *lineState) end(text []byte, nl bool, emit func(Line) error) error {
	if st.skip {
		st.skip = false
		return nil
	}
	if err := emit(Line{Stream: st.stream, N: st.n, Text: text, NL: nl}); err != nil {
		return err
	}
	if st.over > 0 {
		return emit(longMarker(st.stream, st.n, st.over))
	}
	return nil
}

// flush ends a last line that has no newline.
func (st *lineState) flush(emit func(Line) error) error {
	if len(st.partial) > 0 || st.over > 0 {
		return st.end(st.partial, false, emit)
	}
	return nil
}

// gapped reports whether v has the cut's gap, and so a marker.
func (v *streamView) gapped() bool {
	return v.cut != nil && v.cut.DroppedBytes > 0 && len(v.parts) > 1
}

// lastHeadLine is the number of the last line with bytes in the head (0
// when the head is empty).
func (v *streamView) lastHeadLine() (int64, error) {
	c := v.cut
	if c.HeadEnd == 0 {
		return 0, nil
	}
	var b [1]byte
	if _, err := v.parts[0].f.ReadAt(b[:], c.HeadEnd-1); err != nil {
		return 0, err
	}
	if b[0] == '\n' {
		return c.HeadLines, nil
	}
	return c.HeadLines + 1, nil
}

func (r *Recording) streamLines(o LineOptions, fn func(Line) error) error {
	v, err := r.openView(o.Stream)
	if err != nil {
		return err
	}
	defer v.Close()
	size := v.Size()
	start, first, err := r.streamStart(v, o)
	if err != nil {
		return err
	}
	consumed := start
	if v.gapped() && start == v.cut.KeptFrom {
		// starting with the kept tail: the marker comes first, it says
		// the first line may be the end of a longer one
		consumed = v.cut.HeadEnd
	}
	w := &window{o: o, v: v, fn: fn}
	st := &lineState{stream: o.Stream, cut: v.cut, n: first, consumed: consumed}
	buf := make([]byte, readBlock)
	if err := v.each(start, size-start, buf, func(b []byte, at int64) error { return st.feed(b, at, w.emit) }); err != nil {
		return err
	}
	return st.flush(w.emit)
}

// streamStart is where a walk of one stream for o starts: the byte offset
// and the number of the line there (the tail's first, From's, or the
// stream's start).
func (r *Recording) streamStart(v *streamView, o LineOptions) (start, first int64, err error) {
	switch {
	case o.Tail > 0:
		if start, err = tailStart(v, o.Tail); err != nil {
			return 0, 0, err
		}
		first, err = r.lineAt(v, o.Stream, start)
		return start, first, err
	case o.From > 1:
		return r.seekLine(v, o.Stream, o.From)
	}
	return 0, 1, nil
}

// window passes on the lines of one stream's walk that o asks for: from
// From, up to To, at most Head. The cut's marker is held until it is
// known to belong: shown before the next line shown, or, when the walk
// ends at the cut, if the lines asked for include some the cut took.
type window struct {
	o         LineOptions
	v         *streamView
	fn        func(Line) error
	pending   *Line
	shownPrev bool
	emitted   int64
}

func (w *window) emit(l Line) error {
	switch {
	case l.long:
		if !w.shownPrev {
			return nil
		}
		return w.fn(l)
	case l.Marker:
		m := l
		m.Text = append([]byte(nil), l.Text...)
		w.pending = &m
		return nil
	}
	if w.o.To > 0 && l.N > w.o.To {
		if w.pending != nil {
			if ok, err := w.cutAsked(); err != nil {
				return err
			} else if ok {
				if err := w.fn(*w.pending); err != nil {
					return err
				}
			}
		}
		return ErrStop
	}
	if w.o.From > 0 && l.N < w.o.From {
		w.shownPrev = false
		return nil
	}
	if w.o.Head > 0 && w.emitted >= w.o.Head {
		return ErrStop
	}
	if w.pending != nil {
		if err := w.fn(*w.pending); err != nil {
			return err
		}
		w.pending = nil
	}
	w.emitted++
	w.shownPrev = true
	return w.fn(l)
}

// cutAsked reports whether the lines asked for include some the cut took.
func (w *window) cutAsked() (bool, error) {
	if w.o.To == 0 {
		return true, nil
	}
	last, err := w.v.lastHeadLine()
	return w.o.To > last && w.o.From < w.v.cut.LinesBefore()+1, err
}

// tailStart finds the offset where the last n lines begin, reading
// backwards in blocks: the cost is the size of those lines. The kept tail
// of a capped stream starts a line (the rest of the one the cut went
// through), and the head's last newline starts none.
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
		if i > 0 && v.parts[i-1].start+v.parts[i-1].size < p.start {
			if !trailing {
				need--
				if need == 0 {
					return p.start, nil
				}
			}
			trailing = true
		}
	}
	if len(v.parts) > 0 {
		return v.parts[0].start, nil
	}
	return 0, nil
}

// marks returns the line index, checked against the stream, with the cut
// as one more entry and without entries inside the cut bytes.
func (r *Recording) marks(v *streamView, stream string) ([]LineMark, error) {
	marks, err := r.lineIndex(v, stream)
	if err != nil || !v.gapped() {
		return marks, err
	}
	out := marks[:0]
	c := v.cut
	for _, m := range marks {
		if m.Off == c.KeptFrom && m.Newlines != c.LinesBefore() {
			return nil, r.damaged("%s%s does not match the cut of %s", linesPfx, stream, stream)
		}
		if m.Off <= c.HeadEnd || m.Off > c.KeptFrom {
			out = append(out, m)
		}
	}
	out = append(out, LineMark{Newlines: c.LinesBefore(), Off: c.KeptFrom})
	sort.Slice(out, func(i, j int) bool { return out[i].Off < out[j].Off })
	for i := 1; i < len(out); i++ {
		if out[i].Newlines < out[i-1].Newlines {
			return nil, r.damaged("%s%s does not match the cut of %s", linesPfx, stream, stream)
		}
	}
	return out, nil
}

// countNL counts the newlines of the kept bytes [from, to) of v.
func countNL(v *streamView, from, to int64, buf []byte) (int64, error) {
	var nl int64
	err := v.each(from, to-from, buf, func(b []byte, _ int64) error {
		nl += int64(bytes.Count(b, []byte{'\n'}))
		return nil
	})
	return nl, err
}

// checkMarks holds the entry a walk starts from, marks[i], against the
// bytes to the entries either side of it, and the last entry against the
// bytes to the end and the footer's count: a line index changed behind
// rac's back is found where it is used (or when it was changed from some
// entry on), at the cost of a few strides of bytes, not of the stream.
// (A run of entries rewritten consistently between the ones checked is
// not found: that would take counting from the start.)
func (r *Recording) checkMarks(v *streamView, stream string, marks []LineMark, i int, buf []byte) error {
	last := len(marks) - 1
	for k, j := range []int{i - 1, i, last} {
		if k == 2 && (i == last || i-1 == last) {
			continue // checked already
		}
		if err := r.checkMark(v, stream, marks, j, buf); err != nil {
			return err
		}
	}
	return nil
}

// checkMark holds marks[i] against the bytes up to the next mark, or for
// the last, up to the end against the footer's count. Pairs across the
// cut are not counted (the bytes are gone; the cut is the footer's word).
func (r *Recording) checkMark(v *streamView, stream string, marks []LineMark, i int, buf []byte) error {
	if i < 0 || i >= len(marks) {
		return nil
	}
	m := marks[i]
	gap := v.gapped()
	inTail := func(off int64) bool { return gap && off >= v.cut.KeptFrom }
	if i+1 < len(marks) {
		next := marks[i+1]
		if inTail(m.Off) != inTail(next.Off) {
			return nil
		}
		nl, err := countNL(v, m.Off, next.Off, buf)
		if err != nil {
			return err
		}
		if m.Newlines+nl != next.Newlines {
			return r.damaged("%s%s does not match %s (entry %d)", linesPfx, stream, stream, i+1)
		}
		return nil
	}
	if r.Footer == nil || (gap && !inTail(m.Off)) {
		return nil
	}
	c, ok := r.Footer.Stored[stream]
	if !ok {
		return nil
	}
	size := v.Size()
	nl, err := countNL(v, m.Off, size, buf)
	if err != nil {
		return err
	}
	total := m.Newlines + nl
	if size > 0 {
		var b [1]byte
		last := v.parts[len(v.parts)-1]
		if last.size > 0 {
			if _, err := last.f.ReadAt(b[:], last.size-1); err != nil {
				return err
			}
			if b[0] != '\n' {
				total++
			}
		}
	}
	if total != c.Lines {
		return r.damaged("%s%s does not match %s (entry %d)", linesPfx, stream, stream, i)
	}
	return nil
}

// lineAt returns the number of the line that starts at off.
func (r *Recording) lineAt(v *streamView, stream string, off int64) (int64, error) {
	marks, err := r.marks(v, stream)
	if err != nil {
		return 0, err
	}
	base := LineMark{}
	i := sort.Search(len(marks), func(i int) bool { return marks[i].Off > off }) - 1
	if i >= 0 {
		base = marks[i]
	}
	buf := make([]byte, 64<<10)
	if err := r.checkMarks(v, stream, marks, i, buf); err != nil {
		return 0, err
	}
	nl, err := countNL(v, base.Off, off, buf)
	return base.Newlines + nl + 1, err
}

// seekLine finds the offset where line number want starts, walking from
// the nearest line index entry before it. A line the cut took starts, as
// far as the stream is kept, where the kept tail does.
func (r *Recording) seekLine(v *streamView, stream string, want int64) (int64, int64, error) {
	marks, err := r.marks(v, stream)
	if err != nil {
		return 0, 0, err
	}
	base := LineMark{}
	i := sort.Search(len(marks), func(i int) bool { return marks[i].Newlines >= want-1 }) - 1
	if i >= 0 {
		base = marks[i]
	}
	if err := r.checkMarks(v, stream, marks, i, make([]byte, 64<<10)); err != nil {
		return 0, 0, err
	}
	off, nl := base.Off, base.Newlines
	if nl >= want-1 {
		return off, nl + 1, nil
	}
	found := false
	err = v.each(base.Off, v.Size()-base.Off, make([]byte, 64<<10), func(b []byte, at int64) error {
		if v.gapped() && at >= v.cut.KeptFrom && off < v.cut.KeptFrom {
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
		chunks = splitChunks(chunks, tailStep)
		startChunk = tailChunk(chunks, vs, buf, o.Tail)
	}
	m := &merged{tail: o.Tail, head: o.Head, fn: fn}
	st := map[string]*lineState{}
	for _, c := range chunks[startChunk:] {
		v := vs[c.Stream]
		if v == nil {
			continue
		}
		s := st[c.Stream]
		if s == nil {
			if s, err = r.mergedStart(v, c, startChunk > 0); err != nil {
				return err
			}
			st[c.Stream] = s
		}
		if err := v.each(c.Off, c.Len, buf, func(b []byte, at int64) error { return s.feed(b, at, m.emit) }); err != nil {
			return err
		}
	}
	for _, name := range r.Meta.Streams {
		if s := st[name]; s != nil {
			if err := s.flush(m.emit); err != nil {
				return err
			}
		}
	}
	for _, l := range m.ring {
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}

// mergedStart is the line state of a stream whose first chunk in the walk
// is c: from the stream's start, or, when the walk starts later (tail),
// at c's line (the kept tail's marker first).
func (r *Recording) mergedStart(v *streamView, c Chunk, later bool) (*lineState, error) {
	s := &lineState{stream: c.Stream, cut: v.cut, n: 1}
	switch {
	case later && v.gapped() && c.Off == v.cut.KeptFrom:
		// the kept tail: its first line is known, and the marker comes first
		s.n, s.consumed = v.cut.LinesBefore()+1, v.cut.HeadEnd
	case later:
		var err error
		if s.n, err = r.lineAt(v, c.Stream, c.Off); err != nil {
			return nil, err
		}
		s.consumed, s.skip = c.Off, true
	}
	return s, nil
}

// merged passes on the lines of every stream in arrival order: the first
// head lines, or the last tail lines, kept in ring until the walk ends.
// The ring counts lines, not markers; a marker left at its front stays
// when it is the cut's, just before the oldest line kept.
type merged struct {
	tail, head     int64
	fn             func(Line) error
	ring           []Line
	lines, emitted int64
}

func (m *merged) emit(l Line) error {
	if m.tail > 0 {
		l.Text = append([]byte(nil), l.Text...)
		m.ring = append(m.ring, l)
		if !l.Marker {
			m.lines++
		}
		for m.lines > m.tail || (len(m.ring) > 0 && m.ring[0].long) {
			if !m.ring[0].Marker {
				m.lines--
			}
			m.ring = m.ring[1:]
		}
		return nil
	}
	if m.head > 0 && m.emitted >= m.head {
		return ErrStop
	}
	if !l.Marker {
		m.emitted++
	}
	return m.fn(l)
}

// tailChunk returns the index of the chunk to start from so that at least
// n lines follow, reading chunks backwards: n newlines, and one more for
// each stream met, whose first line from that chunk on may be the end of
// a longer one (it is skipped). A long line before the tail is read once,
// backwards, to find its newline, and is not read again.
func tailChunk(chunks []Chunk, vs map[string]*streamView, buf []byte, n int64) int {
	var newlines int64
	seen := map[string]bool{}
	for i := len(chunks) - 1; i >= 0; i-- {
		c := chunks[i]
		if v := vs[c.Stream]; v != nil {
			seen[c.Stream] = true
			_ = v.each(c.Off, c.Len, buf, func(b []byte, _ int64) error {
				newlines += int64(bytes.Count(b, []byte{'\n'}))
				return nil
			})
		}
		if newlines >= n+int64(len(seen)) {
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
