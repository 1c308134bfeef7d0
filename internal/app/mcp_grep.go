package app

import (
	"context"
	"errors"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/search"
	"github.com/rac-cli/rac/internal/termtext"
)

// GrepEach is Grep for a front end that bounds what it returns (the MCP
// server), over the same recordings in the same order: each hit goes to
// fn as its --json shape, every text cut to maxText bytes and passed
// through the redactor, in the order Grep prints them. It returns the
// number of hits; fn returning search.ErrStop ends the search early.
func (a *App) GrepEach(ctx context.Context, req GrepRequest, maxText int, fn func(GrepHit) error) (int, error) {
	return a.GrepLazy(ctx, req, maxText, func(get func() GrepHit) error { return fn(get()) })
}

// GrepLazy is GrepEach for a front end that keeps only some of the hits
// and counts the rest: fn is given each hit as get, which builds its
// --json shape (cut and redacted, and for a --no-redact recording
// redacted again from the recording's start) when called, so a hit only
// counted costs its search alone. Measured on a 256 MiB session, the MCP
// grep tool took 166 s for the 3.8 million hits of "e" when every hit
// was redacted before the budget was looked at, and 5 s for 41,370.
func (a *App) GrepLazy(ctx context.Context, req GrepRequest, maxText int, fn func(get func() GrepHit) error) (int, error) {
	s, err := search.New(search.Options{Text: req.Text, IgnoreCase: req.IgnoreCase, Context: req.Context})
	switch {
	case errors.Is(err, search.ErrEmptyText):
		return 0, Usagef("empty text: grep needs something to search for")
	case err != nil:
		return 0, Usagef("context takes a number of lines from 0")
	}
	red, err := a.Redactor()
	if err != nil {
		return 0, err
	}
	jobs, done, err := a.grepJobs(req.Scope)
	defer done()
	if err != nil {
		return 0, err
	}
	defer a.softMemoryLimit(grepMemoryLimit)()
	cut := func(s string) string {
		if len(s) > maxText {
			s = s[:maxText]
		}
		return red.String(ValidUTF8(s))
	}
	hits := 0
	err = s.Walk(jobs, func(r search.Result) error {
		if err := canceled(ctx); err != nil {
			return err
		}
		if r.Err != nil {
			a.warnf("skipping %s/%s: %s", r.Job.Session.Name, r.Job.Name, FirstLine(r.Err))
		}
		// the part's hits are redacted again only when one is shown
		var again func(stream string, n int64, clean []byte) string
		againDone := false
		for _, h := range r.Hits {
			hits++
			get := func() GrepHit {
				if !againDone {
					again, againDone = a.hitsAgain(red, r, maxText), true
				}
				return hitTexts(jsonHit(r.Job, h), h, again, cut)
			}
			if err := fn(get); err != nil {
				return err
			}
		}
		return nil
	})
	return hits, err
}

// hitsAgain is how the hits of a --no-redact recording are redacted again
// (see grepAgain); nil for a recording redacted when it was made, or one
// without hits.
func (a *App) hitsAgain(red *redact.Redactor, r search.Result, maxText int) func(stream string, n int64, clean []byte) string {
	if len(r.Hits) == 0 || r.Rec == nil || r.Rec.Meta.Redact {
		return nil
	}
	again, err := grepAgain(red, a.red.marks, r, maxText)
	if err != nil {
		// fail closed: the hits are counted, their text not shown
		a.warnf("%s/%s: its lines could not be redacted again: %s", r.Job.Session.Name, r.Job.Name, FirstLine(err))
		again = func(string, int64, []byte) string { return failedText }
	}
	return again
}

// hitTexts sets the texts of v, the --json shape of h: redacted again
// from the recording when again is set, else cut and redacted line by
// line.
func hitTexts(v GrepHit, h search.Hit, again func(stream string, n int64, clean []byte) string, cut func(string) string) GrepHit {
	if again == nil {
		v.Text = cut(v.Text)
		for i := range v.Before {
			v.Before[i].Text = cut(v.Before[i].Text)
		}
		for i := range v.After {
			v.After[i].Text = cut(v.After[i].Text)
		}
		return v
	}
	v.Text = again(h.Stream, h.N, h.Text)
	for i, l := range h.Before {
		v.Before[i].Text = again(h.Stream, l.N, l.Text)
	}
	for i, l := range h.After {
		v.After[i].Text = again(h.Stream, l.N, l.Text)
	}
	return v
}

// failedText stands for a line that could not be redacted on the way out.
const failedText = "[REDACTED:redactor-failed]"

// grepAgain redacts the lines of one --no-redact recording's hits with
// the block state (see outLines): it opens the recording again and walks
// each stream with hits from its start (or the last mark before its first
// hit, see outMarks) to its last hit. The function it
// returns gives a line's text (clean: as the search showed it) redacted,
// cleaned, and cut to maxText bytes after redaction.
func grepAgain(red *redact.Redactor, marks *outMarks, r search.Result, maxText int) (func(stream string, n int64, clean []byte) string, error) {
	rec, err := record.Open(r.Job.Session, r.Job.Name)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	out, err := newOutLines(red, rec, marks)
	if err != nil {
		return nil, err
	}
	defer out.close()
	want := map[string]map[int64]bool{}
	last := map[string]int64{}
	add := func(stream string, n int64) {
		if want[stream] == nil {
			want[stream] = map[int64]bool{}
		}
		want[stream][n] = true
		last[stream] = max(last[stream], n)
	}
	for _, h := range r.Hits {
		add(h.Stream, h.N)
		for _, l := range h.Before {
			add(h.Stream, l.N)
		}
		for _, l := range h.After {
			add(h.Stream, l.N)
		}
	}
	found := map[string]map[int64][]outPiece{}
	for stream, w := range want {
		if found[stream], err = out.lookup(stream, w, last[stream]); err != nil {
			return nil, err
		}
	}
	return func(stream string, n int64, clean []byte) string {
		p, ok := pick(found[stream][n], clean)
		if !ok {
			return failedText // not found again: never the raw text
		}
		s := red.String(ValidUTF8(string(termtext.CleanLine(p.text))))
		if len(s) > maxText {
			s = ValidUTF8(s[:maxText])
		}
		return s
	}, nil
}
