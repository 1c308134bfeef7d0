package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newShellInitCmd is not built yet.
func newShellInitCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "shell-init",
		Short:  "Print shell code that wraps git and kubectl in rac run",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
