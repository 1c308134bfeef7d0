package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newCompletionCmd is not built yet.
func newCompletionCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "completion",
		Short:  "Print a shell completion script",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
