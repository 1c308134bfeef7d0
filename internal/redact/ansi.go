package redact

import (
	"bytes"
	"slices"
)

// Terminal sequences. Coloured output (git grep, jq -C, grep --color=always,
// yq -C, ls --color) puts escape sequences between a variable's name and its
// separator, or inside a value, where no matcher can see through them; a pty
// adds titles, cursor moves and the like. Detection therefore runs on a view
// of such a line with its sequences removed, which is what a person reads,
// and the redaction is mapped back onto the bytes that are there: a span's
// printable bytes become the marker and the sequences inside it stay, so a
// colour that starts or ends inside a secret still starts or ends.
//
// The sequence boundaries are termtext's (what 'rac out read' shows), so the
// two never disagree about which bytes are text: CSI runs to its first byte
// in 0x40-0x7e, OSC, DCS, SOS, PM and APC to BEL or ST, a charset
// designation takes one more byte and any other ESC one; a sequence that is
// not finished by the end of a line runs to that end. A cursor-forward
// ESC[nC reads as n spaces, since a terminal shows it as a gap between
// words. The payload of a control string (a window title may carry the
// command line being run, OSC 8 a URL) is redacted on its own, as a line of
// its own.
//
// Eight-bit (C1) introducers are left alone: the fast path of a line
// without ESC has to stay one IndexByte.

const (
	escByte = 0x1b
	// cufMaxSpaces bounds what one cursor-forward adds to the view: a gap
	// is a gap, and a huge count must not make the view huge.
	cufMaxSpaces = 256
)

type seqKind uint8

const (
	seqOther seqKind = iota
	seqSGR
	seqSGRReset // an SGR that sets every attribute back to the default
	seqCUF
	seqString // OSC, DCS, SOS, PM, APC: payload at [ps, pe)
)

// termSeq is one escape sequence of a line, in raw offsets.
type termSeq struct {
	start, end int
	ps, pe     int
	kind       seqKind
	spaces     int  // seqCUF: the gap it shows
	open       bool // it runs to the end of a buffer that may continue
}

// termView is the text of one line (or held piece of a long line) as a
// person reads it, with the way back to the raw bytes.
type termView struct {
	text []byte
	// at[i] is the raw offset of text[i], the start of its sequence for a
	// cursor-forward space; at[len(text)] is the raw length.
	at   []int32
	seqs []termSeq
}

// termSeqAt parses the sequence that starts with the ESC at line[i]. open
// says line may continue: a sequence that reaches its end is then marked
// open, since more of it may follow.
func termSeqAt(line []byte, i int, open bool) termSeq {
	s := termSeq{start: i, kind: seqOther}
	n := len(line)
	j := i + 1
	if j >= n {
		s.end, s.open = n, open
		return s
	}
	switch line[j] {
	case '[':
		k := j + 1
		for k < n && (line[k] < 0x40 || line[k] > 0x7e) {
			k++
		}
		if k >= n {
			s.end, s.open = n, open
			return s
		}
		s.end = k + 1
		s.classifyCSI(line[j+1:k], line[k])
	case ']', 'P', 'X', '^', '_':
		s.kind = seqString
		s.ps = j + 1
		for k := s.ps; k < n; k++ {
			switch {
			case line[k] == 0x07:
				s.pe, s.end = k, k+1
				return s
			case line[k] == escByte && k+1 < n && line[k+1] == '\\',
				line[k] == 0xc2 && k+1 < n && line[k+1] == 0x9c:
				s.pe, s.end = k, k+2
				return s
			}
		}
		s.pe, s.end, s.open = n, n, open
	case '(', ')', '*', '+', '#', '%':
		s.end = j + 2
		if s.end > n {
			s.end, s.open = n, open
		}
	default:
		s.end = j + 1
	}
	return s
}

// classifyCSI sets the kind of a complete CSI sequence from its
// parameter bytes and final byte: an SGR (or SGR reset) or a cursor
// forward, whose spaces it counts; any other stays seqOther.
func (s *termSeq) classifyCSI(params []byte, final byte) {
	switch final {
	case 'm':
		switch {
		case onlyBytes(params, &sgrResetSet):
			s.kind = seqSGRReset
		case onlyBytes(params, &sgrParamSet):
			s.kind = seqSGR
		}
	case 'C':
		if onlyBytes(params, &digitSet) {
			s.kind = seqCUF
			s.spaces = 0
			for _, c := range params {
				s.spaces = min(s.spaces*10+int(c-'0'), cufMaxSpaces)
			}
			s.spaces = max(s.spaces, 1)
		}
	}
}

