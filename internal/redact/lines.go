package redact

import (
	"bytes"
)

// DroppedLine is what Lines shows for a line the stream form drops: a
// private key's body lines after the first. The stream form (a Writer)
// removes them, newline and all; a view that numbers lines cannot, or the
// numbers it prints would stop being the recording's own, so each such
// line is kept as this marker, after the line's own indentation. It is the
// marker the first body line gets.
const DroppedLine = "[REDACTED:private-key]"

// failedLine is every line's form once redaction itself has failed: Lines
// fails closed like a Writer.
const failedLine = "[REDACTED:redactor-failed]"

// kubeMarker replaces a value the after-cut rule takes for Secret data.
const kubeMarker = "[REDACTED:k8s-secret-data]"

// skipBatch is how many bytes of skipped lines are fed in one write: a
// Writer redacts a batch much faster than the same lines one by one.
const skipBatch = 256 << 10

// Lines redacts a stream one line at a time for a view that shows lines by
// their number (rac's outbound pass over a recording stored with
// --no-redact: read, grep and explain hand out single lines, and a PEM body
// line or a Secret's data value alone has nothing that marks it). Every
// line goes, in order, through one Writer with one worker, so the
// multi-line state (PEM private keys, Kubernetes data: and stringData:
// blocks, JSON "data" objects) is carried exactly as on the way in: a line
// comes out as the stream form has it, and a dropped line as DroppedLine.
//
// Lines must be fed from a point where no block can be open: the start of
// a stream, or, after a cut in the stream, from the first kept line with
// NewLinesAfterCut. A window of a stream (lines 120 to 160) is redacted
// right only when every line before it was given to Skip or Line, or
// every line since a point where a Lines over the same stream was Settled.
//
// A Lines is used by one goroutine. Close releases it.
type Lines struct {
	w       *Writer
	out     lineSink
	line    []byte // the line and its newline, as written
	pending []byte // skipped lines, each with its newline, not written yet
	failed  bool
	dropped bool // the last line's stream form was no line at all

	// afterCut: the stream was cut just before the first line, so a
	// block may be open that the Writer never saw start; the first lines
	// that look like a block's inside are masked (see maskAfterCut).
	afterCut bool
	seen     int // lines given so far
}

// lineSink collects what the Writer writes for one line, or nothing while
// skipped lines are written.
type lineSink struct {
	b       []byte
	discard bool
}

func (s *lineSink) Write(p []byte) (int, error) {
	if !s.discard {
		s.b = append(s.b, p...)
	}
	return len(p), nil
}

// NewLines returns a Lines for a stream fed from its first line.
func (r *Redactor) NewLines() *Lines {
	l := &Lines{}
	l.w = r.NewWriterOptions(&l.out, WriterOptions{Workers: 1})
	return l
}

// NewLinesAfterCut returns a Lines for the kept tail of a stream whose
// middle was cut away: the state at its first line is unknown, since a
// block may have started in the bytes that are gone. It redacts as
// NewLines does and, from the first line on until a line that cannot be
// the inside of a block, also masks lines that can:
//
//   - a line that is a run of base64 (a PEM body line, or base64 PEM),
//     at least 16 bytes, after indentation and an optional quote and before
//     a closing quote, comma or backslash, becomes DroppedLine; the first
//     line, which the cut may have split anywhere, counts at any length;
//   - a YAML entry "key: value" or JSON member "key": "value" whose value
//     is one word keeps its key and has the value replaced by
//     [REDACTED:k8s-secret-data] (a data: or stringData: block).
//
// This is deliberately coarse: it may mask the first lines of a tail that
// only look like a block, never the other way round. A block whose body
// lines repeat a prefix (a log prefix before each line of a key) is not
// recognised once its header is gone.
func (r *Redactor) NewLinesAfterCut() *Lines {
	l := r.NewLines()
	l.afterCut = true
	return l
}

// Line redacts the next line of the stream. text is the line without its
// newline and must hold none. The result is valid until the next call.
func (l *Lines) Line(text []byte) []byte {
	mask, masked := l.cutRule(text)
	l.dropped = false
	l.flushSkipped()
	if l.failed {
		return []byte(failedLine)
	}
	l.out.b = l.out.b[:0]
	l.line = append(append(l.line[:0], text...), '\n')
	if _, err := l.w.Write(l.line); err != nil {
		l.failed = true
		return []byte(failedLine)
	}
	out := l.out.b
	// dropped: a body line of a private key after the first. The stream
	// form writes nothing for it, or only the escape sequences it held
	// (so that colours do not bleed), never its newline.
	l.dropped = len(out) == 0 || out[len(out)-1] != '\n'
	if l.dropped {
		out = append(append(out[:0], indentation(text)...), DroppedLine...)
	} else {
		out = out[:len(out)-1]
	}
	l.out.b = out
	if masked {
		return mask
	}
	return out
}

