package ui

import (
	"fmt"

	"github.com/fatih/color"

	"github.com/rac-cli/rac/internal/config"
)

// ColorEnabled is the colour decision for one stream, in order of
// precedence: --color always or never; NO_COLOR set and non-empty
// (no-color.org) turns it off; so does TERM=dumb; otherwise colour is on
// only when the stream is a terminal.
func ColorEnabled(mode config.Color, getenv func(string) string, terminal bool) bool {
	switch mode {
	case config.ColorAlways:
		return true
	case config.ColorNever:
		return false
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return terminal
}

// Style is one colour of a palette. Its zero value prints text as is.
type Style struct{ c *color.Color }

// Sprint is text in this style: unchanged when the stream's colour is off.
func (s Style) Sprint(text string) string {
	if s.c == nil {
		return text
	}
	return s.c.Sprint(text)
}

// Sprintf formats, then applies the style.
func (s Style) Sprintf(format string, a ...any) string { return s.Sprint(fmt.Sprintf(format, a...)) }

// Cell is text in this style, for a table.
func (s Style) Cell(text string) Cell { return Cell{Text: text, Style: s} }

// Palette is the styles of one stream; ErrColors' are for rac's own lines,
// OutColors' for tables and matches. All of a palette's styles are on or
// off together, as its stream's decision says.
type Palette struct {
	Error Style // red: the "rac:" of an error line
	Warn  Style // yellow: "rac: warning:"
	Hint  Style // cyan: "rac: hint:"

	Bold    Style // headers, references
	Dim     Style // secondary text: times, sizes
	Match   Style // bold red: what grep matched
	Failed  Style // red: a failed outcome
	Running Style // yellow: a recording still running
	Marked  Style // magenta: incomplete or cut, what a reader must not miss
	OK      Style // green: exit 0
	Name    Style // magenta: a reference before a grep hit
	Sep     Style // cyan: the separators of a grep hit, explain's line locations
	LineNo  Style // green: a line number

	on     bool
	colors []*color.Color
}

// newPalette builds a palette with colour off.
func newPalette() *Palette {
	p := &Palette{}
	mk := func(attrs ...color.Attribute) Style {
		c := color.New(attrs...)
		c.DisableColor()
		p.colors = append(p.colors, c)
		return Style{c}
	}
	p.Error = mk(color.FgRed, color.Bold)
	p.Warn = mk(color.FgYellow)
	p.Hint = mk(color.FgCyan)
	p.Bold = mk(color.Bold)
	p.Dim = mk(color.Faint)
	p.Match = mk(color.FgRed, color.Bold)
	p.Failed = mk(color.FgRed)
	p.Running = mk(color.FgYellow)
	p.Marked = mk(color.FgMagenta)
	p.OK = mk(color.FgGreen)
	p.Name = mk(color.FgMagenta)
	p.Sep = mk(color.FgCyan)
	p.LineNo = mk(color.FgGreen)
	return p
}

// set turns every style of the palette on or off: per color object, never
// through the global color.NoColor.
func (p *Palette) set(on bool) {
	p.on = on
	for _, c := range p.colors {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
}

// Enabled reports whether this stream is coloured.
func (p *Palette) Enabled() bool { return p.on }
