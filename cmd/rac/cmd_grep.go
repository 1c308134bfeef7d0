package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newGrepCmd(c *cli) *cobra.Command {
	var req app.GrepRequest
	cmd := &cobra.Command{
		Use:   "grep TEXT [--session S | --all-sessions] [-i] [-C N] [--json]",
		Short: "Search what recorded commands printed",
		Args:  exactArgs(1, "missing text: rac out grep TEXT", "rac out grep takes one TEXT (quote it when it has spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Text = args[0]
			req.Write = ui.GrepWriter(c.streams.OutColors())
			return app.GrepExit(c.app.Grep(cmd.Context(), req, c.streams.Out))
		},
	}
	f := cmd.Flags()
	f.StringVar(&req.Scope.Session, "session", "", "search session `S` instead of the current one")
	f.BoolVar(&req.Scope.All, "all-sessions", false, "search every session")
	f.BoolVarP(&req.IgnoreCase, "ignore-case", "i", false, "ignore ASCII case")
	f.IntVarP(&req.Context, "context", "C", 0, "print `N` lines of context around each hit")
	f.BoolVar(&req.JSON, "json", false, "print one JSON object per hit: ref, stream, line, text, context")
	cmd.MarkFlagsMutuallyExclusive("session", "all-sessions")
	return cmd
}
