package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newHookCmd is not built yet.
func newHookCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "hook",
		Short:  "Agent harness hooks (not for people)",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
