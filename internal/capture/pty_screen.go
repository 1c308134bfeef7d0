package capture

import (
	"bytes"
	"fmt"
	"io"
)

// screenFilter leaves full-screen spans out of the stored stream: from a
// switch to the alternate screen (ESC[?1049h, ?1047h, ?47h) to the switch
// back. What a pager or an editor draws there is a picture, not lines: it
// would only be noise for grep and read. The span becomes one marker line
// with its size. It works on any split of the stream: an escape sequence
// cut by a read boundary is held until it is complete.
type screenFilter struct {
	dst    io.Writer
	closer io.Closer // the filter behind dst, closed by Close; nil: none

	inAlt   bool
	buf     []byte // reused for what one Write stores
	pending []byte // the start of an escape sequence not yet decided
	omitted int64  // bytes of the span in progress
	total   int64  // bytes omitted over all spans
	spans   int
	lastNL  bool // the last byte stored ended a line (or nothing is stored yet)
	err     error
}

func newScreenFilter(dst io.Writer, closer io.Closer) *screenFilter {
	return &screenFilter{dst: dst, closer: closer, lastNL: true}
}

// maxCSI bounds a private-mode sequence worth holding: ESC [ ? and a few
// parameters; a longer one is passed on as it is.
const maxCSI = 32

// OmittedMarker is the line standing in for a full-screen span.
func OmittedMarker(n int64) string {
	return fmt.Sprintf("[rac: full-screen output omitted: %d bytes]", n)
}

func (f *screenFilter) Write(p []byte) (int, error) {
	if len(f.pending) == 0 && !f.inAlt && bytes.IndexByte(p, 0x1b) < 0 {
		b := p
		f.store(&b) // most output: nothing to look at
		return len(p), nil
	}
	out := f.buf[:0] // what to store of p, in one write
	start := 0       // p[start:i] is output not yet stored or omitted
	flush := func(end int) {
		if end > start {
			if f.inAlt {
				f.omitted += int64(end - start)
			} else {
				out = append(out, p[start:end]...)
			}
		}
		start = end
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if len(f.pending) == 0 {
			if c == 0x1b {
				flush(i)
				start = i + 1
				f.pending = append(f.pending, c)
			}
			continue
		}
		f.pending = append(f.pending, c)
		start = i + 1
		if mode, done := parsePrivateMode(f.pending); done {
			f.endSequence(mode, c, &out)
		}
	}
	flush(len(p))
	f.store(&out)
	f.buf = out[:0]
	return len(p), nil
}

// endSequence acts on the sequence f.pending completes (c its last byte):
// it enters or leaves a full-screen span, or it is ordinary output (or
// more of the span), kept in out or omitted.
func (f *screenFilter) endSequence(mode int, c byte, out *[]byte) {
	switch {
	case mode == modeEnter && !f.inAlt:
		f.store(out)
		f.inAlt = true
		f.omitted = int64(len(f.pending))
		f.pending = f.pending[:0]
	case mode == modeLeave && f.inAlt:
		f.omitted += int64(len(f.pending))
		f.pending = f.pending[:0]
		f.inAlt = false
		f.endSpan(out)
	default:
		// no switch: an ESC that ended it may start the next sequence
		keep := 0
		if c == 0x1b {
			keep = 1
		}
		seq := f.pending[:len(f.pending)-keep]
		if f.inAlt {
			f.omitted += int64(len(seq))
		} else {
			*out = append(*out, seq...)
		}
		f.pending = append(f.pending[:0], f.pending[len(f.pending)-keep:]...)
	}
}

// store writes out to dst (keeping the first error) and empties it.
func (f *screenFilter) store(out *[]byte) {
	b := *out
	if len(b) == 0 {
		return
	}
	if f.err == nil {
		_, f.err = f.dst.Write(b)
	}
	f.lastNL = b[len(b)-1] == '\n'
	*out = b[:0]
}

// endSpan puts the marker line where the span was, on a line of its own.
func (f *screenFilter) endSpan(out *[]byte) {
	f.store(out)
	m := OmittedMarker(f.omitted) + "\r\n"
	if !f.lastNL {
		m = "\r\n" + m
	}
	b := []byte(m)
	f.store(&b)
	f.total += f.omitted
	f.spans++
	f.omitted = 0
}

// Close ends a span the command never left (it was killed) and passes on
// an escape sequence cut short by the end of the output.
func (f *screenFilter) Close() error {
	if f.inAlt {
		f.omitted += int64(len(f.pending))
		f.pending = nil
		f.inAlt = false
		var none []byte
		f.endSpan(&none)
	} else if len(f.pending) > 0 {
		b := f.pending
		f.pending = nil
		f.store(&b)
	}
	err := f.err
	if f.closer != nil {
		if cerr := f.closer.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// note says what was left out, for the outcome's notes; "" if nothing.
func (f *screenFilter) note() string {
	if f.spans == 0 {
		return ""
	}
	s := "s"
	if f.spans == 1 {
		s = ""
	}
	return fmt.Sprintf("full-screen output omitted from the recording: %d bytes in %d span%s", f.total, f.spans, s)
}

const (
	modeOther = iota
	modeEnter
	modeLeave
)

// parsePrivateMode looks at b, which starts with ESC: done is false while
// b may still become a DEC private mode set or reset (ESC [ ? Pm h/l);
// once done, mode says whether it switches to or from the alternate
// screen.
func parsePrivateMode(b []byte) (mode int, done bool) {
	if len(b) < 2 {
		return modeOther, false
	}
	if b[1] != '[' {
		return modeOther, true
	}
	if len(b) < 3 {
		return modeOther, false
	}
	if b[2] != '?' {
		return modeOther, true
	}
	alt := false
	param := 0
	digits := 0
	for _, c := range b[3:] {
		switch {
		case c >= '0' && c <= '9':
			if digits < 6 {
				param = param*10 + int(c-'0')
			}
			digits++
		case c == ';':
			alt = alt || isAltParam(param, digits)
			param, digits = 0, 0
		case c == 'h' || c == 'l':
			alt = alt || isAltParam(param, digits)
			switch {
			case !alt:
				return modeOther, true
			case c == 'h':
				return modeEnter, true
			default:
				return modeLeave, true
			}
		default:
			return modeOther, true
		}
	}
	if len(b) >= maxCSI {
		return modeOther, true
	}
	return modeOther, false
}

func isAltParam(p, digits int) bool {
	return digits > 0 && digits < 6 && (p == 1049 || p == 1047 || p == 47)
}
