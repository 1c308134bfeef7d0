package app

import (
	"bufio"
	"bytes"
	"io"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/termtext"
)

// outLines redacts one recording's lines on their way out to an agent:
// the MCP read and grep tools, and explain (CLI and MCP). Every line also
// passes red.String where it is shown, as it always has (a rule added
// since the recording was made still applies).
//
// A recording made with redaction on was redacted on the way in, blocks
// that span lines included, so that is all it needs. A recording made with
// --no-redact holds the raw text, where a PEM key's body line or a Secret's
// data value alone has nothing that marks it: its lines go through a
// redact.Lines fed from the start of their stream, or after a cut from the
// first kept line (NewLinesAfterCut), so that a window (read lines A:B, a
// grep hit and its context, explain's picked lines) gets the block state
// the inbound pass would have had. That costs a pass over the stream up to
// the window, bounded by record.max_bytes, and only for --no-redact
// recordings: the recordings redacted on the way in keep the speed of a
// tail read from the end. A process that has made that pass once starts
// the next one at the last line before the window where the pass found
// nothing open (outMarks), which gives the same lines.
//
// A line the inbound pass drops (a key's body line after the first) is
// shown as redact.DroppedLine, so the line numbers stay the recording's.
type outLines struct {
	red     *redact.Redactor
	rec     *record.Recording
	carry   bool // --no-redact: carry the block state across lines
	streams map[string]*outStream
	readers []*redact.Lines // of reader, closed by close
	marks   *outMarks       // nil: every pass starts at the stream's start
	// markEvery is the bytes of skipped lines between two looks for a
	// mark (tests look after every line)
	markEvery int
}

// outStream is where one stream's redact.Lines is.
type outStream struct {
	name string
	cut  *record.StreamCut // nil: the stream was not cut
	// first is the number of the first line kept after the cut
	first int64
	// sawCut: the walk being redacted has passed the cut's marker
	sawCut bool
	lines  *redact.Lines
	tail   bool  // lines was fed from the first line after the cut
	next   int64 // the number of the line lines expects next
	// head and tailMarks are the stream's marks before the cut (or in the
	// whole stream) and after it (see outMarks)
	head, tailMarks *markList
}

// markList returns the marks of the segment tail says.
func (s *outStream) markList(tail bool) *markList {
	if tail {
		return s.tailMarks
	}
	return s.head
}

func newOutLines(red *redact.Redactor, rec *record.Recording, marks *outMarks) (*outLines, error) {
	o := &outLines{red: red, rec: rec, carry: !rec.Meta.Redact, streams: map[string]*outStream{}, marks: marks, markEvery: markEvery}
	if !o.carry {
		return o, nil
	}
	cuts, err := rec.Cuts()
	if err != nil {
		return nil, err
	}
	for _, s := range rec.Streams() {
		st := &outStream{name: s}
		if c, ok := cuts[s]; ok && c.DroppedBytes > 0 {
			st.cut = &c
			st.first = c.LinesBefore() + 1
		}
		st.head, st.tailMarks = marks.lists(rec, s, st.cut)
		o.streams[s] = st
	}
	return o, nil
}

func (o *outLines) close() {
	for _, l := range o.readers {
		_ = l.Close()
	}
	for _, s := range o.streams {
		if s.lines != nil {
			_ = s.lines.Close() // its output was checked line by line
		}
	}
}

// headless reports whether stream was cut with nothing kept before the
// cut: its first piece is the tail.
func (o *outLines) headless(stream string) bool {
	s := o.streams[stream]
	return s != nil && s.cut != nil && s.cut.HeadEnd == 0
}

// isCut reports whether l is the marker of this stream's cut.
func (s *outStream) isCut(l record.Line) bool {
	return l.Marker && s.cut != nil && string(l.Text) == record.CutMarker(s.name, *s.cut)
}

// marker takes a marker line of the walk being redacted.
func (o *outLines) marker(l record.Line) {
	if s := o.streams[l.Stream]; s != nil && s.isCut(l) {
		s.sawCut = true
	}
}

// segment says whether line n of the walk being redacted lies after the
// cut. Line first may be both: when the cut went through one line, the
// head ends with its start and the tail begins with its end; a walk shows
// the cut's marker before the tail's piece, except a tail of both streams
// whose window starts just after that marker. Then unsure is set.
func (s *outStream) segment(n int64) (tail, unsure bool) {
	switch {
	case s.cut == nil || n < s.first:
		return false, false
	case s.sawCut || n > s.first || s.cut.DroppedLines > 0:
		// with lines dropped the head ends before line first
		return true, false
	}
	return false, true
}

