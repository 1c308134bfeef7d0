package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/mcpserver"
)

func newMCPCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve rac's recordings to an agent over MCP (stdio)",
		Long: `Serve the tools list, read, grep and explain (and run, when mcp.run is true)
over the Model Context Protocol on stdin and stdout, for an agent harness to
start: claude mcp add rac -- rac mcp. Every result stays within mcp.budget.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			exe, err := os.Executable()
			if err != nil {
				exe = os.Args[0]
			}
			srv := mcpserver.New(mcpserver.Options{
				App: c.app, Budget: c.settings.MCP.Budget.V, Run: c.settings.MCP.Run.V,
				Rac: []string{exe}, ParentPID: os.Getppid(), Version: version,
			})
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			return srv.ServeIO(ctx, c.streams.In, c.streams.Out)
		},
	}
}
