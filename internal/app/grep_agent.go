package app

// rac out grep --decoded: the agents' transcripts searched as what their
// frames say, not as JSON.

import (
	"context"

	"github.com/rac-cli/rac/internal/agentrun"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/search"
)

// grepDecoded walks the jobs in order and searches each recording that
// holds an agent's transcript in its decoded view (agentrun.Decoded): one
// line per line of each string value of each frame, shown as
// "PATH: text", matched on the text alone, redacted after decoding; a
// hit's line is its frame's line in the stream. Other recordings are
// skipped. Context lines are decoded lines too.
func (a *App) grepDecoded(ctx context.Context, s *search.Searcher, n int, jobs []search.Job, fn func(search.Result) error) error {
	red, err := a.Redactor()
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if err := canceled(ctx); err != nil {
			return err
		}
		res := search.Result{Job: j}
		rec, err := record.Open(j.Session, j.Name)
		if err != nil {
			res.Err = err
		} else {
			res.Rec = rec
			res.Hits, res.Err = decodedHits(ctx, rec, s, n, red.String)
			rec.Close()
		}
		if err := fn(res); err != nil {
			return err
		}
	}
	return nil
}

func decodedHits(ctx context.Context, rec *record.Recording, s *search.Searcher, n int, red func(string) string) ([]search.Hit, error) {
	stream, _, ok := transcriptOf(rec)
	if !ok {
		return nil, nil
	}
	pieces, closeFn, err := rec.Pieces(stream)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	g := &decodedGrep{s: s, n: n, stream: stream, red: red}
	for _, p := range pieces {
		if _, _, err := agentrun.EachFrame(p.R, p.FirstLine-1, g.frame); err != nil {
			return g.hits, err
		}
		if err := canceled(ctx); err != nil {
			return g.hits, err
		}
	}
	return g.hits, nil
}

// decodedGrep is grep's state over one transcript's decoded lines.
type decodedGrep struct {
	s      *search.Searcher
	n      int
	stream string
	red    func(string) string
	hits   []search.Hit
	before []search.Line // the last n lines not shown
	after  int           // lines still to add to the last hit's After
}

func (g *decodedGrep) frame(n int64, line []byte) {
	if line == nil {
		return
	}
	agentrun.Decoded(line, func(path, text string) {
		prefix := path + ": "
		shown := prefix + g.red(text)
		clean, spans := g.s.Match([]byte(shown))
		var kept []search.Span
		for _, sp := range spans {
			if sp.Start >= len(prefix) {
				kept = append(kept, sp)
			}
		}
		g.line(n, clean, kept)
	})
}

func (g *decodedGrep) line(n int64, clean []byte, spans []search.Span) {
	if len(spans) == 0 {
		switch {
		case g.after > 0:
			h := &g.hits[len(g.hits)-1]
			h.After = append(h.After, search.Line{N: n, Text: clean})
			g.after--
		case g.n > 0:
			g.before = append(g.before, search.Line{N: n, Text: clean})
			if len(g.before) > g.n {
				g.before = g.before[1:]
			}
		}
		return
	}
	g.hits = append(g.hits, search.Hit{Stream: g.stream, N: n, Text: clean, Matches: spans, Before: g.before})
	g.before, g.after = nil, g.n
}
