package app

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/store"
)

// GrepRequest is one rac out grep.
type GrepRequest struct {
	Text       string
	Scope      Scope
	IgnoreCase bool
	Context    int
	JSON       bool
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
}

// GrepLine is a context line of a GrepHit.
type GrepLine struct {
	Line int64  `json:"line"`
	Text string `json:"text"`
}

// Grep searches the scope's recordings in sequence order and writes each
// hit to w as grep does (or as JSON). It returns the number of hits.
func (a *App) Grep(req GrepRequest, w io.Writer) (int, error) {
	if req.Text == "" {
		return 0, Usagef("empty TEXT: rac out grep TEXT needs something to search for")
	}
	if req.Context < 0 {
		return 0, Usagef("-C takes a number of lines from 0")
	}
	stores, err := a.Stores()
	if err != nil {
		return 0, err
	}
	defer stores.Close()
	sessions, err := a.sessions(stores, req.Scope)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	defer func() { _ = bw.Flush() }() // on early errors; the normal path checks it
	opts := record.GrepOptions{Text: req.Text, IgnoreCase: req.IgnoreCase, Context: req.Context}
	hits := 0
	if req.Context == 0 {
		// recordings searched on every core, printed in sequence order
		err = a.eachRecordingParallel(stores, sessions, func(rec *record.Recording) ([]byte, int, error) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			n := 0
			err := rec.Grep(opts, func(h record.Hit) error {
				n++
				if req.JSON {
					return enc.Encode(jsonHit(rec, h))
				}
				writeHit(&buf, rec.Ref(), h, false)
				return nil
			})
			return buf.Bytes(), n, err
		}, func(out []byte, n int) error {
			hits += n
			_, err := bw.Write(out)
			return err
		})
	} else {
		err = a.grepWithContext(stores, sessions, opts, req.JSON, bw, &hits)
	}
	if err != nil {
		return hits, err
	}
	return hits, bw.Flush()
}

// grepWithContext prints hits with merged context, in one pass.
func (a *App) grepWithContext(stores Stores, sessions []string, opts record.GrepOptions, asJSON bool, w io.Writer, hits *int) error {
	enc := json.NewEncoder(w)
	var last groupEnd
	return a.eachRecording(stores, sessions, func(rec *record.Recording) error {
		return rec.Grep(opts, func(h record.Hit) error {
			*hits++
			if asJSON {
				return enc.Encode(jsonHit(rec, h))
			}
			first := h.N
			if len(h.Before) > 0 {
				first = h.Before[0].N
			}
			sep := *hits > 1 && (last.ref != rec.Ref() || last.stream != h.Stream || first > last.line+1)
			last = groupEnd{ref: rec.Ref(), stream: h.Stream, line: h.N}
			if len(h.After) > 0 {
				last.line = h.After[len(h.After)-1].N
			}
			writeHit(w, rec.Ref(), h, sep)
			return nil
		})
	})
}

// groupEnd is where the last printed group of context ended.
type groupEnd struct {
	ref, stream string
	line        int64
}

func jsonHit(rec *record.Recording, h record.Hit) GrepHit {
	conv := func(ls []record.Line) []GrepLine {
		out := make([]GrepLine, 0, len(ls))
		for _, l := range ls {
			out = append(out, GrepLine{Line: l.N, Text: ValidUTF8(string(l.Text))})
		}
		return out
	}
	return GrepHit{Ref: rec.Ref(), Session: rec.Session, Name: rec.Name, Stream: h.Stream, Line: h.N,
		Text: ValidUTF8(string(h.Text)), Before: conv(h.Before), After: conv(h.After)}
}

// writeHit prints a hit as grep does: ':' after a match's fields, '-'
// after a context line's, "--" between groups when there is context.
func writeHit(w io.Writer, ref string, h record.Hit, sep bool) {
	if sep {
		fmt.Fprintln(w, "--")
	}
	stream := ""
	if h.Stream != record.Stdout {
		stream = h.Stream
	}
	line := func(n int64, text []byte, mark string) {
		if stream != "" {
			fmt.Fprintf(w, "%s%s%s%s%d%s%s\n", ref, mark, stream, mark, n, mark, text)
		} else {
			fmt.Fprintf(w, "%s%s%d%s%s\n", ref, mark, n, mark, text)
		}
	}
	for _, l := range h.Before {
		line(l.N, l.Text, "-")
	}
	line(h.N, h.Text, ":")
	for _, l := range h.After {
		line(l.N, l.Text, "-")
	}
}

// grepJob is one recording's search, done by a worker, printed in order.
type grepJob struct {
	sd   *store.Session
	name string
	out  []byte
	hits int
	err  error
	done chan struct{}
}

// eachRecordingParallel runs fn over the recordings of the sessions on
// several goroutines (one per core) and hands their outputs to emit in
// sequence order, so the result is the same as a sequential walk.
func (a *App) eachRecordingParallel(stores Stores, sessions []string, fn func(*record.Recording) ([]byte, int, error), emit func([]byte, int) error) error {
	var jobs []*grepJob
	var dirs []*store.Session
	defer func() {
		for _, d := range dirs {
			d.Close()
		}
	}()
	for _, sname := range sessions {
		sd, err := resolve.FindSession(stores, sname)
		if err != nil {
			continue // the current session has recorded nothing yet
		}
		dirs = append(dirs, sd)
		names, err := record.ListNames(sd)
		if err != nil {
			return err
		}
		for _, n := range names {
			jobs = append(jobs, &grepJob{sd: sd, name: n, done: make(chan struct{})})
		}
	}
	next := make(chan *grepJob)
	stop := make(chan struct{})
	defer close(stop)
	for range max(1, runtime.GOMAXPROCS(0)) {
		go func() {
			for j := range next {
				rec, err := record.Open(j.sd, j.name)
				if err != nil {
					j.out = []byte(fmt.Sprintf("skipping %s/%s: %s", j.sd.Name, j.name, FirstLine(err)))
					j.hits = -1 // a warning
				} else {
					j.out, j.hits, j.err = fn(rec)
					rec.Close()
				}
				close(j.done)
			}
		}()
	}
	go func() {
		defer close(next)
		for _, j := range jobs {
			select {
			case next <- j:
			case <-stop:
				return
			}
		}
	}()
	for _, j := range jobs {
		<-j.done
		if j.err != nil {
			return j.err
		}
		if j.hits < 0 {
			a.Warn(a.redactString(string(j.out)))
			continue
		}
		if err := emit(j.out, j.hits); err != nil {
			return err
		}
		j.out = nil
	}
	return nil
}
