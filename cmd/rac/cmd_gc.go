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
		Long: `Apply retention now (rac run also does it, at most once per gc.interval,
default 1h): remove sessions older than gc.max_age (default 7d, by the
newest file of their recordings); then in each session over
gc.max_session_bytes (256MiB) its oldest finished recordings until it
fits; then, while the store is over gc.max_store_bytes (2GiB), the oldest
finished recordings of any session. Running recordings are never removed.
Every removed recording leaves a tombstone for 30 days: reading it says
when and why it expired. Set the limits with RAC_GC_MAX_AGE=2d and the
like, or in the config file ('rac config' shows them).

--dry-run prints on stdout what would go and why, and changes nothing.
--json prints one object: dry_run, removed_sessions, removed_recordings,
freed_bytes, and the lists stores, sessions, recordings, temporaries,
kept, unrecognised and errors. Exit status 1 when something could not be
removed or a limit could not be met.`,
		Example: `  rac out gc --dry-run
  rac out gc
  rac out gc --json`,
	}
	f := cmd.Flags()
	f.BoolVar(&dryRun, "dry-run", false, "print what would be removed and why; change nothing")
	f.BoolVar(&asJSON, "json", false, "print the result as a JSON object: what was removed, kept and why")
	f.BoolVar(&background, "background", false, "the detached pass of automatic gc")
	_ = f.MarkHidden("background")
	return cmd
}
