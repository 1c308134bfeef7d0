package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/gc"
)

func newRmCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rm REF...",
		Short: "Remove recordings now, leaving tombstones",
		Long: `Remove the recordings REF names now (a secret that slipped through, an
output you do not want kept). Each leaves a tombstone for 30 days, so
reading it answers "expired (removed by user ...)"; the tombstone keeps the
number and a hash of the name, never the name or the command. A running
recording is not removed. When a reference is invalid or ambiguous nothing
is removed; one not found (or already expired) is reported and the rest go.`,
		Example: `  rac out rm last
  rac out rm claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-curl 0004-curl`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.Usagef("rac out rm needs at least one reference: rac out rm REF...")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			res, err := c.app.Remove(args)
			errw := c.streams.Err
			status := exitOK
			for _, e := range res.RefErrors {
				printError(errw, e)
				status = max(status, exitStatus(e, false))
			}
			if errors.Is(err, app.ErrNothingRemoved) {
				fmt.Fprintf(errw, "rac: nothing was removed\n")
				return exitCodeError{code: status}
			}
			if err != nil {
				return err
			}
			status = max(status, reportRemoval(errw, res))
			for _, r := range res.Results {
				for _, rec := range r.Recordings {
					fmt.Fprintf(errw, "rac: removed %s (%s)\n", rec.Ref, gc.FormatBytes(rec.Bytes))
				}
			}
			if status != exitOK {
				return exitCodeError{code: status}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&c.session, "session", "", "resolve short references in session `S`")
	return cmd
}

// reportRemoval prints what rm or purge could not do and returns the exit
// status it calls for.
func reportRemoval(w io.Writer, res app.RemoveResult) int {
	status := exitOK
	for _, err := range res.Errors {
		printError(w, err)
		status = exitNotFound1
	}
	for _, r := range res.Results {
		for _, k := range r.Kept {
			fmt.Fprintf(w, "rac: %s is %s; it was not removed (remove it once it has ended)\n", k.Ref, k.Why)
			status = exitNotFound1
		}
		for _, e := range r.Errors {
			fmt.Fprintf(w, "rac: %s\n", escapeControl(e))
			status = exitNotFound1
		}
	}
	return status
}
