package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newListCmd(c *cli) *cobra.Command {
	var sc app.Scope
	var asJSON, tree bool
	cmd := &cobra.Command{
		Use:   "list [--session S | --all-sessions] [--tree] [--json]",
		Short: "List the recordings of the current session",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			res, err := c.app.List(cmd.Context(), sc)
			switch {
			case err != nil:
				return err
			case asJSON:
				return ui.JSON(c.streams.Out, res.Entries)
			case len(res.Entries) == 0 && !sc.All:
				c.p.Infof("no recordings in session %q ('rac out list --all-sessions' shows every session)", res.Sessions[0])
			}
			o := ui.ListOptions{Now: c.env.Now(), Width: c.streams.TerminalWidth(), Tree: tree}
			if !sc.All {
				o.Session = res.Sessions[0]
			}
			return ui.ListTable(c.streams.Out, c.streams.OutColors(), listRows(res.Entries), o)
		},
		Long: `List recordings by start time, the newest last, under a header: name (the
session is shown once above; with --all-sessions each row has its full
SESSION/NAME reference), status (exit N, a signal, timed out, running,
incomplete; ", cut" when capped), how long ago it started, how long it
ran, bytes received and the command, cut with "…" to the terminal's width
(never cut into a pipe). --tree nests a recording under the recorded
command it ran under. --json prints the same recordings in the same order.`,
		Example: `  rac out list
  rac out list --all-sessions --tree
  rac out list --session my-task --json`,
	}
	cmd.Flags().StringVar(&sc.Session, "session", "", "list session `S` instead of the current one")
	cmd.Flags().BoolVar(&sc.All, "all-sessions", false, "list every session")
	cmd.Flags().BoolVar(&tree, "tree", false, "nest each recording under the recorded command it ran under")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of recordings")
	cmd.MarkFlagsMutuallyExclusive("session", "all-sessions")
	return cmd
}

func listRows(entries []app.ListEntry) []ui.ListRow {
	rows := make([]ui.ListRow, len(entries))
	for i, e := range entries {
		rows[i] = ui.ListRow{Ref: e.Ref, Session: e.Session, Name: e.Name, Parent: e.Parent, Argv: e.Argv,
			Status: e.Status, ExitCode: e.ExitCode, StartedAt: e.StartedAt, EndedAt: e.EndedAt,
			Bytes: e.StdoutBytes + e.StderrBytes + e.CombinedBytes, DiskBytes: e.DiskBytes,
			Truncated: e.Truncated, Signal: deref(e.Signal)}
		if g := e.Agent; g != nil {
			rows[i].Agent = strings.TrimSpace(g.Model + " " + g.Outcome)
			if rows[i].Agent == "" {
				rows[i].Agent = g.Kind
			}
		}
	}
	return rows
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
