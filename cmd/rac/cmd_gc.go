package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newGCCmd(c *cli) *cobra.Command {
	var dryRun, asJSON, background bool
	cmd := &cobra.Command{
		Use:   "gc [--dry-run] [--json]",
		Short: "Remove old recordings now, as the retention settings say",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			res, err := c.app.GC(cmd.Context(), dryRun, background)
			if background || res == nil {
				return err
			}
			if asJSON {
				b, jerr := json.MarshalIndent(res, "", "  ")
				if jerr != nil {
					return jerr
				}
				fmt.Fprintf(c.streams.Out, "%s\n", b)
			} else {
				if dryRun {
					ui.GCPlan(c.streams.Out, res)
				}
				ui.GCSummary(c.p, res)
			}
			if errors.Is(err, app.ErrReported) {
				return app.ExitCode{Code: app.ExitNotFound} // said above, or in the JSON
			}
			return err
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dryRun, "dry-run", false, "print what would be removed and why; change nothing")
	f.BoolVar(&asJSON, "json", false, "print the result as a JSON object: what was removed, kept and why")
	f.BoolVar(&background, "background", false, "the detached pass of automatic gc")
	_ = f.MarkHidden("background")
	return cmd
}
