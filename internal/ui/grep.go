package ui

// rac out grep's lines: grep's shape, with the match highlighted.

import (
	"io"
	"strconv"

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
	_, err := w.Write(appendHit(nil, c, ref, h, sep))
	return err
}

// appendHit appends GrepHit's lines to b. With the colour off it copies
// the text and nothing else: rac out grep may print millions of hits, and
// a string built for each piece of each was most of its garbage (and,
// with the collector keeping up, of its CPU).
func appendHit(b []byte, c *Palette, ref string, h search.Hit, sep bool) []byte {
	if sep {
		b = appendStyled(b, c.Sep, "--")
		b = append(b, '\n')
	}
	stream := ""
	if h.Stream != record.Stdout {
		stream = h.Stream
	}
	ref = termtext.Escape(ref)
	if stream != "" {
		stream = termtext.Escape(stream)
	}
	line := func(n int64, mark string) {
		b = appendStyled(b, c.Name, ref)
		b = appendStyled(b, c.Sep, mark)
		if stream != "" {
			b = append(b, stream...)
			b = appendStyled(b, c.Sep, mark)
		}
		if c.LineNo.c == nil {
			b = strconv.AppendInt(b, n, 10)
		} else {
			b = append(b, c.LineNo.Sprint(strconv.FormatInt(n, 10))...)
		}
		b = appendStyled(b, c.Sep, mark)
	}
	for _, l := range h.Before {
		line(l.N, "-")
		b = append(append(b, termtext.Defuse(l.Text)...), '\n')
	}
	line(h.N, ":")
	b = append(appendHighlight(b, c.Match, h.Text, h.Matches), '\n')
	for _, l := range h.After {
		line(l.N, "-")
		b = append(append(b, termtext.Defuse(l.Text)...), '\n')
	}
	return b
}

// appendStyled appends text in the style st.
func appendStyled(b []byte, st Style, text string) []byte {
	if st.c == nil {
		return append(b, text...)
	}
	return append(b, st.Sprint(text)...)
}

// appendHighlight appends text with its spans painted; it defuses each
// piece on its own, since defusing can change lengths and the spans are
// offsets into text.
func appendHighlight(b []byte, st Style, text []byte, spans []search.Span) []byte {
	at := 0
	for _, s := range spans {
		if s.Start < at || s.End > len(text) || s.Start > s.End {
			continue // not from this text: never slice out of range
		}
		b = append(b, termtext.Defuse(text[at:s.Start])...)
		if st.c == nil {
			b = append(b, termtext.Defuse(text[s.Start:s.End])...)
		} else {
			b = append(b, st.Sprint(string(termtext.Defuse(text[s.Start:s.End])))...)
		}
		at = s.End
	}
	return append(b, termtext.Defuse(text[at:])...)
}

// GrepWriter is GrepHit in the palette c, in the shape the application
// layer's grep takes it. The func it returns reuses one buffer from hit
// to hit: call it from one goroutine at a time, as rac out grep does.
func GrepWriter(c *Palette) func(w io.Writer, ref string, h search.Hit, sep bool) error {
	var buf []byte
	return func(w io.Writer, ref string, h search.Hit, sep bool) error {
		buf = appendHit(buf[:0], c, ref, h, sep)
		if cap(buf) > 64<<10 {
			defer func() { buf = nil }() // one huge hit: not kept for the rest
		}
		_, err := w.Write(buf)
		return err
	}
}
