package main

import (
	"bufio"
	"fmt"

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
	raw    bool
}

func newReadCmd(a *app) *cobra.Command {
	o := &readOptions{a: a}
	cmd := &cobra.Command{
		Use:   "read REF [--stream stdout|stderr] [--head N] [--tail N] [--raw]",
		Short: "Print what a recorded command printed",
		Long: `Print a recording's output: both streams in arrival order, or one with
--stream. Text is cleaned as a terminal would show it (escape sequences
removed, \r overwrites, backspace erases) unless --raw, which prints the
exact recorded bytes. Notes (running, incomplete) go to stderr.`,
		Example: `  rac out read last
  rac out read 42 --tail 80
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push --stream stderr
  rac out read 0042-git-p --raw > out.bin`,
		Args: exactArgs(1, "rac out read needs one reference: rac out read REF"),
		RunE: o.run,
	}
	f := cmd.Flags()
	f.StringVar(&a.sessionFlag, "session", "", "resolve short references in session `S`")
	f.StringVar(&o.stream, "stream", "", "only this stream: stdout or stderr")
	f.Int64Var(&o.head, "head", 0, "only the first `N` lines")
	f.Int64Var(&o.tail, "tail", 0, "only the last `N` lines (reads from the end)")
	f.BoolVar(&o.raw, "raw", false, "print the exact recorded bytes")
	cmd.MarkFlagsMutuallyExclusive("head", "tail")
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

func (o *readOptions) run(cmd *cobra.Command, args []string) error {
	a := o.a
	if o.stream != "" && o.stream != record.Stdout && o.stream != record.Stderr {
		return usagef("invalid --stream %q: use stdout or stderr", o.stream)
	}
	if o.head < 0 || o.tail < 0 {
		return usagef("--head and --tail take a positive number of lines")
	}
	rec, err := a.openRef(args[0])
	if err != nil {
		return err
	}
	defer rec.Close()
	noteStatus(a, rec)
	w := bufio.NewWriterSize(a.streams.Out, 64<<10)
	if o.raw && o.head == 0 && o.tail == 0 {
		if err := rec.CopyRaw(w, o.stream); err != nil {
			return err
		}
		return w.Flush()
	}
	err = rec.Lines(record.LineOptions{Stream: o.stream, Head: o.head, Tail: o.tail}, func(l record.Line) error {
		text := l.Text
		if !o.raw {
			text = termtext.CleanLine(text)
		}
		w.Write(text)
		if l.NL || !o.raw {
			w.WriteByte('\n')
		}
		return nil
	})
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	return err
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
		fmt.Fprintf(a.streams.Err, "rac: %s is still running; this is its output so far\n", rec.Ref())
	case record.StatusIncomplete:
		fmt.Fprintf(a.streams.Err, "rac: %s is incomplete: the recorder stopped before the command ended; this is the output it kept\n", rec.Ref())
	default:
		if rec.Footer != nil && rec.Footer.BrokenOff {
			fmt.Fprintf(a.streams.Err, "rac: %s was broken off (the store failed while recording); this is the output it kept\n", rec.Ref())
		}
	}
}
