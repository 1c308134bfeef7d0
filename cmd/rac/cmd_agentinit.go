package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newAgentInitCmd is not built yet.
func newAgentInitCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "agent-init",
		Short:  "Turn rac on for an agent harness",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
