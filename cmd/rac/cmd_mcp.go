package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newMCPCmd is not built yet.
func newMCPCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:    "mcp",
		Short:  "Serve rac's recordings to an agent over MCP (stdio)",
		Hidden: true,
		RunE:   func(*cobra.Command, []string) error { return errors.New("not built yet") },
	}
}
