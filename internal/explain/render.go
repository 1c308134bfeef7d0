package explain

import (
	"fmt"
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

const (
	// TextLineBytes is where a shown output line is cut in the text.
	TextLineBytes = 200
	// textCommandBytes is where the command line is cut in the text.
	textCommandBytes = 300
	textCwdBytes     = 200
	textNoteBytes    = 200
	ellipsis         = termtext.Ellipsis
)

// WriteText writes the report for a person or an agent, in at most 11
// lines:
//
//	$ go test ./...  # in /src/app
//	exited with code 1 after 2.31s
//	cause (3 of 5 matching lines):
//	stdout:3: add_test.go:8: Add(2, 2) = 5, want 4
//	stdout:2: --- FAIL: TestAdd (0.00s)
//	stdout:4: FAIL (x2)
//
// or, when no line matched, "no error lines; last N lines:" and the tail.
// Each shown line is STREAM:LINE: TEXT with TEXT cut to 200 bytes and
// "(xN)" when N similar lines were folded into it.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	b.WriteString("$ ")
	b.WriteString(cut(r.commandLine(), textCommandBytes))
	if r.Meta.Cwd != "" {
		b.WriteString("  # in ")
		b.WriteString(cut(termtext.ShellQuote(r.Meta.Cwd), textCwdBytes))
	}
	b.WriteByte('\n')

	b.WriteString(r.Outcome())
	switch {
	case r.Meta.Truncated && r.Meta.Note != "":
		b.WriteString("; recording cut: ")
		b.WriteString(cut(termtext.Escape(r.Meta.Note), textNoteBytes))
	case r.Meta.Truncated:
		b.WriteString("; recording cut")
	case r.Meta.Note != "":
		b.WriteString("; note: ")
		b.WriteString(cut(termtext.Escape(r.Meta.Note), textNoteBytes))
	}
	if r.Meta.Redactions > 0 {
		fmt.Fprintf(&b, "; %d redactions while recording", r.Meta.Redactions)
	}
	b.WriteByte('\n')

	b.WriteString(r.header())
	b.WriteByte('\n')
	for _, l := range append(r.Lines[:len(r.Lines):len(r.Lines)], r.Rest...) {
		b.WriteString(l.text())
		b.WriteByte('\n')
		if l.Cut {
			b.WriteString(record.CutLineMarker(int64(l.Line), termtext.Escape(l.Stream)) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CauseBlock is the report's cause as WriteText shows it, its first n
// lines at most (the most likely first): the header, then one
// STREAM:LINE: TEXT line each. nil when the report shows no cause (a run
// that passed, or one where no line matched): a summary that carries the
// cause never invents one.
func (r *Report) CauseBlock(n int) []string {
	if r.Shows != ShowsCause || len(r.Lines) == 0 || n <= 0 {
		return nil
	}
	shown := *r
	shown.Lines = r.Lines[:min(n, len(r.Lines))]
	shown.Rest = nil // the block is the cause alone: a summary shows its own head and tail
	out := []string{shown.header()}
	for _, l := range shown.Lines {
		out = append(out, l.text())
	}
	return out
}

// text is one shown output line: STREAM:LINE: TEXT, TEXT cut to
// TextLineBytes, and (xN) when N similar lines were folded into it.
func (l Line) text() string {
	s := fmt.Sprintf("%s:%d: %s", termtext.Escape(l.Stream), l.Line, cut(termtext.EscapeLine(l.Text), TextLineBytes))
	if l.Count > 1 {
		s += fmt.Sprintf(" (x%d)", l.Count)
	}
	return s
}

// header is the line that says what follows.
func (r *Report) header() string {
	if r.Shows == ShowsCause {
		if len(r.Rest) > 0 {
			// a short output shown whole: its other lines follow the cause
			return fmt.Sprintf("cause (%d of %d matching lines), then the rest of the short output:", len(r.Lines), r.Matched)
		}
		return fmt.Sprintf("cause (%d of %d matching lines):", len(r.Lines), r.Matched)
	}
	if r.Shows == ShowsPass {
		warn, pass := 0, 0
		for _, l := range r.Lines {
			switch l.Kind {
			case kindTail:
			case kindPass:
				pass++
			default:
				warn++
			}
		}
		last := fmt.Sprintf("last %d lines:", len(r.Lines)-warn-pass)
		if pass > 0 {
			last = "pass line, then the " + last
		}
		switch {
		case len(r.Lines) == 0:
			return "passed; no output"
		case warn == 0:
			return "passed; " + last
		}
		return fmt.Sprintf("passed; %d warning lines, then the %s", warn, last)
	}
	if len(r.Lines) == 0 {
		return "no error lines; no output"
	}
	shape, warn := 0, 0
	for _, l := range r.Lines {
		switch l.Kind {
		case kindShape:
			shape++
		case kindContext:
			warn++
		}
	}
	var above []string
	if warn > 0 {
		above = append(above, fmt.Sprintf("%d warning lines", warn))
	}
	if shape > 0 {
		above = append(above, fmt.Sprintf("%d lines that stand out by their shape", shape))
	}
	if len(above) > 0 {
		return fmt.Sprintf("no error lines; %s, then the last %d lines:", strings.Join(above, " and "), len(r.Lines)-shape-warn)
	}
	return fmt.Sprintf("no error lines; last %d lines:", len(r.Lines))
}

// commandLine is the argv as a shell would take it back.
func (r *Report) commandLine() string {
	if r.Argc == 0 {
		return "(no command recorded)"
	}
	q := make([]string, 0, len(r.Meta.Argv)+1)
	for _, a := range r.Meta.Argv {
		q = append(q, termtext.ShellQuote(a))
	}
	if more := r.Argc - len(r.Meta.Argv); more > 0 {
		q = append(q, fmt.Sprintf("# …%d more arguments", more))
	}
	return strings.Join(q, " ")
}

// Outcome says how the run ended, with its duration, in outcome's words
// (outcome.Took): "exited with code 1 after 2.3s", "killed by SIGTERM
// after 5.0s", "timed out after 30.0s (killed by SIGKILL)", "running for
// 12.0s", "failed to start".
func (r *Report) Outcome() string {
	m := r.Meta
	return outcome.Of(m.Status, m.ExitCode, m.Signal).Took(r.Duration, !m.StartedAt.IsZero())
}

// cut shortens s to at most n bytes, on a rune boundary, ending in "…".
func cut(s string, n int) string { return termtext.Cut(s, n) }
