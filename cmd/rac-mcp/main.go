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

// version is rac's (cmd/rac sets the same).
var version = "0.1.0-dev"

func main() {
	os.Exit(racmcp.Main(os.Args[1:], ui.System(), app.Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now, Version: version}))
}
