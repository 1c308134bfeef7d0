package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

// newReadCmd is rac out read, or (use "last") rac out last: read without
// a reference.
func newReadCmd(c *cli, use string) *cobra.Command {
	var req app.ReadRequest
	cmd := &cobra.Command{
		Use:               use + " [--stream stdout|stderr|combined] [--head N | --tail N | --lines A:B] [--raw] [--json] [--follow] [--no-pager]",
		Short:             "Print what a recorded command printed (no REF: the newest recording)",
		Args:              argsBetween(0, 1, "", "rac out read takes one reference"),
		ValidArgsFunction: c.completeRef,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Ref = "last"
			if len(args) > 0 {
				req.Ref = args[0]
			}
			req.HeadSet, req.TailSet = cmd.Flags().Changed("head"), cmd.Flags().Changed("tail")
			req.Colour = c.streams.OutColors().Enabled()
			c.streams.StartPager(c.app.Pager(req, c.settings.Read.Pager.V, c.streams.IsStdoutTTY()))
			ended, err := c.app.Read(cmd.Context(), req, c.streams.Out)
			if ended != nil {
				c.p.Infof("%s %s", ended.Ref, ui.Outcome(ended.Status, ended.ExitCode, ended.Signal))
			}
			return c.streams.StopPager(err)
		},
		Long: readLong,
		Example: `  rac out read --tail 80
  rac out read 42 --stream stderr --lines 120:160
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-make --follow
  rac out read 0042-git-p --raw > out.bin`,
	}
	if use == "last" {
		cmd.Short = "Print what the newest recording printed (rac out read with no REF)"
		cmd.Example = `  rac out last
  rac out last --tail 80 --no-pager
  rac out last --stream stderr --follow`
		cmd.Args, cmd.ValidArgsFunction = argsBetween(0, 0, "", "rac out last takes no reference ('rac out read REF' reads another)"), nil
	}
	f := cmd.Flags()
	f.StringVar(&c.session, "session", "", "resolve short references in session `S`")
	f.StringVar(&req.Stream, "stream", "", "only this stream: stdout, stderr (or combined, the one stream of a pty or 2>&1 recording)")
	f.Int64Var(&req.Head, "head", 0, "only the first `N` lines")
	f.Int64Var(&req.Tail, "tail", 0, "only the last `N` lines (reads from the end)")
	f.StringVar(&req.Lines, "lines", "", "only lines `A:B` of one stream (A:, :B and A also work)")
	f.BoolVar(&req.Raw, "raw", false, "print the exact recorded bytes")
	f.BoolVar(&req.JSON, "json", false, "print one JSON object per line: stream, line, text")
	f.BoolVarP(&req.Follow, "follow", "f", false, "keep printing a running recording until it ends")
	f.BoolVar(&req.NoPager, "no-pager", false, "never page, even on a terminal")
	cmd.MarkFlagsMutuallyExclusive("head", "tail", "lines", "follow")
	cmd.MarkFlagsMutuallyExclusive("raw", "json")
	return cmd
}

// readLong is the long help of rac out read, and of rac out last (read
// without a reference).
const readLong = `Print a recording's output: both streams in arrival order, or one with
--stream. Text is cleaned as a terminal would show it (escape sequences
removed, \r overwrites, backspace erases); where rac's colour is on (a
terminal, --color always) the recording's own colours are kept. --raw
prints the exact recorded bytes.
Line numbers count within each stream, as grep and explain print them.
Without REF (and as rac out last) it reads the newest recording. On a
terminal the text goes through a pager as git's does: read.pager, else
$RAC_PAGER, else $PAGER, else less -R (LESS=FRX when LESS is unset); never
into a pipe, with --no-pager, --raw or --follow, or under an agent.
Notes (running, incomplete, cut) go to stderr.`
