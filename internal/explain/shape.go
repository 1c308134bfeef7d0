package explain

import "bytes"

// Shape, not vocabulary: a long log's cause often holds no error word
// ("billing.proto:4:12: \"Line\" is not defined.") but stands out by its
// form, one line of its own kind between blocks of lines of one template
// (progress, teardown). A line's template is its first templateBytes
// bytes with digits made '0', so "[stage 12/30] unpacked" and
// "[stage 13/30] unpacked" are one template. A one-off line is
// one whose template differs from the line after it and that is one of
// the first maxGap lines after a block of at least minBlock lines of one
// template (a tool's line and its reason between a job's steps). When
// no line matched, the report shows the last maxOneOffs of them above the
// tail: the last block before the exit is the likeliest place of the
// cause.
const (
	templateBytes = 8
	minBlock      = 3
	maxOneOffs    = 2
	maxGap        = 2
)

// lineShapes follows the templates of one stream's lines. It allocates
// nothing per line: the pending line's bytes alias the read buffer until
// the chunk ends, and the one-offs are kept in reused buffers.
type lineShapes struct {
	prev      uint64 // template of the line before
	run       int    // lines of that template in a row
	pending   bool   // a line just after a block waits for the next to say it is a one-off
	gap       int    // lines after the last block that may still be one-offs
	pendLine  int
	pendText  []byte
	pendOwn   []byte // pendText's copy when a chunk ends before the next line
	pendTmpl  uint64
	offs      [maxOneOffs]oneOff
	nOffs     int
	nLocated  int // position-led lines kept (located.go)
	found     [maxFound + maxLocated + maxWarned]found
	nWarned   int // lines led by a warning level kept (warned.go)
	nStacks   int // messages above a stack's first frame kept
	nLists    int // lists of files under the sentence that announces them kept
	nFound    int
	nRuled    int    // ruled headings kept
	nRows     int    // rows of tables of findings kept
	nRecords  int    // headings of records kept
	recordN   int    // the number of the last of them
	margin    []byte // the last line at the margin, a record's heading
	marginN   int
	marginOwn []byte // margin's copy when a chunk ends
	message   bool   // the line before is a ruled heading: this one is its message
	prevLine  []byte // the non-blank line before, for a position-only line under it
	prevN     int
	prevOwn   []byte // prevLine's copy when a chunk ends
}

type oneOff struct {
	line int
	text []byte
}

// oneOffs returns the one-off lines kept, oldest first.
func (s *lineShapes) oneOffs() []tailLine {
	out := make([]tailLine, 0, s.nOffs)
	for _, o := range s.offs[:s.nOffs] {
		out = append(out, tailLine{line: o.line, text: string(o.text)})
	}
	return out
}

// digitFold maps digits to '0' and every other byte to itself.
var digitFold = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if '0' <= i && i <= '9' {
			t[i] = '0'
		}
	}
	return t
}()

// template is a line's first templateBytes bytes with every digit made
// '0', packed in a word: cheap enough for every line of a big recording.
func template(l []byte) uint64 {
	var h uint64
	for _, c := range l[:min(len(l), templateBytes)] {
		h = h<<8 | uint64(digitFold[c])
	}
	return h
}

// add judges one non-blank line, number n.
func (s *lineShapes) add(n int, l []byte) {
	t := template(l[reportPrefix(l):]) // a checker's "==123== " prefix is no part of a line's form
	if s.message || t != s.prev || s.run < minBlock-1 {
		s.forms(n, l[:min(len(l), maxLine)])
	} else {
		// The third line of a block of one template and those after it
		// are what the block's first lines were: looking at each again
		// would cost most of the pass on a big log.
		s.track(n, l)
	}
	if s.pending {
		s.pending = false
		if t != s.pendTmpl {
			if s.nOffs == maxOneOffs {
				s.offs[0], s.offs[1] = s.offs[1], s.offs[0]
				s.nOffs--
			}
			o := &s.offs[s.nOffs]
			o.line, o.text = s.pendLine, append(o.text[:0], s.pendText...)
			s.nOffs++
		}
	}
	if t == s.prev {
		s.run++
		return
	}
	if s.run >= minBlock {
		s.gap = maxGap
	}
	if s.gap > 0 {
		s.gap--
		s.pending, s.pendLine, s.pendText, s.pendTmpl = true, n, bytes.TrimSpace(l[:min(len(l), maxLine)]), t
	}
	s.prev, s.run = t, 1
}

