package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/termtext"
)

type readOptions struct {
	a      *app
	stream string
	head   int64
	tail   int64
	lines  string
	raw    bool
	json   bool
	follow bool

	changed func(string) bool
}

func newReadCmd(a *app) *cobra.Command {
	o := &readOptions{a: a}
	cmd := &cobra.Command{
		Use:   "read REF [--stream stdout|stderr] [--head N | --tail N | --lines A:B] [--raw] [--json] [--follow]",
		Short: "Print what a recorded command printed",
		Long: `Print a recording's output: both streams in arrival order, or one with
--stream. Text is cleaned as a terminal would show it (escape sequences
removed, \r overwrites, backspace erases) unless --raw, which prints the
exact recorded bytes. Line numbers count within each stream, as grep and
explain print them; --lines A:B prints exactly that range of one stream.
Notes (running, incomplete, cut) go to stderr.`,
		Example: `  rac out read last --tail 80
  rac out read 42 --stream stderr --lines 120:160
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-make --follow
  rac out read 0042-git-p --raw > out.bin`,
		Args: exactArgs(1, "missing reference: rac out read REF (run 'rac out list' to see them)"),
		RunE: o.run,
	}
	f := cmd.Flags()
	f.StringVar(&a.sessionFlag, "session", "", "resolve short references in session `S`")
	f.StringVar(&o.stream, "stream", "", "only this stream: stdout or stderr")
	f.Int64Var(&o.head, "head", 0, "only the first `N` lines")
	f.Int64Var(&o.tail, "tail", 0, "only the last `N` lines (reads from the end)")
	f.StringVar(&o.lines, "lines", "", "only lines `A:B` of one stream (A:, :B and A also work)")
	f.BoolVar(&o.raw, "raw", false, "print the exact recorded bytes")
	f.BoolVar(&o.json, "json", false, "print one JSON object per line: stream, line, text")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing a running recording until it ends")
	cmd.MarkFlagsMutuallyExclusive("head", "tail", "lines", "follow")
	cmd.MarkFlagsMutuallyExclusive("raw", "json")
	o.changed = cmd.Flags().Changed
	return cmd
}

func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s", msg)
		}
		return nil
	}
}

// parseLines reads A:B, A: (to the end), :B (from the start) or A.
func parseLines(s string) (from, to int64, err error) {
	a, b, colon := strings.Cut(s, ":")
	bad := usagef("invalid --lines %q: use A:B with line numbers from 1 (e.g. --lines 120:160)", s)
	if a != "" {
		if from, err = strconv.ParseInt(a, 10, 64); err != nil || from < 1 {
			return 0, 0, bad
		}
	} else {
		from = 1
	}
	switch {
	case !colon:
		to = from
	case b != "":
		if to, err = strconv.ParseInt(b, 10, 64); err != nil || to < from {
			return 0, 0, bad
		}
	}
	return from, to, nil
}

// readLine is the JSON shape of one line of read --json.
type readLine struct {
	Stream string `json:"stream"`
	Line   int64  `json:"line"`
	Text   string `json:"text"`
	Marker bool   `json:"marker,omitempty"`
}

