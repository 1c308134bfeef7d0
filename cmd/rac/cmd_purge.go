package main

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newPurgeCmd(c *cli) *cobra.Command {
	var req app.PurgeRequest
	var yes bool
	cmd := &cobra.Command{
		Use:   "purge --session S | --all [--yes]",
		Short: "Remove every recording of a session, or of every session, now",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !yes {
				req.Confirm = c.confirmPurge
			}
			res, err := c.app.Purge(cmd.Context(), req)
			if err != nil {
				return err
			}
			c.reportRemoval(res)
			total := res.Total()
			if len(res.Errors) > 0 && total.RemovedRecordings == 0 && total.RemovedSessions == 0 {
				return app.RemoveExit(res) // said above: no "removed 0" after why
			}
			c.p.Infof("purge removed %s, %s, %s", ui.Plural(total.RemovedSessions, "session"),
				ui.Plural(total.RemovedRecordings, "recording"), ui.Bytes(max(total.FreedBytes, 0)))
			return app.RemoveExit(res)
		},
		Long: `Remove every recording of session S (or of every session with --all) now,
leaving tombstones that say "removed by user". Session folders keep their
counters, so a session used again never reuses a number. Running
recordings are not removed. Without --yes rac asks on the terminal; when
stdin is not a terminal it refuses (exit status 2) and asks for --yes.
'rac out list --session S' shows first what would go.`,
		Example: `  rac out purge --session my-task
  rac out purge --session my-task --yes
  rac out purge --all --yes`,
	}
	f := cmd.Flags()
	f.StringVar(&req.Session, "session", "", "purge session `S`")
	f.BoolVar(&req.All, "all", false, "purge every session")
	f.BoolVar(&yes, "yes", false, "do not ask for confirmation")
	return cmd
}

// confirmPurge asks on the terminal; without one it refuses.
func (c *cli) confirmPurge(what string) (bool, error) {
	if !c.streams.IsStdinTTY() {
		return false, app.Usagef("purge would remove every recording of %s; pass --yes to confirm (stdin is not a terminal, so rac cannot ask)", what)
	}
	fmt.Fprintf(c.streams.Err, "rac: remove every recording of %s? [y/N] ", what)
	line, _ := bufio.NewReader(c.streams.In).ReadString('\n')
	ans := strings.ToLower(strings.TrimSpace(line))
	return ans == "y" || ans == "yes", nil
}
