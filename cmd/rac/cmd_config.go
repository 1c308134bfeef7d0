package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newConfigCmd is not built yet.
func newConfigCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "config",
		Short:  "Print every effective setting and where it came from",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
