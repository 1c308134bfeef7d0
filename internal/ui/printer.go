package ui

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rac-cli/rac/internal/termtext"
)

// Printer writes rac's own lines, for people, on stderr:
//
//	rac: no recording "x" in session "s"
//	rac: hint: run 'rac out list' to see the recordings of this session
//	rac: warning: not recording this command: ...
//	rac: ref s/0001-echo
//
// Each line starts with "rac:", is written whole in one Write (lines from
// several goroutines do not interleave), and passes through termtext.Escape
// so it stays one line and carries no control sequence, whatever the error
// text or the arguments hold. Messages are lower case with no final period;
// the printer does not rewrite them, it only trims surrounding space.
type Printer struct {
	mu      sync.Mutex
	w       io.Writer
	colors  *Palette
	midLine bool
}

// NewPrinter prints on w in colors (nil: no colour). Commands use
// IOStreams.Printer instead, the one printer of their stderr.
func NewPrinter(w io.Writer, colors *Palette) *Printer {
	if colors == nil {
		colors = newPalette()
	}
	return &Printer{w: w, colors: colors}
}

// SetMidLine says whether the terminal's cursor is in the middle of a line
// (the command's output did not end in a newline): then the next line of
// rac's starts with a newline of its own, so it begins at the left edge.
func (p *Printer) SetMidLine(mid bool) {
	p.mu.Lock()
	p.midLine = mid
	p.mu.Unlock()
}

// setWriter moves the printer to w (into a pager and back).
func (p *Printer) setWriter(w io.Writer) {
	p.mu.Lock()
	p.w = w
	p.mu.Unlock()
}

// Error prints err as one "rac:" line and, when hint is not empty, a
// "rac: hint:" line after it. A nil err prints nothing.
func (p *Printer) Error(err error, hint string) {
	if err == nil {
		return
	}
	line := p.line(p.colors.Error.Sprint("rac:"), err.Error())
	if strings.TrimSpace(hint) != "" {
		line += p.line(p.colors.Hint.Sprint("rac: hint:"), hint)
	}
	p.write(line)
}

// Errorf prints "rac: MESSAGE", an error that is not an error value.
func (p *Printer) Errorf(format string, a ...any) {
	p.write(p.line(p.colors.Error.Sprint("rac:"), fmt.Sprintf(format, a...)))
}

// Warnf prints "rac: warning: MESSAGE": something went wrong that did not
// stop rac.
func (p *Printer) Warnf(format string, a ...any) {
	p.write(p.line(p.colors.Warn.Sprint("rac: warning:"), fmt.Sprintf(format, a...)))
}

// Hintf prints "rac: hint: MESSAGE": what to run next.
func (p *Printer) Hintf(format string, a ...any) {
	p.write(p.line(p.colors.Hint.Sprint("rac: hint:"), fmt.Sprintf(format, a...)))
}

// Infof prints "rac: MESSAGE" without colour: the reference line, a gc
// report, anything a person (or an agent) may copy.
func (p *Printer) Infof(format string, a ...any) {
	p.write(p.line("rac:", fmt.Sprintf(format, a...)))
}

// InfoUnendedf is Infof without the final newline, for the last line rac
// writes when the one that runs it ends the line itself (a shell after a
// command's SIGINT death: app.InterruptedAt).
func (p *Printer) InfoUnendedf(format string, a ...any) {
	p.write(strings.TrimSuffix(p.line("rac:", fmt.Sprintf(format, a...)), "\n"))
}

func (p *Printer) line(prefix, msg string) string {
	return prefix + " " + termtext.Escape(strings.TrimSpace(msg)) + "\n"
}

// write puts the lines out whole, after the newline a mid-line cursor
// needs. A failed write to stderr has nowhere to be reported.
func (p *Printer) write(lines string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.midLine {
		lines = "\n" + lines
		p.midLine = false
	}
	_, _ = io.WriteString(p.w, lines)
}
