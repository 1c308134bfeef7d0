package main

import (
	"errors"
	"math"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newRmCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:               "rm REF...",
		ValidArgsFunction: c.completeRefs,
		Short:             "Remove recordings now, leaving tombstones",
		Args:              argsBetween(1, math.MaxInt, "rac out rm needs at least one reference: rac out rm REF...", ""),
		RunE: func(cmd *cobra.Command, args []string) error {
			res, err := c.app.Remove(cmd.Context(), args)
			for _, e := range res.RefErrors {
				c.printError(e, "rac out rm")
			}
			if errors.Is(err, app.ErrNothingRemoved) {
				c.p.Infof("nothing was removed")
				return app.RemoveExit(res)
			}
			if err != nil {
				return err
			}
			c.reportRemoval(res)
			for _, r := range res.Results {
				for _, rec := range r.Recordings {
					c.p.Infof("removed %s (%s)", rec.Ref, ui.Bytes(rec.Bytes))
				}
			}
			return app.RemoveExit(res)
		},
		Long: `Remove the recordings REF names now (a secret that slipped through, an
output you do not want kept). Each leaves a tombstone for 30 days, so
reading it answers "expired (removed by user ...)"; the tombstone keeps the
number and a hash of the name, never the name or the command. A running
recording is not removed. When a reference is invalid or ambiguous nothing
is removed; one not found (or already expired) is reported and the rest go.
Exit status: 0 all removed, 1 one was not found or is running, 2 a
reference is invalid or ambiguous.`,
		Example: `  rac out rm last
  rac out rm 0007-curl 0008-curl
  rac out rm claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-curl`,
	}
	cmd.Flags().StringVar(&c.session, "session", "", "resolve short references in session `S`")
	return cmd
}

// reportRemoval prints what rm or purge could not do (app.RemoveExit
// gives the status it calls for).
func (c *cli) reportRemoval(res app.RemoveResult) {
	for _, err := range res.Errors {
		c.printError(err, "")
	}
	for _, r := range res.Results {
		for _, k := range r.Kept {
			c.p.Infof("%s is %s; it was not removed (remove it once it has ended)", k.Ref, k.Why)
		}
		for _, e := range r.Errors {
			c.p.Infof("%s", e)
		}
	}
}
