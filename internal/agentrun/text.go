package agentrun

import (
	"fmt"
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
	"github.com/rac-cli/rac/internal/units"
)

// The text's bounds.
const (
	textLineBytes  = 200
	textFinalLines = 3
	textTopTools   = 5
)

// The text's line labels, which a painter keys on.
const (
	LabelResult  = "result: "
	LabelTools   = "tools: "
	LabelFailure = "failure"
	LabelFinal   = "final text: "
)

// WriteText writes the digest for a person, in a few lines, every string
// escaped for a terminal and cut to 200 bytes:
//
//	$ claude -p 'fix the test' --output-format stream-json --verbose
//	exited with code 0 after 41s; claude-code 2.1.328 stream-json, model claude-sonnet-4-5
//	result: success, 7 turns, $0.1432, tokens in 5120 out 880 cache read 40960
//	tools: 12 calls, 1 error: Bash 6 (1 error), Read 4, Edit 2
//	failure (tool_error, line 31): Bash: Exit code 1 …
//	final text: The test passes now.
//	wrote 2 files: src/add.go, src/add_test.go
//	transcript: 64 frames, 48 KiB on stdout; rac out read REF for all of it
func (d *Digest) WriteText(w io.Writer) error {
	var b strings.Builder
	line := func(s string) {
		b.WriteString(Cut(s, textLineBytes*2))
		b.WriteByte('\n')
	}
	esc := func(s string) string { return Cut(termtext.Escape(s), textLineBytes) }
	line("$ " + esc(d.Command))
	head := d.Outcome + "; " + esc(d.Agent.Kind)
	if d.Agent.Version != "" {
		head += " " + esc(d.Agent.Version)
	}
	head += " " + d.Agent.Format
	if d.Result.Model != "" {
		head += ", model " + esc(d.Result.Model)
	}
	line(head)
	line(LabelResult + d.resultText())
	line(LabelTools + d.toolsText())
	if f := d.Failure; f != nil {
		at := f.Kind
		if f.Line > 0 {
			at += fmt.Sprintf(", line %d", f.Line)
		}
		line(LabelFailure + " (" + at + "): " + esc(strings.Join(strings.Fields(f.Excerpt), " ")))
	}
	d.finalText(line, esc)
	if a := d.Artifacts; a.Count > 0 {
		line(fmt.Sprintf("wrote %d %s: %s", a.Count, plural(a.Count, "file", "files"), esc(strings.Join(a.Paths, ", "))))
	}
	line(d.fileText(esc))
	_, err := io.WriteString(w, b.String())
	return err
}

func (d *Digest) resultText() string {
	r := d.Result
	var parts []string
	switch {
	case r.Subtype != "":
		parts = append(parts, termtext.Escape(r.Subtype))
	default:
		parts = append(parts, "no result")
	}
	if r.IsError != nil && *r.IsError {
		parts[0] += " (is_error)"
	}
	if r.NumTurns != nil {
		parts = append(parts, fmt.Sprintf("%d turns", *r.NumTurns))
	}
	if r.CostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.4f", *r.CostUSD))
	}
	if t := r.Usage.text(); t != "" {
		parts = append(parts, "tokens"+t)
	}
	if r.PermissionDenials > 0 {
		parts = append(parts, fmt.Sprintf("%d permission denials", r.PermissionDenials))
	}
	return strings.Join(parts, ", ")
}

func (u Usage) text() string {
	var s string
	for _, f := range []struct {
		name string
		n    *int64
	}{{"in", u.Input}, {"out", u.Output}, {"cache read", u.CacheRead}, {"cache creation", u.CacheCreation}, {"thinking", u.Thinking}} {
		if f.n != nil {
			s += fmt.Sprintf(" %s %d", f.name, *f.n)
		}
	}
	return s
}

func (d *Digest) toolsText() string {
	t := d.Tools
	var errs int64
	for _, c := range t.Counts {
		errs += c.Errors
	}
	s := fmt.Sprintf("%d %s", t.TotalCalls, plural(int(t.TotalCalls), "call", "calls"))
	if errs > 0 {
		s += fmt.Sprintf(", %d %s", errs, plural(int(errs), "error", "errors"))
	}
	var top []string
	for i, c := range t.Counts {
		if i == textTopTools {
			top = append(top, fmt.Sprintf("%d more", len(t.Counts)-i))
			break
		}
		e := ""
		if c.Errors > 0 {
			e = fmt.Sprintf(" (%d %s)", c.Errors, plural(int(c.Errors), "error", "errors"))
		}
		top = append(top, fmt.Sprintf("%s %d%s", termtext.Escape(c.Name), c.Calls, e))
	}
	if len(top) > 0 {
		s += ": " + strings.Join(top, ", ")
	}
	if !t.Complete {
		s += "; some results missing"
	}
	return s
}

func (d *Digest) finalText(line func(string), esc func(string) string) {
	text := strings.TrimSpace(d.Final.Text)
	if text == "" {
		return
	}
	ls := strings.Split(text, "\n")
	line(LabelFinal + esc(ls[0]))
	for i, l := range ls[1:] {
		if i+1 == textFinalLines {
			line(fmt.Sprintf("  (%d more lines)", len(ls)-textFinalLines))
			break
		}
		line("  " + esc(l))
	}
}

func (d *Digest) fileText(esc func(string) string) string {
	f := d.File
	s := fmt.Sprintf("transcript: %d frames, %s on %s", f.FramesTotal, units.Bytes(f.BytesTotal), f.Stream)
	if sm := f.Seam; sm != nil {
		s += fmt.Sprintf("; recording cut after frame %d: %d frames (%s) dropped", sm.AfterFrame, sm.FramesDropped, units.Bytes(sm.BytesDropped))
	}
	return s + "; rac out read " + esc(d.Ref) + " for all of it"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
