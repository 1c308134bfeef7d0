package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/record"
)

// ReadIn is the read tool's input.
type ReadIn struct {
	Ref     string `json:"ref" jsonschema:"the recording: SESSION/NAME as rac printed it, or within the session a number, a name prefix or last"`
	Stream  string `json:"stream,omitempty" jsonschema:"stdout, stderr or combined; default: the only stream with output, else both in arrival order"`
	Head    int64  `json:"head,omitempty" jsonschema:"the first N lines"`
	Tail    int64  `json:"tail,omitempty" jsonschema:"the last N lines (the default is tail 80 when neither head, tail nor lines is given)"`
	Lines   string `json:"lines,omitempty" jsonschema:"a line range A:B (from 1, inclusive), A: to the end, or one line A; line numbers are the stream's, as grep reports them"`
	Session string `json:"session,omitempty" jsonschema:"the session a short ref is looked up in; default: this conversation's"`
}

// ReadOut is the read tool's structured result.
type ReadOut struct {
	Ref    string `json:"ref" jsonschema:"the qualified reference"`
	Stream string `json:"stream" jsonschema:"the stream read; empty when both streams came in arrival order"`
	// StreamLines is how many lines the stream holds (0 when both).
	StreamLines int64          `json:"stream_lines" jsonschema:"how many lines the stream holds (0 when both streams were read)"`
	Status      string         `json:"status" jsonschema:"running, exited, signaled, timed_out, cancelled, failed_to_start or incomplete; for a recorded stream (rac record) also stream_ended, transport_error or cancelled"`
	Lines       []app.ReadLine `json:"lines" jsonschema:"the lines shown; a marker line is rac's note where the recording itself was cut"`
	Cut         []string       `json:"cut" jsonschema:"every cut this result made, empty when none"`
	Next        *NextRange     `json:"next,omitempty" jsonschema:"the range to ask for next to see what this result left out"`
	Notes       []string       `json:"notes" jsonschema:"what a reader should know about the recording (still running, cut when recorded, ...)"`
}

// NextRange is the read call that shows what a result left out.
type NextRange struct {
	Ref    string `json:"ref"`
	Stream string `json:"stream,omitempty"`
	Lines  string `json:"lines"`
}

// Limits of one read: beyond them no result could hold the lines anyway.
const (
	defaultTail = 80
	// maxLines bounds head and tail: a ring of that many lines is what a
	// tail of both streams holds while it reads.
	maxLines = 10_000
	// lineCost is the least one line costs (its number and JSON fields).
	lineCost = 48
)

var errHugeRange = errors.New("huge range")

// checkRead checks a read's arguments: a reference, at most one of head,
// tail and lines, and a bounded number of lines. With none of them it asks
// for the default tail.
func (s *Server) checkRead(in *ReadIn) error {
	if err := checkRef(in.Ref); err != nil {
		return err
	}
	set := 0
	for _, b := range []bool{in.Head != 0, in.Tail != 0, in.Lines != ""} {
		if b {
			set++
		}
	}
	switch {
	case set > 1:
		return app.Usagef("give one of head, tail and lines")
	case in.Head < 0 || in.Tail < 0:
		return app.Usagef("head and tail take a number of lines from 1")
	case in.Head > maxLines || in.Tail > maxLines:
		return fmt.Errorf("%w: at most %d lines per call (a result holds at most %d bytes); ask for a range with lines A:B and page on", errHugeRange, maxLines, s.o.Budget)
	case set == 0:
		in.Tail = defaultTail
	}
	return nil
}

func (s *Server) read(ctx context.Context, _ *mcp.CallToolRequest, in ReadIn) (*mcp.CallToolResult, ReadOut, error) {
	if err := s.checkRead(&in); err != nil {
		return nil, ReadOut{}, s.toolError(err)
	}
	c, err := s.appFor(in.Session, in.Ref)
	if err != nil {
		return nil, ReadOut{}, s.toolError(err)
	}
	budget := int(s.o.Budget)
	// one line may take at most a quarter of the budget (its text counts
	// twice, in the text and in the structured content), so that a single
	// huge line still shows its start and the header and cuts still fit
	maxText := max(64, (budget-1024)/4)
	var lines []app.ReadLine
	var more []int    // bytes left out of each line
	var early dropped // the start of a tail, dropped while it was read
	cost := 0
	full := false
	req := app.ReadRequest{Ref: in.Ref, Stream: in.Stream, Head: in.Head, Tail: in.Tail, Lines: in.Lines}
	info, err := c.ReadLines(ctx, req, maxText, func(l app.ReadLine, m int) error {
		lc := lineCost + 2*len(l.Text)
		if in.Tail == 0 && cost+lc > budget {
			// a head or a range ends here: what follows is the next range
			full = true
			lines = append(lines, l)
			more = append(more, m)
			return record.ErrStop
		}
		lines = append(lines, l)
		more = append(more, m)
		cost += lc
		for in.Tail > 0 && cost > budget && len(lines) > 1 {
			// a tail keeps its end: drop from the front as it grows
			cost -= lineCost + 2*len(lines[0].Text)
			early.drop(lines[0])
			lines, more = lines[1:], more[1:]
		}
		return nil
	})
	if err != nil {
		return nil, ReadOut{}, s.toolError(s.elsewhereErr(c, err))
	}
	total := len(lines)
	build := func(k int, fromFront bool) (string, any) {
		out := readOut(info, c.notes, in, lines, more, early, total, k, fromFront)
		return readText(out), out
	}
	// a tail drops from its front, a head or range from its end
	n := total
	if full {
		n-- // the line that did not fit was kept only to name the next range
	}
	keep := fit(n, budget, in.Tail > 0, build)
	text, out := build(keep, in.Tail > 0)
	return textResult(text), out.(ReadOut), nil
}