func (s *outStream) reset(red *redact.Redactor, tail bool) {
	if s.lines != nil {
		_ = s.lines.Close()
	}
	s.tail, s.next = tail, 1
	if tail {
		s.lines, s.next = red.NewLinesAfterCut(), s.first
	} else {
		s.lines = red.NewLines()
	}
}

// line returns the redacted form of line n of stream, raw as stored, for
// a walk that yields its lines in order (record.Lines): lines it skips are
// fed from the recording. It returns raw itself for a recording redacted
// on the way in.
func (o *outLines) line(stream string, n int64, raw []byte) ([]byte, error) {
	s := o.streams[stream]
	if !o.carry || s == nil {
		return raw, nil
	}
	tail, unsure := s.segment(n)
	if s.lines == nil || s.tail != tail || n < s.next {
		s.reset(o.red, tail)
	}
	o.jump(s, n)
	if n > s.next {
		if err := o.catchUp(s, n-1); err != nil {
			return nil, err
		}
	}
	out := s.lines.Line(raw)
	s.next = n + 1
	if s.lines.Failed() {
		o.marks.fail(s.head, s.tailMarks)
	}
	if unsure && bytes.Equal(out, raw) {
		// as the first line after the cut it could be inside a block
		u := o.red.NewLinesAfterCut()
		out = append([]byte(nil), u.Line(raw)...)
		_ = u.Close()
	}
	return out, nil
}

// jump moves s on to the last mark at or before line n when that is past
// where s is: a new redact.Lines started there gives every line from it
// on as s.lines would (see outMarks). A failed s.lines stays: every line
// after a failure is the failure's marker.
func (o *outLines) jump(s *outStream, n int64) {
	k := o.marks.before(s.markList(s.tail), n)
	if k <= s.next || (s.tail && k <= s.first) || s.lines.Failed() {
		return
	}
	_ = s.lines.Close()
	s.lines, s.next = o.red.NewLines(), k
}

// catchUp feeds s the lines from s.next to to, and notes the marks it
// passes.
func (o *outLines) catchUp(s *outStream, to int64) error {
	from := s.next
	// from the tail's first line the walk starts with the head's piece
	// of it, when the cut went through it, then the marker
	headPiece := s.tail && from == s.first
	n := o.noter(s.markList(s.tail))
	err := o.rec.Lines(record.LineOptions{Stream: s.name, From: from, To: to}, func(l record.Line) error {
		switch {
		case l.Marker:
			if s.isCut(l) {
				headPiece = false
			}
			if !s.tail || !s.isCut(l) {
				// a marker a walk of one segment does not expect (a
				// cut made while it ran, a line too long to show)
				n.stop()
			}
		case headPiece || l.N < from || l.N > to:
		default:
			s.lines.Skip(l.Text)
			n.fed(s.lines, l)
		}
		return nil
	})
	if s.lines.Failed() {
		o.marks.fail(s.head, s.tailMarks)
	}
	return err
}

// noter notes the marks one walk passes in one segment's list.
type noter struct {
	o     *outLines
	list  *markList
	bytes int // fed since the last look
}

func (o *outLines) noter(list *markList) *noter { return &noter{o: o, list: list} }

func (n *noter) stop() { n.list = nil }

// fed takes line l, just given to lines, and every markEvery bytes notes
// the next line as a mark when lines is settled there.
func (n *noter) fed(lines *redact.Lines, l record.Line) {
	if n.list == nil {
		return
	}
	n.bytes += len(l.Text) + 1
	if n.bytes < n.o.markEvery {
		return
	}
	n.bytes = 0
	if lines.Settled() {
		n.o.marks.add(n.list, l.N+1)
	}
}

// outPiece is one redacted line of a stream, for lookups by number.
type outPiece struct {
	tail  bool
	clean []byte // the raw line cleaned as grep shows it, to tell pieces apart
	raw   bool   // redaction left the line as it was
	text  []byte // redacted, not cleaned
}

