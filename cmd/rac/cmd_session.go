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
	}
	cmd.Flags().StringVar(&c.session, "session", "", "use session `NAME`")
	cmd.Flags().BoolVar(&explain, "explain", false, "say which rule chose the session and why")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: the session, its rule, and every rule's report")
	return cmd
}