// readOut builds the result showing keep of the lines read, dropping from
// the front (a tail) or the end (a head or range), with its cuts stated.
func readOut(info app.LinesInfo, notes []string, in ReadIn, lines []app.ReadLine, more []int, early dropped, total, keep int, fromFront bool) ReadOut {
	out := ReadOut{Ref: info.Ref, Stream: info.Stream, StreamLines: info.Lines, Status: info.Status, Cut: []string{}, Notes: append([]string{}, notes...)}
	shown, shownMore := lines[:keep], more[:keep]
	var dropped []app.ReadLine
	if fromFront {
		shown, shownMore = lines[total-keep:], more[total-keep:]
		dropped = lines[:total-keep]
	} else {
		dropped = lines[keep:]
	}
	out.Lines = append([]app.ReadLine{}, shown...)
	for i, m := range shownMore {
		if m > 0 {
			out.Cut = append(out.Cut, fmt.Sprintf("line %d of %s cut: %d more bytes not shown ('rac out read --raw' has them all)", shown[i].Line, shown[i].Stream, m))
		}
	}
	if fromFront {
		for _, l := range dropped {
			early.drop(l)
		}
		if early.n > 0 {
			out.Cut = append(out.Cut, fmt.Sprintf("budget: the first %d lines of the tail not shown", early.n))
			out.Next = &NextRange{Ref: info.Ref, Stream: early.first.Stream, Lines: fmt.Sprintf("%d:%d", early.first.Line, early.last)}
		}
	} else if d := firstLine(dropped); d != nil {
		out.Cut = append(out.Cut, fmt.Sprintf("budget: the result ends before line %d of %s", d.Line, d.Stream))
		out.Next = &NextRange{Ref: info.Ref, Stream: d.Stream, Lines: nextFrom(d.Line, in)}
	}
	return out
}

// nextFrom is the range after a cut at line n: to the end of the range
// asked for.
func nextFrom(n int64, in ReadIn) string {
	if in.Lines != "" {
		if _, b, ok := strings.Cut(in.Lines, ":"); ok && b != "" {
			return fmt.Sprintf("%d:%s", n, b)
		}
	}
	if in.Head > 0 {
		return fmt.Sprintf("%d:%d", n, in.Head)
	}
	return strconv.FormatInt(n, 10) + ":"
}

func firstLine(ls []app.ReadLine) *app.ReadLine {
	for i := range ls {
		if !ls[i].Marker {
			return &ls[i]
		}
	}
	return nil
}

// dropped counts the lines left out of the start of a tail: the first
// names the next range, the last of its stream ends it.
type dropped struct {
	n     int
	first app.ReadLine
	last  int64
}

func (d *dropped) drop(l app.ReadLine) {
	if l.Marker {
		return
	}
	if d.n == 0 {
		d.first = l
	}
	d.n++
	if l.Stream == d.first.Stream {
		d.last = l.Line
	}
}

// readText is what a model reads: a header, the lines numbered as grep
// and the lines argument number them, and every cut.
func readText(o ReadOut) string {
	var b strings.Builder
	what := o.Stream
	if what == "" {
		what = "stdout and stderr"
	}
	fmt.Fprintf(&b, "%s %s (%s)", o.Ref, what, o.Status)
	if o.StreamLines > 0 {
		fmt.Fprintf(&b, ", %d lines", o.StreamLines)
	}
	b.WriteString(":\n")
	for _, l := range o.Lines {
		switch {
		case l.Marker:
			fmt.Fprintf(&b, "%s\n", l.Text)
		case o.Stream == "":
			fmt.Fprintf(&b, "%s:%d: %s\n", l.Stream, l.Line, l.Text)
		default:
			fmt.Fprintf(&b, "%d: %s\n", l.Line, l.Text)
		}
		if l.Cut {
			fmt.Fprintf(&b, "%s\n", app.CutLineMarker(l.Line, l.Stream))
		}
	}
	if len(o.Lines) == 0 {
		b.WriteString("(no lines)\n")
	}
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "rac: %s\n", n)
	}
	for _, c := range o.Cut {
		fmt.Fprintf(&b, "rac: cut: %s\n", c)
	}
	if n := o.Next; n != nil {
		fmt.Fprintf(&b, "rac: next: read ref=%s stream=%s lines=%s\n", n.Ref, n.Stream, n.Lines)
	}
	return b.String()
}
