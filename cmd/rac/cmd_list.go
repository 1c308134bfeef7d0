package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
)

type listOptions struct {
	c     *cli
	scope app.Scope
	json  bool
}

func newListCmd(c *cli) *cobra.Command {
	o := &listOptions{c: c}
	cmd := &cobra.Command{
		Use:   "list [--session S | --all-sessions] [--json]",
		Short: "List the recordings of the current session",
		Long: `List recordings by sequence number: reference, status, start time,
duration, size and command. Another session is listed only when named with
--session or with --all-sessions.`,
		Example: `  rac out list
  rac out list --json
  rac out list --session my-task
  rac out list --all-sessions`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return o.run() },
	}
	cmd.Flags().StringVar(&o.scope.Session, "session", "", "list session `S` instead of the current one")
	cmd.Flags().BoolVar(&o.scope.All, "all-sessions", false, "list every session")
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array of recordings")
	cmd.MarkFlagsMutuallyExclusive("session", "all-sessions")
	return cmd
}

func (o *listOptions) run() error {
	c := o.c
	res, err := c.app.List(o.scope)
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(c.streams.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res.Entries)
	}
	if len(res.Entries) == 0 && !o.scope.All {
		c.p.Infof("no recordings in session %q ('rac out list --all-sessions' shows every session)", res.Sessions[0])
	}
	return writeListTable(c.streams.Out, res.Entries, c.env.Now())
}
