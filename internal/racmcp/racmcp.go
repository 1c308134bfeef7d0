// Package racmcp is the rac-mcp program: rac's MCP server over stdio, the
// program `rac mcp` runs. It is a program of its own because the MCP SDK's
// package initialisers (JSON schema, gob, its transports: about half a
// millisecond, and a binary half as large again, measured with
// GODEBUG=inittrace=1) would otherwise be paid by every `rac run`, whose
// start-up is on the path of every recorded command. rac agent-init --mcp
// registers rac-mcp itself, so a harness starts no rac in between (the
// exec through rac mcp made the first initialize answer 2.7x the time of
// rac --version, rac-mcp alone is about 1.6x: make bench).
package racmcp

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/mcpserver"
	"github.com/rac-cli/rac/internal/ui"
	"github.com/rac-cli/rac/internal/wiring"
)

// Main runs rac-mcp with args (--session NAME, --rac PATH) and returns its
// exit status: 0 when the client closed the connection or a signal ended
// it, 1 when the server failed, 2 for a bad flag or setting.
func Main(args []string, streams *ui.IOStreams, env app.Env) int {
	p := streams.Printer()
	fs := flag.NewFlagSet("rac-mcp", flag.ContinueOnError)
	fs.SetOutput(streams.Err)
	session := fs.String("session", "", "the session tools use when a call names none")
	rac := fs.String("rac", "", "the rac executable the run tool starts (default: rac beside rac-mcp, else on PATH)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		p.Errorf("rac mcp takes no arguments, not %q", fs.Arg(0))
		return 2
	}
	s, err := config.Load(config.Options{Getenv: env.Getenv})
	if err != nil {
		p.Errorf("%v", err)
		return 2
	}
	for _, w := range s.Warnings {
		p.Warnf("%s", w.String())
	}
	a := app.New(env, wiring.Settings(s, *session, false))
	a.Warn = func(m string) { p.Warnf("%s", m) }
	a.Note = func(m string) { p.Infof("%s", m) }
	if *rac == "" {
		*rac = findRac()
	}
	srv := mcpserver.New(mcpserver.Options{
		App: a, Budget: s.MCP.Budget.V, Run: s.MCP.Run.V,
		Rac: []string{*rac}, ParentPID: os.Getppid(), Version: env.Version,
	})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if err := srv.ServeIO(ctx, streams.In, streams.Out); err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled) {
		p.Errorf("mcp: %v", err)
		return 1
	}
	return 0
}

// findRac is the rac beside this program (make build puts both in bin/),
// else the one on PATH, else plain "rac".
func findRac() string {
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), "rac")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside
		}
	}
	if p, err := exec.LookPath("rac"); err == nil {
		return p
	}
	return "rac"
}