// lines judges the whole lines of b (it ends with a newline), the first
// numbered first, each by its first maxLine bytes, as a line longer than
// the read buffer is judged (scanner.endLong).
func (s *lineShapes) lines(b []byte, first int) {
	n := first
	for len(b) > 0 {
		e := bytes.IndexByte(b, '\n')
		if e < 0 {
			e = len(b)
		}
		if l := b[:min(e, maxLine)]; len(l) > 0 && (l[0] > ' ' || len(bytes.TrimSpace(l)) > 0) {
			s.add(n, l)
		}
		n++
		if e == len(b) {
			break
		}
		b = b[e+1:]
	}
	if s.prevLine != nil {
		s.prevOwn = append(s.prevOwn[:0], s.prevLine...)
		s.prevLine = s.prevOwn
	}
	if s.margin != nil {
		s.marginOwn = append(s.marginOwn[:0], s.margin...)
		s.margin = s.marginOwn
	}
	if s.pending {
		// the read buffer is reused for the next chunk
		s.pendOwn = append(s.pendOwn[:0], s.pendText...)
		s.pendText = s.pendOwn
	}
}

// forms looks at every non-blank line for the forms of located.go: a
// position-led line, a ruled heading and its message, a position alone
// under its message.
func (s *lineShapes) forms(n int, l []byte) {
	if s.nWarned < maxWarned && warningLed(trimIndent(l)) {
		s.nWarned++
		s.keep(n, l, tierContext, kindContext)
	}
	if item, ok := listItem(l); ok {
		s.item(n, l, item)
	}
	switch {
	case s.message:
		s.message = false
		s.keep(n, l, tierCause, kindDetail)
	case s.nLocated < maxLocated && (isLetter(l[0]) || l[0] == '.' || l[0] == '/' || l[0] == '"') && isFinding(l):
		s.nLocated++
		s.keep(n, l, tierSummary, kindCompiler)
	case s.nRows < maxRows && rowStart(l) && findingRow(trimIndent(l)):
		s.nRows++
		s.keep(n, l, tierSummary, kindCompiler)
	}
	if s.nRuled < maxRuled && l[len(l)-1] >= 0x80 && ruled(l) {
		s.nRuled++
		s.message = true
		s.keep(n, l, tierCause, kindReport)
	}
	if s.nStacks < maxStacks && s.prevLine != nil && firstFrame(l, s.prevLine) {
		s.nStacks++
		s.keep(s.prevN, s.prevLine, tierCause, kindDetail)
	}
	if c := l[0]; c == '(' || c == ' ' || c == '\t' {
		t := trimIndent(l)
		switch {
		case s.prevLine != nil && positionOnly(t):
			s.keep(s.prevN, s.prevLine, tierCause, kindDetail)
		case s.nRecords < maxRecords && s.margin != nil && s.marginN != s.recordN && locationField(t):
			s.nRecords++
			s.recordN = s.marginN
			s.keep(s.marginN, s.margin, tierSummary, kindDetail)
		}
		s.prevLine, s.prevN = l, n
		return
	}
	s.track(n, l)
}

// item looks at a list item for the forms of located.go: a position-led
// item is a finding; the first item naming a file under a sentence that
// announces the list is kept with it.
func (s *lineShapes) item(n int, l, t []byte) {
	switch {
	case s.nLocated < maxLocated && isFinding(t):
		s.nLocated++
		s.keep(n, l, tierSummary, kindCompiler)
	case s.nLists < maxLists && s.prevLine != nil && s.prevN < n && announcesList(s.prevLine) && namesFile(t):
		s.nLists++
		s.keep(s.prevN, s.prevLine, tierContext, kindShape)
		s.keep(n, l, tierContext, kindShape)
	}
}

// track remembers line n as the line before the next, and as the last
// line at the margin when it opens there.
func (s *lineShapes) track(n int, l []byte) {
	s.prevLine, s.prevN = l, n
	if c := l[0]; c != '(' && c != ' ' && c != '\t' {
		s.margin, s.marginN = l, n
	}
}

// keep keeps line n for the store, while there is room.
func (s *lineShapes) keep(n int, l []byte, tier int, kind string) {
	if s.nFound == len(s.found) {
		return
	}
	f := &s.found[s.nFound]
	f.line, f.text, f.tier, f.kind = n, append(f.text[:0], bytes.TrimSpace(l)...), tier, kind
	s.nFound++
}

// rowStart reports a line that opens like a row of findings: a line
// number, maybe after blanks and a one-letter label ("L:   1 |", " 9 |"),
// then '|'. It leaves at the first byte that does not fit, which on most
// lines is the first or second.
func rowStart(l []byte) bool {
	i := 0
	for i < len(l) && i < maxCell && l[i] == ' ' {
		i++
	}
	if i+1 < len(l) && isLetter(l[i]) && l[i+1] == ':' {
		i += 2
		for i < len(l) && i < maxCell && l[i] == ' ' {
			i++
		}
	}
	d := i
	for i < len(l) && isDigit(l[i]) {
		i++
	}
	if i == d {
		return false
	}
	for i < len(l) && l[i] == ' ' {
		i++
	}
	return i < len(l) && l[i] == '|'
}
