package app

import (
	"context"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// LinesInfo says what ReadLines read: the recording, the stream it chose
// and how many lines that stream holds, for a front end that states its
// cuts and the next range to ask for (the MCP server).
type LinesInfo struct {
	Ref    string
	Stream string // "" when lines of every stream came in arrival order
	// Lines is the number of lines of Stream (0 when Stream is "").
	Lines  int64
	Status string
}

// ReadLines is Read for a front end that bounds what it returns: each line
// goes to fn (cleaned as a terminal shows it, its text cut to maxText
// bytes before cleaning, more saying how many bytes were left out), so
// memory stays bounded by the lines asked for, never by the recording.
// When no stream is named it reads the only stream with output, so line
// numbers are that stream's and a tail stays O(lines). Notes go to Note as
// for Read. fn may return record.ErrStop to end early.
func (a *App) ReadLines(ctx context.Context, req ReadRequest, maxText int, fn func(l ReadLine, more int) error) (LinesInfo, error) {
	lo, err := lineOptions(req, toolWords)
	if err != nil {
		return LinesInfo{}, err
	}
	rec, err := a.Open(req.Ref)
	if err != nil {
		return LinesInfo{}, err
	}
	defer rec.Close()
	if err := hasStream(rec, req.Stream, "a stream"); err != nil {
		return LinesInfo{}, err
	}
	if lo.Stream == "" {
		if lo.Stream, err = onlyStream(rec, toolWords); err != nil {
			if req.Lines != "" {
				return LinesInfo{}, err
			}
			lo.Stream = "" // both streams have output: arrival order
		}
	}
	info := LinesInfo{Ref: rec.Ref(), Stream: lo.Stream, Status: rec.Status}
	if lo.Stream != "" {
		info.Lines = rec.StreamLines(lo.Stream)
	}
	a.noteStatus(rec, toolWords)
	if (req.HeadSet && req.Head == 0) || (req.TailSet && req.Tail == 0) {
		return info, nil
	}
	red, err := a.Redactor()
	if err != nil {
		return info, err
	}
	// redacted again on the way out: a recording made with --no-redact
	// must not hand a secret to a model, also not a key's body line or a
	// Secret's data value that only the lines before the window mark
	out, err := newOutLines(red, rec, a.red.marks)
	if err != nil {
		return info, err
	}
	defer out.close()
	err = rec.Lines(lo, func(l record.Line) error {
		if err := canceled(ctx); err != nil {
			return err
		}
		v, more, err := out.bounded(l, maxText)
		if err != nil {
			return err
		}
		return fn(v, more)
	})
	return info, err
}

// bounded is l as ReadLines hands it on: redacted again with the block
// state, its text cut to maxText bytes before cleaning (more says how many
// bytes were left out), cleaned as a terminal shows it, and redacted once
// more as a whole.
func (o *outLines) bounded(l record.Line, maxText int) (v ReadLine, more int, err error) {
	text := l.Text
	if l.Marker {
		o.marker(l)
	} else if text, err = o.line(l.Stream, l.N, text); err != nil {
		return ReadLine{}, 0, err
	}
	if len(text) > maxText {
		text, more = text[:maxText], len(text)-maxText
	}
	if !l.Marker {
		text = termtext.Defuse(termtext.CleanLine(text))
	}
	return ReadLine{Stream: l.Stream, Line: l.N, Text: o.red.String(ValidUTF8(string(text))), Marker: l.Marker, Cut: l.Cut}, more, nil
}
