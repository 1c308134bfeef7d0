package main

import (
	"encoding/json"
	"fmt"

	"github.com/rac-cli/rac/internal/ui"
	"github.com/spf13/cobra"
)

func newSessionCmd(c *cli) *cobra.Command {
	var explain, asJSON bool
	cmd := &cobra.Command{
		Use:   "session [--explain] [--json]",
		Short: "Print the current session's name",
		Long: `Print the name of the session this shell records into and reads short
references from. --explain prints every rule in order, what it saw and why
it was or was not taken, so you can see why two shells do or do not share a
session.`,
		Example: `  rac session
  rac session --explain
  rac session --json
  RAC_SESSION=my-task rac session`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			id, view, err := c.app.Session()
			if err != nil {
				return err
			}
			out := c.streams.Out
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(view)
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
