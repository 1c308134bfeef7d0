package app

import (
	"bytes"
	"fmt"

	"github.com/rac-cli/rac/internal/termtext"
)

// SummaryLineCap is the longest line a summary shows whole; a longer one
// is cut in the middle and says how long it was.
const SummaryLineCap = 512

// Collector keeps what a compact summary of one stream needs, in bounded
// memory whatever the output: the first n lines and a ring of the last n
// lines, each at most SummaryLineCap bytes (plus the two ends of a longer
// line).
type Collector struct {
	n     int
	head  []string
	ring  []string
	at    int // next slot of the ring once full
	lines int64
	cur   lineCut
}

// lineCut accumulates one line: whole while short, else its two ends.
type lineCut struct {
	n     int64
	start []byte // first half
	end   []byte // last bytes seen (trimmed to half)
}

func (c *lineCut) add(b []byte) {
	half := SummaryLineCap / 2
	c.n += int64(len(b))
	if len(c.start) < SummaryLineCap+1 && c.end == nil {
		room := SummaryLineCap + 1 - len(c.start)
		take := min(room, len(b))
		c.start = append(c.start, b[:take]...)
		b = b[take:]
		if len(c.start) <= SummaryLineCap {
			return
		}
		// too long: keep the first half, and the rest as the end
		c.end = append(c.end, c.start[half:]...)
		c.start = c.start[:half]
	}
	c.end = append(c.end, b...)
	if len(c.end) > 4*half {
		c.end = append(c.end[:0], c.end[len(c.end)-half:]...)
	}
}

func (c *lineCut) text() string {
	if c.end == nil {
		return string(termtext.CleanLine(c.start))
	}
	end := c.end
	if len(end) > SummaryLineCap/2 {
		end = end[len(end)-SummaryLineCap/2:]
	}
	return fmt.Sprintf("%s … [%d bytes] … %s", termtext.CleanLine(c.start), c.n, termtext.CleanLine(end))
}

func (c *lineCut) reset() { c.n, c.start, c.end = 0, c.start[:0], nil }

// NewCollector keeps the first and the last n lines.
func NewCollector(n int) *Collector { return &Collector{n: n} }

// Write takes the stream's bytes in order.
func (c *Collector) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.cur.add(p)
			break
		}
		c.cur.add(p[:i])
		c.endLine()
		p = p[i+1:]
	}
	return n, nil
}

func (c *Collector) endLine() {
	t := c.cur.text()
	c.lines++
	if len(c.head) < c.n {
		c.head = append(c.head, t)
	}
	if len(c.ring) < c.n {
		c.ring = append(c.ring, t)
	} else if c.n > 0 {
		c.ring[c.at] = t
		c.at = (c.at + 1) % c.n
	}
	c.cur.reset()
}

// last returns the last k lines (k at most n).
func (c *Collector) last(k int) []string {
	ordered := append(append([]string(nil), c.ring[c.at:]...), c.ring[:c.at]...)
	return ordered[len(ordered)-min(k, len(ordered)):]
}

// Close ends a last line without a newline.
func (c *Collector) Close() error {
	if c.cur.n > 0 {
		c.endLine()
	}
	return nil
}

// Lines is the number of lines seen.
func (c *Collector) Lines() int64 { return c.lines }

// window returns h first and t last lines and how many lines lie
// between them; all lines when there are no more than h+t.
func (c *Collector) window(h, t int) (shown []string, skipped int64, at int) {
	if c.lines <= int64(h+t) {
		return c.last(int(c.lines)), 0, -1
	}
	shown = append(append(shown, c.head[:min(h, len(c.head))]...), c.last(t)...)
	return shown, c.lines - int64(h) - int64(t), min(h, len(c.head))
}

// SummaryStream is one stream's part of a summary.
type SummaryStream struct {
	Name   string
	Lines  int64
	Bytes  int64
	Output *Collector
}

// SummaryInput is what a compact summary shows.
type SummaryInput struct {
	Command, Outcome string
	// Cause is explain's cause block (explain.Report.CauseBlock): its
	// header, then its lines, shown indented; nil for none.
	Cause   []string
	Streams []SummaryStream
	// Head and Tail are the lines of each window (see Summary).
	Head, Tail int
	// More is the line that says how to read more ("" for none), Last
	// the reference line.
	More, Last string
}

// Summary renders the compact summary: the command, the outcome, the
// cause block when there is one, each non-empty stream with its counts
// and a head/tail window, the line that says how to read more, and the
// reference line last. With one non-empty stream the windows are Head
// and Tail lines; with two, the Head+Tail content lines (markers
// included) are shared: each stream gets half, and a stream that needs
// fewer lines gives the rest to the other.
func Summary(in SummaryInput) []string {
	streams, headN, tailN := in.Streams, in.Head, in.Tail
	out := []string{"exec " + in.Command, in.Outcome}
	for i, l := range in.Cause {
		if i > 0 {
			l = "  " + l
		}
		out = append(out, l)
	}
	var nonEmpty []SummaryStream
	for _, s := range streams {
		if s.Bytes > 0 || s.Lines > 0 {
			nonEmpty = append(nonEmpty, s)
		}
	}
	budgets := make([]int, len(nonEmpty))
	switch len(nonEmpty) {
	case 1:
		budgets[0] = headN + tailN + 1 // the marker is extra with one stream
	case 2:
		total := headN + tailN
		need := func(s SummaryStream) int { return int(min(s.Output.Lines(), int64(total))) }
		a := total / 2
		b := total - a
		if n := need(nonEmpty[0]); n < a {
			a, b = n, total-n
		} else if n := need(nonEmpty[1]); n < b {
			a, b = total-n, n
		}
		budgets[0], budgets[1] = a, b
	}
	for i, s := range nonEmpty {
		out = append(out, fmt.Sprintf("%s: (%d lines, %d bytes)", s.Name, s.Lines, s.Bytes))
		h, t := headN, tailN
		if len(nonEmpty) == 2 {
			// a shared budget holds a skipped-lines marker too
			// with no budget at all (--summary-head 0 --summary-tail 0)
			// nothing is shown, never a negative window
			h = max((budgets[i]-1)/2, 0)
			t = max(budgets[i]-1-h, 0)
			if s.Output.Lines() <= int64(budgets[i]) {
				h, t = budgets[i], 0
			}
		}
		shown, skipped, at := s.Output.window(h, t)
		out = appendWindow(out, shown, skipped, at)
	}
	if in.More != "" {
		out = append(out, in.More)
	}
	return append(out, in.Last)
}

// summaryLeavesOut reports whether windows of head and tail lines leave
// lines of the streams out.
func summaryLeavesOut(streams []SummaryStream, head, tail int) bool {
	var n int64
	for _, s := range streams {
		n += s.Output.Lines()
	}
	return n > int64(head+tail)
}

func appendWindow(out, shown []string, skipped int64, at int) []string {
	for i, l := range shown {
		if i == at {
			out = append(out, fmt.Sprintf("  ... (%d lines truncated)", skipped))
		}
		out = append(out, "  "+l)
	}
	if at == len(shown) && skipped > 0 {
		out = append(out, fmt.Sprintf("  ... (%d lines truncated)", skipped))
	}
	return out
}
