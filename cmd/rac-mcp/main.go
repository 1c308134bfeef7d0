// Command rac-mcp is rac's MCP server over stdio, the program `rac mcp`
// runs (see internal/racmcp for why it is a program of its own). Install
// it beside rac: make build puts both in bin/.
package main

import (
	"os"
	"time"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/racmcp"
	"github.com/rac-cli/rac/internal/ui"
)

func main() {
	os.Exit(racmcp.Main(os.Args[1:], ui.System(), app.Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now, Version: app.Version}))
}
