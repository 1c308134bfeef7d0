package main

import (
	"fmt"

	"github.com/rac-cli/rac/internal/ui"
	"github.com/spf13/cobra"
)

func newSessionCmd(c *cli) *cobra.Command {
	var explain, asJSON bool
	cmd := &cobra.Command{
		Use:   "session [--explain] [--json]",
		Short: "Print the current session's name",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			id, view, err := c.app.Session()
			if err != nil {
				return err
			}
			out := c.streams.Out
			if asJSON {
				return ui.JSON(out, view)
			}
			fmt.Fprintln(out, id.Name)
			if explain {
				return id.WriteExplain(ui.EscapingWriter(out))
			}
			return nil
		},
		Long: `Print the name of the session this shell records into and reads short
references from. --explain prints every rule in order, what it saw and why
it was or was not taken, so you can see why two shells do or do not share a
session. An agent's conversation id makes its session; elsewhere each
terminal pane has its own. To share one between terminals, export the
same RAC_SESSION=NAME in each (NAME matches [a-z0-9][a-z0-9._-]{0,63}).
--json prints one object: name, rule, source, var,
from_agent and rules (each: rule, taken, reached, saw, why, hint).`,
		Example: `  rac session
  rac session --explain
  rac session --session my-task --json`,
	}
	cmd.Flags().StringVar(&c.session, "session", "", "use session `NAME`")
	cmd.Flags().BoolVar(&explain, "explain", false, "say which rule chose the session and why")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: the session, its rule, and every rule's report")
	return cmd
}
