package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
)

// newMCPCmd is rac mcp: it runs rac-mcp, the MCP server, in its place
// (exec: the harness that started rac mcp stays the server's parent, which
// the default session depends on). The server is a program of its own so
// that rac run links no MCP SDK (see internal/mcpcmd).
func newMCPCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp [--session NAME]",
		Short: "Serve rac's recordings to an agent over MCP (stdio)",
		Long: `Serve the tools list, read, grep and explain (and run, when mcp.run is
true) over the Model Context Protocol on stdin and stdout, for an agent
harness to start. Every result stays within mcp.budget, with every cut
stated. Tools use the session the harness's SessionStart hook announced for
the process that started the server, else the one rac run would find, else
the call must name one. The server is the program rac-mcp, installed beside
rac (make build puts both in bin/).`,
		Example: `  rac mcp                     # as a harness starts it: claude mcp add rac -- rac mcp
  rac mcp --session my-task   # tools default to the session my-task`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			exe, _ := os.Executable()
			server, err := findMCPServer(exe)
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

// findMCPServer is rac-mcp beside rac, else on PATH.
func findMCPServer(exe string) (string, error) {
	if exe != "" {
		beside := filepath.Join(filepath.Dir(exe), "rac-mcp")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath("rac-mcp"); err == nil {
		return p, nil
	}
	return "", errors.New("rac mcp needs rac-mcp, the MCP server, beside rac or on PATH: make build puts both in bin/ (or go build -o DIR/rac-mcp ./cmd/rac-mcp)")
}
