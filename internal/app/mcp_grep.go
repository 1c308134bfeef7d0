package app

import (
	"errors"

	"github.com/rac-cli/rac/internal/search"
)

// GrepEach is Grep for a front end that bounds what it returns (the MCP
// server), over the same recordings in the same order: each hit goes to fn as its --json shape, every text cut to
// maxText bytes and passed through the redactor, in the order Grep prints
// them. It returns the number of hits; fn returning search.ErrStop ends
// the search early.
func (a *App) GrepEach(req GrepRequest, maxText int, fn func(GrepHit) error) (int, error) {
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
	cut := func(s string) string {
		if len(s) > maxText {
			s = s[:maxText]
		}
		return red.String(ValidUTF8(s))
	}
	hits := 0
	err = s.Walk(jobs, func(r search.Result) error {
		if r.Err != nil {
			a.warnf("skipping %s/%s: %s", r.Job.Session.Name, r.Job.Name, FirstLine(r.Err))
		}
		for _, h := range r.Hits {
			hits++
			v := jsonHit(r.Job, h)
			v.Text = cut(v.Text)
			for i := range v.Before {
				v.Before[i].Text = cut(v.Before[i].Text)
			}
			for i := range v.After {
				v.After[i].Text = cut(v.After[i].Text)
			}
			if err := fn(v); err != nil {
				return err
			}
		}
		return nil
	})
	return hits, err
}
