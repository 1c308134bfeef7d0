package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newDoctorCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check rac's set-up and say how to fix each problem",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			checks := append([]app.Check{app.ConfigCheck(c.configProblems)}, c.app.Doctor(app.DoctorEnv{})...)
			if asJSON {
				_ = ui.JSON(c.streams.Out, checks) // as the lines: a failed write is not a failed check
			} else {
				printChecks(c, checks)
			}
			return app.DoctorExit(checks)
		},
		Long: `Check that rac is on PATH, where recordings go (the store, or the fallback a
sandbox leaves), the session this shell lands in and why, which agent
harnesses have rac's hooks, that redaction is on, and when gc last ran.
Each problem comes with the command that fixes it. Exit status 1 when a
check fails, else 0. doctor changes nothing.`,
		Example: `  rac doctor
  rac doctor --json`,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as a JSON array")
	return cmd
}

// printChecks writes one line per check, its state first, and the fix
// under a problem.
func printChecks(c *cli, checks []app.Check) {
	pal := c.streams.OutColors()
	state := map[string]ui.Style{app.CheckOK: pal.OK, app.CheckWarn: pal.Warn, app.CheckFail: pal.Failed}
	for _, ch := range checks {
		fmt.Fprintf(c.streams.Out, "%s %s: %s\n", state[ch.Status].Sprintf("%-4s", ch.Status), ch.Name, ui.EscapeLine(ch.Detail))
		if ch.Fix != "" {
			label := "fix"
			if ch.Status == app.CheckOK {
				label = "tip"
			}
			fmt.Fprintf(c.streams.Out, "     %s: %s\n", label, ui.EscapeLine(ch.Fix))
		}
	}
}