var (
	sgrResetSet = mkset("0;")
	sgrParamSet = mkset("0-9;:")
	digitSet    = mkset("0-9")
)

func onlyBytes(b []byte, set *byteSet) bool {
	for _, c := range b {
		if !set[c] {
			return false
		}
	}
	return true
}

// build makes v the view of line; open says line may continue.
func (v *termView) build(line []byte, open bool) {
	v.text, v.at, v.seqs = v.text[:0], v.at[:0], v.seqs[:0]
	i := 0
	for i < len(line) {
		end := len(line)
		if j := bytes.IndexByte(line[i:], escByte); j >= 0 {
			end = i + j
		}
		v.text = append(v.text, line[i:end]...)
		n := len(v.at)
		v.at = slices.Grow(v.at, end-i)[:n+end-i]
		for k := range end - i {
			v.at[n+k] = int32(i + k)
		}
		if end == len(line) {
			break
		}
		v.seqs = append(v.seqs, termSeqAt(line, end, open))
		s := &v.seqs[len(v.seqs)-1]
		for range s.spaces {
			v.text = append(v.text, ' ')
			v.at = append(v.at, int32(end))
		}
		i = s.end
	}
	v.at = append(v.at, int32(len(line)))
}

// rawEnd is where the bytes behind text[:i] end: after the last printable
// byte, or after the cursor-forward that showed the last space. Sequences
// between text[i-1] and text[i] are outside.
func (v *termView) rawEnd(line []byte, i int) int {
	if i == 0 {
		return int(v.at[0])
	}
	r := int(v.at[i-1])
	if line[r] != escByte {
		return r + 1
	}
	if k := v.seqAt(r); k >= 0 {
		return v.seqs[k].end
	}
	return r + 1
}

// seqAt returns the index of the sequence starting at raw offset r, or -1.
func (v *termView) seqAt(r int) int {
	lo, hi := 0, len(v.seqs)
	for lo < hi {
		m := (lo + hi) / 2
		if v.seqs[m].start < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(v.seqs) && v.seqs[lo].start == r {
		return lo
	}
	return -1
}

// seqFrom returns the index of the first sequence ending after raw offset r.
func (v *termView) seqFrom(r int) int {
	lo, hi := 0, len(v.seqs)
	for lo < hi {
		m := (lo + hi) / 2
		if v.seqs[m].end <= r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// boundary moves raw offset r to the start of the sequence it is inside of,
// if any, so a cut never splits one.
func (v *termView) boundary(r int) int {
	if v == nil {
		return r
	}
	if k := v.seqFrom(r); k < len(v.seqs) && v.seqs[k].start < r {
		return v.seqs[k].start
	}
	return r
}

// boundaryAfter moves raw offset r to the end of the sequence it is inside
// of, if any.
func (v *termView) boundaryAfter(r int) int {
	if v == nil {
		return r
	}
	if k := v.seqFrom(r); k < len(v.seqs) && v.seqs[k].start < r {
		return v.seqs[k].end
	}
	return r
}

// openStart returns where a sequence still open at the end of the buffer
// starts, or -1.
func (v *termView) openStart() int {
	if v == nil || len(v.seqs) == 0 || !v.seqs[len(v.seqs)-1].open {
		return -1
	}
	return v.seqs[len(v.seqs)-1].start
}

// sgrOpenAfter says whether a colour (any SGR attribute) may be on after
// the line, given whether one may be before it.
func (v *termView) sgrOpenAfter(open bool) bool {
	for _, s := range v.seqs {
		switch s.kind {
		case seqSGR:
			open = true
		case seqSGRReset:
			open = false
		}
	}
	return open
}

// droppable reports whether dropping the whole line leaves the terminal's
// colours as they would have been: none is on before it, and every
// sequence on it is a colour, the last one a reset. Lines coloured one by
// one (grep --color, a highlighter, a coloured diff) are dropped whole; the
// sequences of any other dropped line are written in its place, so a
// colour that a dropped line ends still ends.
func (v *termView) droppable(openBefore bool) bool {
	if openBefore || len(v.seqs) == 0 || v.seqs[len(v.seqs)-1].kind != seqSGRReset {
		return false
	}
	for _, s := range v.seqs {
		if s.kind != seqSGR && s.kind != seqSGRReset {
			return false
		}
	}
	return true
}
