package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/rac-cli/rac/internal/search"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/termtext"
)

// GrepRequest is one rac out grep.
type GrepRequest struct {
	Text       string
	Scope      Scope
	IgnoreCase bool
	Context    int
	JSON       bool
	// Decoded searches only recordings of agents' transcripts, in their
	// decoded view (grepDecoded)
	Decoded bool
	// Write prints one hit for a person (ui.GrepHit: grep's shape, its
	// colours are the front end's); sep says a "--" starts a new group.
	Write func(w io.Writer, ref string, h search.Hit, sep bool) error
}

// GrepHit is the stable JSON shape of one hit.
type GrepHit struct {
	Ref     string     `json:"ref"`
	Session string     `json:"session"`
	Name    string     `json:"name"`
	Stream  string     `json:"stream"`
	Line    int64      `json:"line"`
	Text    string     `json:"text"`
	Before  []GrepLine `json:"before"`
	After   []GrepLine `json:"after"`
	// Cut: the matching line is an incomplete recording's last, without
	// its newline: the recorder's kill may have cut it (as read's "cut")
	Cut bool `json:"cut,omitempty"`
}

// GrepLine is a context line of a GrepHit.
type GrepLine struct {
	Line int64  `json:"line"`
	Text string `json:"text"`
	Cut  bool   `json:"cut,omitempty"` // as GrepHit.Cut
}

// grepMemoryLimit is rac out grep's soft memory limit. Its live memory is
// bounded (search.Walk holds a few MiB of hits, each worker a decoded
// frame or a block of a raw file), but with many hits it makes garbage
// fast, and the collector let the heap reach twice the live set.
// Measured on a compressed 256 MiB session (medians of runs beside two
// other builds): 41,370 hits took 26-30 MiB of peak RSS without it, 26-28
// with it, for the same CPU; 4.3 million hits (grep e) 59 MiB and 6.7 s
// of CPU before the bounds and the limit, 29 MiB and 6.1 s with them. 20
// MiB cost that grep 40% more CPU, the collector running all the time.
const grepMemoryLimit = 22 << 20

// Grep searches the scope's recordings in sequence order (on every core)
// and writes each hit to w as grep does, or as JSON. It returns the number
// of hits. A recording that cannot be read is a warning and the search
// goes on.
func (a *App) Grep(ctx context.Context, req GrepRequest, w io.Writer) (int, error) {
	s, err := search.New(search.Options{Text: req.Text, IgnoreCase: req.IgnoreCase, Context: req.Context})
	switch {
	case errors.Is(err, search.ErrEmptyText):
		return 0, Usagef("empty TEXT: rac out grep TEXT needs something to search for")
	case err != nil:
		return 0, Usagef("-C takes a number of lines from 0")
	case !req.JSON && req.Write == nil:
		return 0, errors.New("grep: no writer for the hits") // a front end's bug
	}
	jobs, done, err := a.grepJobs(req.Scope)
	defer done()
	if err != nil {
		return 0, err
	}
	defer a.softMemoryLimit(grepMemoryLimit)()
	bw := bufio.NewWriterSize(w, 64<<10)
	defer func() { _ = bw.Flush() }() // on early errors; the normal path checks it
	enc := json.NewEncoder(termtext.JSONWriter(bw))
	hits := 0
	var last groupEnd
	each := func(r search.Result) error {
		if err := canceled(ctx); err != nil {
			return err
		}
		ref := r.Job.Session.Name + "/" + r.Job.Name
		if r.Err != nil {
			a.warnf("skipping %s: %s", ref, FirstLine(r.Err))
		}
		for _, h := range r.Hits {
			hits++
			if req.JSON {
				if err := enc.Encode(jsonHit(r.Job, h)); err != nil {
					return err
				}
				continue
			}
			first := h.N
			if len(h.Before) > 0 {
				first = h.Before[0].N
			}
			sep := req.Context > 0 && hits > 1 && (last.ref != ref || last.stream != h.Stream || first > last.line+1)
			last = groupEnd{ref: ref, stream: h.Stream, line: h.N}
			if len(h.After) > 0 {
				last.line = h.After[len(h.After)-1].N
			}
			if err := req.Write(bw, ref, h, sep); err != nil {
				return err
			}
			if n, ok := cutLineOf(h); ok {
				// after the hit's lines, as read prints it after the line
				if _, err := fmt.Fprintln(bw, CutLineMarker(n, h.Stream)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := a.walkGrep(ctx, s, req, jobs, each); err != nil {
		return hits, err
	}
	return hits, bw.Flush()
}

// walkGrep searches the jobs' recordings as stored, or with req.Decoded
// the agents' transcripts among them decoded (grepDecoded).
func (a *App) walkGrep(ctx context.Context, s *search.Searcher, req GrepRequest, jobs []search.Job, each func(search.Result) error) error {
	if req.Decoded {
		return a.grepDecoded(ctx, s, req.Context, jobs, each)
	}
	return s.Walk(jobs, each)
}

// groupEnd is where the last printed group of context ended.
type groupEnd struct {
	ref, stream string
	line        int64
}

func jsonHit(j search.Job, h search.Hit) GrepHit {
	conv := func(ls []search.Line) []GrepLine {
		out := make([]GrepLine, 0, len(ls))
		for _, l := range ls {
			out = append(out, GrepLine{Line: l.N, Text: ValidUTF8(string(l.Text)), Cut: l.Cut})
		}
		return out
	}
	return GrepHit{Ref: j.Session.Name + "/" + j.Name, Session: j.Session.Name, Name: j.Name, Stream: h.Stream, Line: h.N,
		Text: ValidUTF8(string(h.Text)), Before: conv(h.Before), After: conv(h.After), Cut: h.Cut}
}

// cutLineOf is the number of the cut line among a hit's lines: the hit's
// own, or its last context line (a cut line ends its stream).
func cutLineOf(h search.Hit) (int64, bool) {
	if h.Cut {
		return h.N, true
	}
	if k := len(h.After); k > 0 && h.After[k-1].Cut {
		return h.After[k-1].N, true
	}
	return 0, false
}

// grepJobs opens every store's folder of each session of the scope (a
// session with none has recorded nothing yet; a refused folder is a
// warning, or the error when nothing could be opened) and lists the
// recordings to search. done closes what was opened.
func (a *App) grepJobs(scope Scope) (jobs []search.Job, done func(), err error) {
	stores, err := a.Stores()
	if err != nil {
		return nil, func() {}, err
	}
	var dirs []*store.Session
	done = func() {
		for _, d := range dirs {
			d.Close()
		}
		stores.Close()
	}
	sessions, err := a.sessions(stores, scope)
	if err != nil {
		return nil, done, err
	}
	if dirs, err = a.sessionDirs(stores, sessions); err != nil {
		return nil, done, err
	}
	jobs, err = search.Jobs(dirs)
	return jobs, done, err
}
