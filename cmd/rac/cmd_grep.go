package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

type grepOptions struct {
	a       *app
	sess    string
	all     bool
	fold    bool
	context int
	json    bool
}

// errNoMatch is grep's "nothing found": exit 1 and nothing printed.
var errNoMatch = exitCodeError{code: exitNotFound1}

func newGrepCmd(a *app) *cobra.Command {
	o := &grepOptions{a: a}
	cmd := &cobra.Command{
		Use:   "grep TEXT [--session S | --all-sessions] [-i] [-C N] [--json]",
		Short: "Search what recorded commands printed",
		Long: `Search the current session's recordings, in sequence order, for TEXT as a
literal substring (regex characters are plain text), as a terminal shows
the output (a match inside coloured text is found). Each hit prints as

  SESSION/NAME:LINE:text          (stdout)
  SESSION/NAME:stderr:LINE:text   (stderr)

and with -C N context lines print as SESSION/NAME-LINE-text, groups
separated by "--". LINE is the stream's line number, as 'rac out read REF
--stream S --lines A:B' takes it. Exit status: 0 a match, 1 none, 2 any
error (an unknown session is an error, not "no match").`,
		Example: `  rac out grep 'error:'
  rac out grep -i -C 2 "connection refused"
  rac out grep --all-sessions 'ghp_'
  rac out grep --json 'FAIL'`,
		Args: exactArgs(1, "missing text: rac out grep TEXT"),
		RunE: o.run,
	}
	f := cmd.Flags()
	f.StringVar(&o.sess, "session", "", "search session `S` instead of the current one")
	f.BoolVar(&o.all, "all-sessions", false, "search every session")
	f.BoolVarP(&o.fold, "ignore-case", "i", false, "ignore ASCII case")
	f.IntVarP(&o.context, "context", "C", 0, "print `N` lines of context around each hit")
	f.BoolVar(&o.json, "json", false, "print one JSON object per hit (shape in README)")
	cmd.MarkFlagsMutuallyExclusive("session", "all-sessions")
	return cmd
}

// grepHit is the stable JSON shape of one hit.
type grepHit struct {
	Ref     string     `json:"ref"`
	Session string     `json:"session"`
	Name    string     `json:"name"`
	Stream  string     `json:"stream"`
	Line    int64      `json:"line"`
	Text    string     `json:"text"`
	Before  []grepLine `json:"before"`
	After   []grepLine `json:"after"`
}

type grepLine struct {
	Line int64  `json:"line"`
	Text string `json:"text"`
}

func (o *grepOptions) run(cmd *cobra.Command, args []string) error {
	err := o.search(args[0])
	if err == nil || errors.Is(err, errNoMatch) {
		return err
	}
	// grep's statuses: any error is 2, never 1 (which means no match)
	var ce exitCodeError
	if errors.As(err, &ce) {
		return err
	}
	printError(o.a.streams.Err, err)
	return exitCodeError{code: exitUsage}
}

func (o *grepOptions) search(text string) error {
	a := o.a
	if text == "" {
		return usagef("empty TEXT: rac out grep TEXT needs something to search for")
	}
	if o.context < 0 {
		return usagef("-C takes a number of lines from 0")
	}
	stores, err := a.readStores()
	if err != nil {
		return err
	}
	defer closeStores(stores)
	sessions, err := a.sessions(stores, sessionScope{name: o.sess, all: o.all})
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(a.streams.Out, 64<<10)
	defer func() { _ = w.Flush() }() // on early errors; the normal path checks it
	opts := record.GrepOptions{Text: text, IgnoreCase: o.fold, Context: o.context}
	hits := 0
	if o.context == 0 {
		// recordings searched on every core, printed in sequence order
		err = a.eachRecordingParallel(stores, sessions, func(rec *record.Recording) ([]byte, int, error) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			n := 0
			err := rec.Grep(opts, func(h record.Hit) error {
				n++
				if o.json {
					return enc.Encode(jsonHit(rec, h))
				}
				return writeHit(&buf, rec.Ref(), h, false)
			})
			return buf.Bytes(), n, err
		}, func(out []byte, n int) error {
			hits += n
			_, err := w.Write(out)
			return err
		})
	} else {
		err = o.searchWithContext(a, stores, sessions, opts, w, &hits)
	}
	if err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if hits == 0 {
		return errNoMatch
	}
	return nil
}

// searchWithContext prints hits with merged context, in one pass.
func (o *grepOptions) searchWithContext(a *app, stores []*store.Store, sessions []string, opts record.GrepOptions, w io.Writer, hits *int) error {
	enc := json.NewEncoder(w)
	var last groupEnd
	return a.eachRecording(stores, sessions, func(rec *record.Recording) error {
		return rec.Grep(opts, func(h record.Hit) error {
			*hits++
			if o.json {
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
			return writeHit(w, rec.Ref(), h, sep)
		})
	})
}

// groupEnd is where the last printed group of context ended.
type groupEnd struct {
	ref, stream string
	line        int64
}

func jsonHit(rec *record.Recording, h record.Hit) grepHit {
	conv := func(ls []record.Line) []grepLine {
		out := make([]grepLine, 0, len(ls))
		for _, l := range ls {
			out = append(out, grepLine{Line: l.N, Text: validUTF8(string(l.Text))})
		}
		return out
	}
	return grepHit{Ref: rec.Ref(), Session: rec.Session, Name: rec.Name, Stream: h.Stream, Line: h.N,
		Text: validUTF8(string(h.Text)), Before: conv(h.Before), After: conv(h.After)}
}

// writeHit prints a hit as grep does: ':' after a match's fields, '-'
// after a context line's, "--" between groups when there is context.
func writeHit(w io.Writer, ref string, h record.Hit, sep bool) error {
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
	return nil
}
