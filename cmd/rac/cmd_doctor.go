package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newDoctorCmd is not built yet.
func newDoctorCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "doctor",
		Short:  "Check rac's set-up and say how to fix each problem",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
