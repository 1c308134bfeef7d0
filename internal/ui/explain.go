package ui

// rac out explain's text, coloured.

import (
	"bytes"
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/explain"
)

// Explain writes the report as explain.Report.WriteText does (the one
// rendering of its text) and, with c's colour on, paints it: the command
// bold, the outcome by how it went (red failed, green exit 0, yellow
// running, magenta incomplete), the header bold, each shown line's
// STREAM:LINE: location cyan and, for cause lines, their text red. With
// colour off the bytes are WriteText's exactly.
func Explain(w io.Writer, c *Palette, r *explain.Report) error {
	if !c.Enabled() {
		return r.WriteText(w)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		return err
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	var b strings.Builder
	for i, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		switch {
		case body == "":
		case i == 0 || i == 2:
			body = c.Bold.Sprint(body)
		case i == 1:
			if rest, ok := strings.CutPrefix(body, r.Outcome()); ok {
				body = outcomeStyle(c, r.Meta).Sprint(r.Outcome()) + rest
			}
		default:
			body = explainLine(c, body, r.Shows == explain.ShowsCause)
		}
		b.WriteString(body)
		if nl {
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// explainLine paints "STREAM:LINE: text": the text is escaped by
// WriteText, so the first ": " ends the location.
func explainLine(c *Palette, line string, cause bool) string {
	if strings.HasPrefix(line, "[rac: ") {
		return c.Marked.Sprint(line) // a cut line's marker, as read paints it
	}
	loc, text, ok := strings.Cut(line, ": ")
	if !ok {
		return line
	}
	if cause {
		text = c.Failed.Sprint(text)
	}
	return c.Sep.Sprint(loc+":") + " " + text
}

func outcomeStyle(c *Palette, m explain.Meta) Style {
	switch m.Status {
	case explain.StatusExited:
		if m.ExitCode != nil && *m.ExitCode == 0 {
			return c.OK
		}
	case explain.StatusRunning:
		return c.Running
	case explain.StatusIncomplete, explain.StatusStreamEnded:
		return c.Marked
	}
	return c.Failed
}

// ExplainJSON writes the report's one JSON object (at most 8 KiB) and a
// newline.
func ExplainJSON(w io.Writer, r *explain.Report) error {
	b, err := r.JSON()
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
