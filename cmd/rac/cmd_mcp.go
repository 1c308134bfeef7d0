package main

import (
	"os"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/wiring"
)

// newMCPCmd is rac mcp: it runs rac-mcp, the MCP server, in its place
// (exec: the harness that started rac mcp stays the server's parent, which
// the default session depends on). The server is a program of its own so
// that rac run links no MCP SDK (see internal/racmcp).
func newMCPCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp [--session NAME]",
		Short: "Serve rac's recordings to an agent over MCP (stdio)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			server, exe, err := wiring.MCPServer()
			if err != nil {
				return err
			}
			argv := []string{"rac-mcp", "--rac", exe}
			if c.session != "" {
				argv = append(argv, "--session", c.session)
			}
			return syscall.Exec(server, argv, os.Environ())
		},
	}
	cmd.Flags().StringVar(&c.session, "session", "", "the session tools use when a call names none")
	return cmd
}
