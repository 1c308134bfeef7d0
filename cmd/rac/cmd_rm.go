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
