package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/rac-cli/rac/internal/redact"
)

// chunkSize is how many bytes of whole lines go to the Writer in one
// Write. One Write per line would be exact but slow (the engine's set-up
// per call costs more than a short line); a chunk whose output equals its
// input, nearly all of them, needs no look at its lines at all.
const chunkSize = 256 << 10

// lineSink collects what the Writer writes for one chunk. With one worker
// the Writer has written every complete line's redaction when Write
// returns, so the sink holds exactly the chunk's output.
type lineSink struct{ b []byte }

func (s *lineSink) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

// span is one replaced stretch of an input line and the rule its marker
// names.
type span struct {
	start, end int
	rule       string
}

// streamScanner redacts one stream after another; it belongs to one worker.
type streamScanner struct {
	red   *redact.Redactor
	res   *results
	sink  lineSink
	chunk []byte
	long  []byte
}

// scan feeds one stream through a fresh Writer (each stream is one
// command's output: no PEM or data: block crosses from one to the next)
// and records every hit. It returns the bytes it read.
func (sc *streamScanner) scan(it *item, r io.Reader) (int64, error) {
	defer sc.res.finishStream()
	// a stream that failed part-way left its chunk behind
	sc.chunk, sc.sink.b = sc.chunk[:0], sc.sink.b[:0]
	w := sc.red.NewWriterOptions(&sc.sink, redact.WriterOptions{Workers: 1})
	st := &streamState{it: it, file: it.name}
	br := bufio.NewReaderSize(r, 64<<10)
	var total int64
	for {
		line, err := sc.readLine(br)
		total += int64(len(line))
		sc.chunk = append(sc.chunk, line...)
		last := err != nil
		if len(sc.chunk) >= chunkSize || (last && len(sc.chunk) > 0) {
			if werr := sc.flush(w, st, last); werr != nil {
				return total, werr
			}
		}
		if last {
			if errors.Is(err, io.EOF) {
				break
			}
			return total, err
		}
	}
	sc.sink.b = sc.sink.b[:0]
	if err := w.Close(); err != nil {
		return total, err
	}
	if len(sc.sink.b) > 0 {
		return total, fmt.Errorf("%s: %d bytes of output after the last line", it.name, len(sc.sink.b))
	}
	sc.res.addCounts(w.Counts())
	return total, nil
}

// readLine returns the next line with its newline; a line longer than the
// reader's buffer is gathered in sc.long.
func (sc *streamScanner) readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return line, err
	}
	sc.long = append(sc.long[:0], line...)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = br.ReadSlice('\n')
		sc.long = append(sc.long, line...)
	}
	return sc.long, err
}

// flush writes the chunk and compares what came out with what went in.
// last closes the Writer's held partial line (a stream without a final
// newline).
func (sc *streamScanner) flush(w *redact.Writer, st *streamState, last bool) error {
	sc.sink.b = sc.sink.b[:0]
	if _, err := w.Write(sc.chunk); err != nil {
		return err
	}
	if last && sc.chunk[len(sc.chunk)-1] != '\n' {
		if err := w.Close(); err != nil {
			return err
		}
	}
	if !bytes.Equal(sc.sink.b, sc.chunk) {
		sc.alignChunk(st, sc.chunk, sc.sink.b)
	} else {
		st.track(sc.chunk)
	}
	st.line += bytes.Count(sc.chunk, []byte{'\n'})
	sc.chunk = sc.chunk[:0]
	return nil
}

// streamState follows a stream's position, and in a git log -p the file
// each diff belongs to, so a hit can be judged by where it sits.
type streamState struct {
	it   *item
	line int // lines before the current chunk
	file string
}

// track notes the file of every diff header in lines (git log -p only).
func (st *streamState) track(lines []byte) {
	if !st.it.gitlog {
		return
	}
	for len(lines) > 0 {
		i := bytes.IndexByte(lines, '\n')
		l := lines
		if i >= 0 {
			l, lines = lines[:i], lines[i+1:]
		} else {
			lines = nil
		}
		st.trackLine(l)
	}
}