// Skip feeds the next line of the stream without wanting its redacted
// form: the lines before a window. text is the line without its newline.
func (l *Lines) Skip(text []byte) {
	l.cutRule(text)
	if l.failed {
		return
	}
	l.pending = append(append(l.pending, text...), '\n')
	if len(l.pending) >= skipBatch {
		l.flushSkipped()
	}
}

func (l *Lines) flushSkipped() {
	if len(l.pending) == 0 || l.failed {
		return
	}
	l.out.discard = true
	_, err := l.w.Write(l.pending)
	l.out.discard = false
	if err != nil {
		l.failed = true
	}
	if cap(l.pending) > 4*skipBatch {
		l.pending = nil
	} else {
		l.pending = l.pending[:0]
	}
}

// Settled reports whether the lines given so far leave nothing open that
// the redaction of a later line depends on: no block (the Writer's state
// is a new Writer's), no after-cut rule still masking, no failure. From
// such a point a Lines from NewLines fed the next line and every line
// after it gives each of them exactly as l does, so a caller may note
// the point and later start a window's pass there instead of at the
// stream's start (internal/app's outbound pass does). It writes the
// skipped lines l holds first: ask every few dozen KiB of skipped lines,
// not every line.
func (l *Lines) Settled() bool {
	l.flushSkipped()
	return !l.failed && !l.afterCut && l.w.settled()
}

// Failed reports whether redaction has failed: every line from then on
// is the failure marker.
func (l *Lines) Failed() bool { return l.failed }

// Close releases the Writer behind l.
func (l *Lines) Close() error {
	l.out.discard = true
	l.pending = l.pending[:0]
	return l.w.Close()
}

// cutRule applies the after-cut rule to the next line: its masked form
// when the rule masks it. The rule ends at the first line it does not
// mask.
func (l *Lines) cutRule(text []byte) ([]byte, bool) {
	if !l.afterCut {
		return nil, false
	}
	first := l.seen == 0
	l.seen++
	mask, ok := maskAfterCut(text, first)
	if !ok {
		l.afterCut = false
	}
	return mask, ok
}

// maskAfterCut returns the masked form of a line that could be the inside
// of a block a cut left open (see NewLinesAfterCut).
func maskAfterCut(line []byte, first bool) ([]byte, bool) {
	ind := indentation(line)
	c := bytes.TrimRight(line[len(ind):], " \t\r")
	if len(c) == 0 {
		return nil, false
	}
	// a body line: base64 alone, maybe quoted, maybe ending a string
	// continued on the next line (\) or an array element (,)
	body := c
	if body[0] == '"' || body[0] == '\'' {
		body = body[1:]
	}
	body = bytes.TrimRight(body, "\"',\\")
	if len(body) > 0 && (first || len(body) >= 16) && allBase64(body) {
		return append(append([]byte(nil), ind...), DroppedLine...), true
	}
	// an entry of a data block: key: value or "key": "value",
	if len(ind) == 0 && !first {
		return nil, false // entries of a block are indented
	}
	i := len(ind)
	end := len(ind) + len(c)
	quoted := line[i] == '"'
	if quoted {
		i++
	}
	k := i
	for i < end && isKeyByte(line[i]) {
		i++
	}
	if i == k {
		return nil, false
	}
	if quoted {
		if i >= end || line[i] != '"' {
			return nil, false
		}
		i++
	}
	if i+1 >= end || line[i] != ':' || (line[i+1] != ' ' && line[i+1] != '\t') {
		return nil, false
	}
	i++
	for i < end && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	vs, ve := i, end
	if ve > vs && line[ve-1] == ',' {
		ve--
	}
	if ve-vs >= 2 && (line[vs] == '"' || line[vs] == '\'') && line[ve-1] == line[vs] {
		vs, ve = vs+1, ve-1
	}
	v := line[vs:ve]
	if len(v) == 0 || bytes.ContainsAny(v, " \t") || bytes.IndexByte([]byte("|>{[&*!#"), v[0]) >= 0 {
		return nil, false
	}
	out := make([]byte, 0, len(line)+len(kubeMarker))
	out = append(out, line[:vs]...)
	out = append(out, kubeMarker...)
	out = append(out, line[ve:]...)
	return out, true
}

func indentation(line []byte) []byte {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[:i]
}

func allBase64(b []byte) bool {
	for _, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return true
}

func isKeyByte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}
