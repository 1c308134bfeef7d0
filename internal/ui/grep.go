package ui

// rac out grep's lines: grep's shape, with the match highlighted.

import (
	"io"
	"strconv"
	"strings"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/search"
	"github.com/rac-cli/rac/internal/termtext"
)

// GrepHit writes one hit as grep does, ':' after a match's fields and '-'
// after a context line's, "--" first when sep says a new group starts:
//
//	SESSION/NAME:LINE:text
//	SESSION/NAME:stderr:LINE:text
//	SESSION/NAME-LINE-text
//
// With c's colour on, the reference is magenta, the line number green,
// the separators cyan and each match (the hit's search.Span offsets) bold
// red, as grep --color shows them. The text is search's cleaned text
// (no escape sequence left), defused of raw C1 bytes.
func GrepHit(w io.Writer, c *Palette, ref string, h search.Hit, sep bool) error {
	var b strings.Builder
	if sep {
		b.WriteString(c.Sep.Sprint("--") + "\n")
	}
	stream := ""
	if h.Stream != record.Stdout {
		stream = h.Stream
	}
	line := func(n int64, text string, mark string) {
		m := c.Sep.Sprint(mark)
		b.WriteString(c.Name.Sprint(termtext.Escape(ref)) + m)
		if stream != "" {
			b.WriteString(termtext.Escape(stream) + m)
		}
		b.WriteString(c.LineNo.Sprint(strconv.FormatInt(n, 10)) + m + text + "\n")
	}
	for _, l := range h.Before {
		line(l.N, string(termtext.Defuse(l.Text)), "-")
	}
	line(h.N, highlight(c.Match, h.Text, h.Matches), ":")
	for _, l := range h.After {
		line(l.N, string(termtext.Defuse(l.Text)), "-")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// highlight paints the spans of text; it defuses each piece on its own,
// since defusing can change lengths and the spans are offsets into text.
func highlight(st Style, text []byte, spans []search.Span) string {
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.Start < at || s.End > len(text) || s.Start > s.End {
			continue // not from this text: never slice out of range
		}
		b.Write(termtext.Defuse(text[at:s.Start]))
		b.WriteString(st.Sprint(string(termtext.Defuse(text[s.Start:s.End]))))
		at = s.End
	}
	b.Write(termtext.Defuse(text[at:]))
	return b.String()
}

// GrepWriter is GrepHit in the palette c, in the shape the application
// layer's grep takes it.
func GrepWriter(c *Palette) func(w io.Writer, ref string, h search.Hit, sep bool) error {
	return func(w io.Writer, ref string, h search.Hit, sep bool) error { return GrepHit(w, c, ref, h, sep) }
}