func (o *readOptions) run(cmd *cobra.Command, args []string) error {
	a := o.a
	if o.stream != "" && o.stream != record.Stdout && o.stream != record.Stderr {
		return usagef("invalid --stream %q: use stdout or stderr", o.stream)
	}
	if o.head < 0 || o.tail < 0 {
		return usagef("--head and --tail take a number of lines from 0")
	}
	if (o.changed("head") && o.head == 0) || (o.changed("tail") && o.tail == 0) {
		// as head -n 0: nothing, but the reference is still checked
		rec, err := a.openRef(args[0])
		if err == nil {
			rec.Close()
		}
		return err
	}
	lo := record.LineOptions{Stream: o.stream, Head: o.head, Tail: o.tail}
	if o.lines != "" {
		var err error
		if lo.From, lo.To, err = parseLines(o.lines); err != nil {
			return err
		}
	}
	rec, err := a.openRef(args[0])
	if err != nil {
		return err
	}
	defer rec.Close()
	if o.lines != "" && lo.Stream == "" {
		if lo.Stream, err = onlyStream(rec); err != nil {
			return err
		}
	}
	if !o.follow {
		noteStatus(a, rec)
	}
	w := bufio.NewWriterSize(a.streams.Out, 64<<10)
	defer func() { _ = w.Flush() }() // on early errors; the normal path checks it
	if o.raw && o.head == 0 && o.tail == 0 && o.lines == "" && !o.follow {
		cuts, err := rec.CopyRaw(w, o.stream)
		for stream, c := range cuts {
			fmt.Fprintf(a.streams.Err, "rac: %s: %s (at byte %d of what --raw prints)\n", rec.Ref(), record.CutMarker(stream, c), c.HeadEnd)
		}
		if err != nil {
			return err
		}
		return w.Flush()
	}
	enc := json.NewEncoder(w)
	print := func(l record.Line) error {
		if o.json {
			text := l.Text
			if !l.Marker {
				text = termtext.CleanLine(text)
			}
			return enc.Encode(readLine{Stream: l.Stream, Line: l.N, Text: validUTF8(string(text)), Marker: l.Marker})
		}
		text := l.Text
		if !o.raw && !l.Marker {
			text = termtext.CleanLine(text)
		}
		w.Write(text)
		if l.NL || !o.raw || l.Marker {
			w.WriteByte('\n')
		}
		if o.follow {
			return w.Flush()
		}
		return nil
	}
	if o.follow {
		return o.followRec(rec, w, print)
	}
	printed := 0
	err = rec.Lines(lo, func(l record.Line) error { printed++; return print(l) })
	if err != nil {
		return err
	}
	if printed == 0 && lo.From > 0 {
		// say why nothing came, instead of a silent empty answer
		fmt.Fprintf(a.streams.Err, "rac: %s: %s has no lines %s (it has %d lines)\n", rec.Ref(), lo.Stream, o.lines, rec.StreamLines(lo.Stream))
	}
	return w.Flush()
}

func (o *readOptions) followRec(rec *record.Recording, w *bufio.Writer, print func(record.Line) error) error {
	wait, done := rec.WaitFunc(500 * time.Millisecond)
	defer done()
	if err := rec.Follow(record.FollowOptions{Stream: o.stream, Wait: wait}, print); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(o.a.streams.Err, "rac: %s %s\n", rec.Ref(), outcomeText(rec))
	return nil
}

// onlyStream picks the stream for --lines when none was named: the only
// stream with output.
func onlyStream(rec *record.Recording) (string, error) {
	var with []string
	for _, s := range rec.Streams() {
		if rec.StreamSize(s) > 0 {
			with = append(with, s)
		}
	}
	switch len(with) {
	case 0:
		return record.Stdout, nil
	case 1:
		return with[0], nil
	}
	return "", usagef("%s has output on both streams: add --stream stdout or --stream stderr to --lines", rec.Ref())
}

// outcomeText says how a recording ended, in words.
func outcomeText(rec *record.Recording) string {
	f := rec.Footer
	switch {
	case rec.Status == record.StatusRunning:
		return "is still running"
	case rec.Status == record.StatusIncomplete:
		return "is incomplete: the recorder stopped before the command ended"
	case f == nil:
		return rec.Status
	case f.Status == record.StatusExited && f.ExitCode != nil:
		return fmt.Sprintf("exited with code %d", *f.ExitCode)
	case f.Status == record.StatusSignaled:
		return "was killed by " + f.Signal
	case f.Status == record.StatusTimedOut:
		return "timed out"
	case f.Status == record.StatusFailedToStart:
		return "failed to start"
	}
	return f.Status
}

// openRef resolves a reference against the current session.
func (a *app) openRef(ref string) (*record.Recording, error) {
	id, err := a.identify()
	if err != nil {
		return nil, err
	}
	stores, err := a.readStores()
	if err != nil {
		return nil, err
	}
	defer closeStores(stores)
	return resolve.Open(stores, id.Name, ref)
}

// noteStatus tells, on stderr, what the reader should know about a
// recording that is not simply finished.
func noteStatus(a *app, rec *record.Recording) {
	switch rec.Status {
	case record.StatusRunning:
		fmt.Fprintf(a.streams.Err, "rac: %s is still running; this is its output so far (add --follow to wait for the rest)\n", rec.Ref())
	case record.StatusIncomplete:
		fmt.Fprintf(a.streams.Err, "rac: %s is incomplete: the recorder stopped before the command ended; this is the output it kept\n", rec.Ref())
	default:
		if rec.Footer != nil && rec.Footer.BrokenOff {
			fmt.Fprintf(a.streams.Err, "rac: %s was broken off (the store failed while recording); this is the output it kept\n", rec.Ref())
		}
	}
}