// lookup redacts stream from its start up to line last and returns the
// lines want holds, by number: two pieces for the number of a line the
// cut went through.
func (o *outLines) lookup(stream string, want map[int64]bool, last int64) (map[int64][]outPiece, error) {
	s := o.streams[stream]
	found := map[int64][]outPiece{}
	if s == nil {
		return found, nil
	}
	lines := o.red.NewLines()
	defer func() { _ = lines.Close() }()
	from, tail := o.lookupStart(s, want)
	n := o.noter(s.markList(tail))
	err := o.rec.Lines(record.LineOptions{Stream: stream, From: from, To: last}, func(l record.Line) error {
		if l.Marker {
			if s.isCut(l) && !tail {
				_ = lines.Close()
				lines, tail = o.red.NewLinesAfterCut(), true
				n = o.noter(s.tailMarks)
			} else {
				n.stop()
			}
			return nil
		}
		if !want[l.N] {
			lines.Skip(l.Text)
			if tail || s.cut == nil || l.N < s.first {
				n.fed(lines, l)
			}
			return nil
		}
		out := lines.Line(l.Text)
		// clean is copied: CleanLine may return l.Text, which the walk's
		// next read overwrites
		found[l.N] = append(found[l.N], outPiece{tail: tail, clean: append([]byte(nil), termtext.CleanLine(l.Text)...),
			raw: bytes.Equal(out, l.Text), text: append([]byte(nil), out...)})
		return nil
	})
	if lines.Failed() {
		o.marks.fail(s.head, s.tailMarks)
	}
	return found, err
}

// lookupStart is where lookup's walk of s starts: at the last mark before
// the first line wanted, in that line's segment (after the cut: tail),
// else at the stream's start. The first kept line after a cut, which
// may have a piece on either side, is walked to from before the cut.
func (o *outLines) lookupStart(s *outStream, want map[int64]bool) (from int64, tail bool) {
	first := int64(-1)
	for n := range want {
		if first < 0 || n < first {
			first = n
		}
	}
	if s.cut == nil || first <= s.first {
		return o.marks.before(s.head, first), false
	}
	if k := o.marks.before(s.tailMarks, first); k > s.first {
		return k, true
	}
	return 0, false
}

// pick chooses the piece a hit's line (its cleaned text) is: the one
// whose text it is, and when that does not decide, one that redaction
// changed. ok is false when the line was not found again.
func pick(pieces []outPiece, clean []byte) (outPiece, bool) {
	var match []outPiece
	for _, p := range pieces {
		if bytes.Equal(p.clean, clean) {
			match = append(match, p)
		}
	}
	if len(match) == 0 {
		match = pieces
	}
	for _, p := range match {
		if !p.raw {
			return p, true
		}
	}
	if len(match) == 0 {
		return outPiece{}, false
	}
	return match[0], true
}

// reader gives a piece of stream (record.Pieces) with every line as a
// redact.Lines redacts it; tail says the piece is the part kept after the
// cut. raw counts the stored bytes read.
func (o *outLines) reader(r io.Reader, tail bool, raw *int64) io.Reader {
	lines := o.red.NewLines()
	if tail {
		lines = o.red.NewLinesAfterCut()
	}
	o.readers = append(o.readers, lines)
	return &lineReader{src: bufio.NewReaderSize(r, 64<<10), lines: lines, raw: raw}
}

// lineReader is a stream read line by line through a redact.Lines: each
// line comes out as one line, so line numbers stay the stream's.
type lineReader struct {
	src   *bufio.Reader
	lines *redact.Lines
	raw   *int64
	line  []byte
	out   []byte
	off   int
	err   error
}

func (r *lineReader) Read(p []byte) (int, error) {
	for r.off == len(r.out) {
		if r.err != nil {
			return 0, r.err
		}
		r.next()
	}
	n := copy(p, r.out[r.off:])
	r.off += n
	return n, nil
}

// next redacts the next line into out. A line longer than
// record.MaxLineText is redacted as its first MaxLineText bytes, as
// 'rac out read' shows it.
func (r *lineReader) next() {
	r.out, r.off, r.line = r.out[:0], 0, r.line[:0]
	for {
		b, err := r.src.ReadSlice('\n')
		*r.raw += int64(len(b))
		nl := len(b) > 0 && b[len(b)-1] == '\n'
		if nl {
			b = b[:len(b)-1]
		}
		if room := record.MaxLineText - len(r.line); room > 0 {
			r.line = append(r.line, b[:min(room, len(b))]...)
		}
		switch {
		case nl:
			r.out = append(append(r.out, r.lines.Line(r.line)...), '\n')
			return
		case err == bufio.ErrBufferFull:
			continue
		case err != nil:
			if len(r.line) > 0 {
				r.out = append(r.out, r.lines.Line(r.line)...)
			}
			r.err = err
			return
		}
	}
}
