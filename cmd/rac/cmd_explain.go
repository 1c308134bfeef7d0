package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/explain"
	"github.com/rac-cli/rac/internal/record"
)

type explainOptions struct {
	a    *app
	json bool
}

func newExplainCmd(a *app) *cobra.Command {
	o := &explainOptions{a: a}
	cmd := &cobra.Command{
		Use:   "explain REF [--json]",
		Short: "Say what failed, in a few lines",
		Long: `Print the command, its directory, how it ended and how long it ran, then
up to four distinct output lines most likely to be the cause (most likely
first), each as STREAM:LINE: text so you can read around it with
'rac out read REF --stream STREAM --lines A:B'; or, when no line looks like
an error, the last lines. At most 11 lines; --json prints one object of at
most 8 KiB. Everything printed passes through the secret redactor.`,
		Example: `  rac out explain last
  rac out explain claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0007-git-push
  rac out explain 42 --json`,
		Args: exactArgs(1, "missing reference: rac out explain REF (run 'rac out list' to see them)"),
		RunE: o.run,
	}
	cmd.Flags().StringVar(&a.sessionFlag, "session", "", "resolve short references in session `S`")
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON object of at most 8 KiB (shape in README)")
	return cmd
}

func (o *explainOptions) run(cmd *cobra.Command, args []string) error {
	a := o.a
	red, err := a.redactor()
	if err != nil {
		return err
	}
	rec, err := a.openRef(args[0])
	if err != nil {
		return err
	}
	defer rec.Close()
	in := explain.Input{Meta: explainMeta(rec), Redact: red.String, Now: a.now}
	for _, s := range rec.Streams() {
		pieces, closeFn, err := rec.Pieces(s)
		if err != nil {
			return err
		}
		defer closeFn()
		for _, p := range pieces {
			in.Streams = append(in.Streams, explain.Stream{Name: s, R: p.R, FirstLine: int(p.FirstLine)})
		}
	}
	rep, err := explain.Explain(in)
	if err != nil {
		return err
	}
	if o.json {
		b, err := rep.JSON()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(a.streams.Out, "%s\n", b)
		return err
	}
	return rep.WriteText(a.streams.Out)
}

func explainMeta(rec *record.Recording) explain.Meta {
	m := explain.Meta{
		Ref: rec.Ref(), Argv: rec.Meta.Argv, Cwd: rec.Meta.Cwd, Status: rec.Status,
		StartedAt: rec.Meta.StartedAt,
	}
	if f := rec.Footer; f != nil {
		m.ExitCode = f.ExitCode
		m.Signal = f.Signal
		t := f.EndedAt
		m.EndedAt = &t
		for _, n := range f.Redactions {
			m.Redactions += n
		}
	}
	var notes []string
	if cuts, err := rec.Cuts(); err == nil {
		for _, s := range rec.Streams() {
			if c, ok := cuts[s]; ok {
				m.Truncated = true
				notes = append(notes, fmt.Sprintf("%d bytes (%d lines) of %s cut, head and tail kept", c.DroppedBytes, c.DroppedLines, s))
			}
		}
	}
	if f := rec.Footer; f != nil {
		// why it failed to start, a drain that timed out, a broken pipe
		notes = append(notes, f.Notes...)
	}
	m.Note = strings.Join(notes, "; ")
	return m
}