func (st *streamState) trackLine(l []byte) {
	if st.it.gitlog && bytes.HasPrefix(l, []byte("diff --git a/")) {
		if i := bytes.LastIndex(l, []byte(" b/")); i >= 0 {
			st.file = string(l[i+3:])
		}
	}
}

// alignChunk pairs input and output lines. The output is the input with
// spans replaced by markers, except that a private key's body lines after
// the first have no output line at all; an input line that neither equals
// nor matches the next output line is such a dropped line.
func (sc *streamScanner) alignChunk(st *streamState, in, out []byte) {
	inLines := splitLines(in)
	outLines := splitLines(out)
	o := 0
	for i, l := range inLines {
		st.trackLine(l)
		lineNo := st.line + i + 1
		if o < len(outLines) && bytes.Equal(l, outLines[o]) {
			o++
			continue
		}
		if o < len(outLines) {
			if spans, ok := alignLine(l, outLines[o]); ok {
				for n, s := range spans {
					sc.res.addHit(st, lineNo, n, l, s)
				}
				o++
				continue
			}
		}
		sc.res.addDropped()
	}
	sc.res.addUnaligned(len(outLines) - o)
}

// splitLines splits at newlines, dropping them; a final partial line is
// kept.
func splitLines(b []byte) [][]byte {
	var ls [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			ls = append(ls, b)
			break
		}
		ls = append(ls, b[:i])
		b = b[i+1:]
	}
	return ls
}

// seg is a piece of an output line: literal text, or a marker (rule set).
type seg struct {
	text []byte
	rule string
}

var markerOpen = []byte("[REDACTED:")

// segments cuts an output line into literals and markers.
func segments(out []byte) []seg {
	var segs []seg
	lit := 0
	for i := 0; i < len(out); {
		j := bytes.Index(out[i:], markerOpen)
		if j < 0 {
			break
		}
		j += i
		k := j + len(markerOpen)
		for k < len(out) && k-j < 120 && isMarkerByte(out[k]) {
			k++
		}
		if k == j+len(markerOpen) || k >= len(out) || out[k] != ']' {
			i = j + 1
			continue
		}
		if j > lit {
			segs = append(segs, seg{text: out[lit:j]})
		}
		segs = append(segs, seg{text: out[j : k+1], rule: string(out[j+len(markerOpen) : k])})
		lit = k + 1
		i = lit
	}
	if lit < len(out) {
		segs = append(segs, seg{text: out[lit:]})
	}
	return segs
}

func isMarkerByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
}

// alignBudget bounds the backtracking of one line's alignment.
const alignBudget = 200000

// alignLine recovers the spans of in that out's markers replaced. A marker
// whose text stands in the input itself is a literal, not a hit. Between
// markers the literal text must match exactly; where it occurs more than
// once the earliest place that lets the rest of the line match is taken.
func alignLine(in, out []byte) ([]span, bool) {
	segs := segments(out)
	budget := alignBudget
	spans, ok := alignFrom(in, 0, segs, nil, &budget)
	return spans, ok && len(spans) > 0
}

func alignFrom(in []byte, pos int, segs []seg, acc []span, budget *int) ([]span, bool) {
	*budget--
	if *budget < 0 {
		return nil, false
	}
	if len(segs) == 0 {
		return acc, pos == len(in)
	}
	s := segs[0]
	if bytes.HasPrefix(in[pos:], s.text) {
		if r, ok := alignFrom(in, pos+len(s.text), segs[1:], acc, budget); ok {
			return r, true
		}
	}
	if s.rule == "" {
		return nil, false
	}
	rest := segs[1:]
	try := func(j int) ([]span, bool) {
		return alignFrom(in, j, rest, append(acc[:len(acc):len(acc)], span{pos, j, s.rule}), budget)
	}
	switch {
	case len(rest) == 0:
		if len(in) > pos {
			return try(len(in))
		}
	case rest[0].rule == "":
		for from := pos + 1; from <= len(in); {
			k := bytes.Index(in[from:], rest[0].text)
			if k < 0 {
				break
			}
			if r, ok := try(from + k); ok {
				return r, true
			}
			from += k + 1
		}
	default:
		for j := pos + 1; j <= len(in); j++ {
			if r, ok := try(j); ok {
				return r, true
			}
		}
	}
	return nil, false
}
