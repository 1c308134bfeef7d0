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
		Long: `Serve the tools list, read, grep and explain (and run, when mcp.run is
true) over the Model Context Protocol on stdin and stdout, for an agent
harness to start. Every result stays within mcp.budget, with every cut
stated. A call without a session uses --session (or RAC_SESSION), else the
session the harness's SessionStart hook announced for the process that
started the server, else the conversation that process holds open (Codex),
else the one rac run would find, else the call must name one. The server is
the program rac-mcp, installed beside rac (make build puts both in bin/),
which rac agent-init --mcp registers directly.`,
		Example: `  rac mcp                     # by hand: claude mcp add rac -- rac mcp
  rac mcp --session my-task   # tools default to the session my-task`,
	}
	cmd.Flags().StringVar(&c.session, "session", "", "the session tools use when a call names none")
	return cmd
}
