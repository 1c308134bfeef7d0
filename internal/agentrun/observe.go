package agentrun

import (
	"bytes"
	"io"
)

// MaxFrame is the longest frame decoded; a longer line counts as unparsed
// (a call whose result it was stays unpaired: the digest says the tools
// are not complete).
const MaxFrame = 16 << 20

// splitter cuts what it is written into lines and hands each whole line,
// without its newline, to fn with its number; a line longer than MaxFrame
// is handed on as nil.
type splitter struct {
	fn   func(n int64, line []byte)
	buf  []byte
	n    int64 // the number of the line being gathered, less one
	long bool  // the line being gathered outgrew MaxFrame
}

func (s *splitter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if !s.long {
			if len(s.buf)+len(part) > MaxFrame {
				s.long, s.buf = true, s.buf[:0]
			} else {
				s.buf = append(s.buf, part...)
			}
		}
		if i < 0 {
			break
		}
		s.emit()
		p = p[i+1:]
	}
	return total, nil
}

func (s *splitter) emit() {
	s.n++
	if s.long {
		s.fn(s.n, nil)
	} else {
		s.fn(s.n, s.buf)
	}
	s.buf, s.long = s.buf[:0], false
}

// flush hands on a last line without a newline.
func (s *splitter) flush() {
	if len(s.buf) > 0 || s.long {
		s.emit()
	}
}

// feed hands a line to the decoder; nil is a line too long to decode.
func (dec *Decoder) feed(n int64, line []byte) {
	if line == nil {
		dec.line = n
		dec.d.Frames.Unparsed++
		dec.d.Tools.Complete = false
		return
	}
	dec.Frame(n, line)
}

// Read decodes a stored stream: first is the number of the first line r
// holds less one (the lines before a recording's cut), so each call's
// line is the stream line rac out read takes. It returns what it read:
// bytes and lines (a last line without a newline counts).
func (dec *Decoder) Read(r io.Reader, first int64) (bytes, lines int64, err error) {
	return EachFrame(r, first, dec.feed)
}

// EachFrame calls fn with each line of r and its number (first is the
// number before r's first line); a line longer than MaxFrame is handed on
// as nil. It returns the bytes and lines read.
func EachFrame(r io.Reader, first int64, fn func(n int64, line []byte)) (bytes, lines int64, err error) {
	s := &splitter{fn: fn, n: first}
	bytes, err = io.CopyBuffer(s, r, make([]byte, 64<<10))
	s.flush()
	return bytes, s.n - first, err
}

// Observer watches a stream as it is stored: it decides from the first
// frames whether it is a transcript (Sniff) and, when it is, decodes it
// as it comes. For any other stream it holds at most DetectBytes and
// then only counts.
type Observer struct {
	opt     Options
	head    []byte
	sniff   sniffer
	decided bool
	dec     *Decoder
	split   *splitter
}

// NewObserver watches a stream; opt is the decoder's.
func NewObserver(opt Options) *Observer { return &Observer{opt: opt} }

// NewObserverOf watches the continuation of a stream already recognised as
// f (an append to a recording): it decodes from the first byte.
func NewObserverOf(f Format, opt Options) *Observer {
	o := &Observer{opt: opt}
	o.sniff.decided, o.sniff.ok, o.sniff.f = true, true, f
	o.decide()
	return o
}

// Write never fails: watching must not break a recording.
func (o *Observer) Write(p []byte) (int, error) {
	switch {
	case o.dec != nil:
		return o.split.Write(p)
	case o.decided:
		return len(p), nil
	}
	o.head = append(o.head, p...)
	if o.sniff.feed(o.head, false) {
		o.decide()
	}
	return len(p), nil
}

// decide starts decoding what was held, when it is a transcript, and
// lets it go.
func (o *Observer) decide() {
	o.decided = true
	head := o.head
	o.head = nil
	if o.sniff.ok {
		o.dec = NewDecoder(o.sniff.f, o.opt)
		o.split = &splitter{fn: o.dec.feed}
		_, _ = o.split.Write(head)
	}
}

// Digest is the digest of what was written (the last line need not end
// in a newline); nil when the stream is not a transcript.
func (o *Observer) Digest(failed bool) *Digest {
	if !o.decided {
		o.sniff.feed(o.head, true)
		o.decide()
	}
	if o.dec == nil {
		return nil
	}
	o.split.flush()
	return o.dec.Digest("", failed)
}
