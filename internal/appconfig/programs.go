package appconfig

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/hook"
	"github.com/rac-cli/rac/internal/shellinit"
)

// The options of the commands that do not go through an App (rac run's
// request, shell-init, the harness hooks), from the settings and rac's
// own environment.

// RunRequest is rac run's request for argv from the run.* settings; the
// caller adds the streams, the signals and the callbacks.
func RunRequest(r config.RunSettings, argv []string) app.RunRequest {
	return app.RunRequest{
		Argv:    argv,
		Timeout: r.Timeout.V, KillAfter: r.KillAfter.V, DrainTimeout: r.DrainTimeout.V,
		Mode: r.Mode.V, Interactive: r.Interactive.V, SignalSettle: r.SignalSettle.V,
		Announce: r.Announce.V, Summary: r.Summary.V, SummaryHead: r.SummaryHead.V, SummaryTail: r.SummaryTail.V,
	}
}

// Self is how the code rac writes for a shell or a harness names this rac
// (program: by path unless the name rac finds this very binary) and this
// rac's absolute path (exe, "" when unknown).
func Self() (program, exe string) {
	exe, _ = os.Executable()
	onPath, _ := exec.LookPath("rac")
	return shellinit.Program(exe, onPath), exe
}

// ShellInit are the options of rac shell-init: shell.wrap for people,
// hook.wrap for an agent's shell.
func ShellInit(s *config.Settings, getenv func(string) string, shell, session string, agent bool) shellinit.Options {
	wrap := s.Shell.Wrap.V
	if agent {
		wrap = s.Hook.Wrap.V
	}
	user := getenv("USER")
	if user == "" {
		user = getenv("LOGNAME")
	}
	rac, _ := Self()
	return shellinit.Options{
		Shell: shell, Wrap: wrap, Session: session, Agent: agent,
		User: user, UID: os.Getuid(), Rac: rac,
	}
}

// Hook are the options of rac hook claude|codex|gemini, answered for the
// process that ran the hook (rac's parent).
func Hook(s *config.Settings, getenv func(string) string) hook.Options {
	rac, exe := Self()
	return hook.Options{
		Wrap: s.Hook.Wrap.V, Interactive: s.Run.Interactive.V, Getenv: getenv, PPID: os.Getppid(),
		Rac: rac, Exe: exe,
	}
}

// ClaudeHook is rac hook claude-session's run, reading stdin: it installs
// the code rac shell-init bash --agent prints.
func ClaudeHook(s *config.Settings, env app.Env, stdin io.Reader) (shellinit.ClaudeHook, error) {
	agent, err := shellinit.Script(ShellInit(s, env.Getenv, "bash", "", true))
	if err != nil {
		return shellinit.ClaudeHook{}, err
	}
	return shellinit.ClaudeHook{
		Stdin: stdin, Getenv: env.Getenv, PPID: os.Getppid(), Now: env.Now,
		Agent: agent, Note: shellinit.StoreNote(env.Getenv),
	}, nil
}

// MCPServer is rac-mcp, the MCP server rac mcp runs, beside this rac
// (exe, "" when unknown), else on PATH.
func MCPServer() (server, exe string, err error) {
	exe, _ = os.Executable()
	if exe != "" {
		beside := filepath.Join(filepath.Dir(exe), "rac-mcp")
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, exe, nil
		}
	}
	if p, err := exec.LookPath("rac-mcp"); err == nil {
		// a PATH entry may be relative (bin): a harness would not find that
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		return p, exe, nil
	}
	return "", exe, errors.New("rac mcp needs rac-mcp, the MCP server, beside rac or on PATH: make build puts both in bin/ (or go build -o DIR/rac-mcp ./cmd/rac-mcp)")
}
