package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

type readOptions struct {
	c   *cli
	req app.ReadRequest
}

func newReadCmd(c *cli) *cobra.Command {
	o := &readOptions{c: c}
	cmd := &cobra.Command{
		Use:   "read REF [--stream stdout|stderr|combined] [--head N | --tail N | --lines A:B] [--raw] [--json] [--follow]",
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
		Args: exactArgs(1, "missing reference: rac out read REF (run 'rac out list' to see them)", "rac out read takes one reference"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.req.Ref = args[0]
			o.req.HeadSet, o.req.TailSet = cmd.Flags().Changed("head"), cmd.Flags().Changed("tail")
			ended, err := c.app.Read(o.req, c.streams.Out)
			if ended != nil {
				c.p.Infof("%s %s", ended.Ref, ui.Outcome(ended.Status, ended.ExitCode, ended.Signal))
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.session, "session", "", "resolve short references in session `S`")
	f.StringVar(&o.req.Stream, "stream", "", "only this stream: stdout, stderr (or combined, the one stream of a pty or 2>&1 recording)")
	f.Int64Var(&o.req.Head, "head", 0, "only the first `N` lines")
	f.Int64Var(&o.req.Tail, "tail", 0, "only the last `N` lines (reads from the end)")
	f.StringVar(&o.req.Lines, "lines", "", "only lines `A:B` of one stream (A:, :B and A also work)")
	f.BoolVar(&o.req.Raw, "raw", false, "print the exact recorded bytes")
	f.BoolVar(&o.req.JSON, "json", false, "print one JSON object per line: stream, line, text")
	f.BoolVarP(&o.req.Follow, "follow", "f", false, "keep printing a running recording until it ends")
	cmd.MarkFlagsMutuallyExclusive("head", "tail", "lines", "follow")
	cmd.MarkFlagsMutuallyExclusive("raw", "json")
	return cmd
}
