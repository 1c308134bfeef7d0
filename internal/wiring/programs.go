package wiring

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/rac-cli/rac/internal/agentinit"
	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/hook"
	"github.com/rac-cli/rac/internal/shellinit"
)

// The options of the commands that do not go through an App (rac run's
// request, shell-init, the harness hooks, agent-init), from the settings
// and rac's own environment.

// RunRequest is rac run's request for argv from the run.* settings; the
// caller adds the streams, the signals and the callbacks.
func RunRequest(r config.RunSettings, argv []string) app.RunRequest {
	return app.RunRequest{
		Argv:    argv,
		Timeout: r.Timeout.V, KillAfter: r.KillAfter.V, DrainTimeout: r.DrainTimeout.V,
		Mode: r.Mode.V, Interactive: r.Interactive.V, SignalSettle: r.SignalSettle.V,
		Announce: r.Announce.V, Summary: r.Summary.V, SummaryHead: r.SummaryHead.V, SummaryTail: r.SummaryTail.V,
		AgentView: r.AgentView.V,
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
func ClaudeHook(s *config.Settings, env app.Env, stdin io.Reader) (hook.ClaudeHook, error) {
	agent, err := shellinit.Script(ShellInit(s, env.Getenv, "bash", "", true))
	if err != nil {
		return hook.ClaudeHook{}, err
	}
	return hook.ClaudeHook{
		Stdin: stdin, Getenv: env.Getenv, PPID: os.Getppid(), Now: env.Now,
		Agent: agent, Note: hook.StoreNote(env.Getenv),
	}, nil
}

// The commands that run beside an App, for the command line: it calls
// these and no domain package.

// Shells are the shells rac shell-init writes code for.
var Shells = shellinit.Shells

// ShellInitScript is rac shell-init's code (see ShellInit); a bad shell
// or session name is a usage error.
func ShellInitScript(s *config.Settings, getenv func(string) string, shell, session string, agent bool) (string, error) {
	code, err := shellinit.Script(ShellInit(s, getenv, shell, session, agent))
	if errors.Is(err, shellinit.ErrUsage) {
		return "", app.Usage(err)
	}
	return code, err
}

// AnswerHook is rac hook claude|codex|gemini: the harness's call on in,
// the answer (or nothing) on out.
func AnswerHook(s *config.Settings, getenv func(string) string, harness string, in io.Reader, out io.Writer) error {
	_, err := hook.Handle(harness, in, out, Hook(s, getenv))
	return err
}

// ClaudeSessionHook is rac hook claude-session, Claude Code's SessionStart
// hook: the error is for one line on stderr (the hook still exits 0).
func ClaudeSessionHook(s *config.Settings, env app.Env, stdin io.Reader) error {
	h, err := ClaudeHook(s, env, stdin)
	if err != nil {
		return err
	}
	return hook.ClaudeSessionHook(h)
}

// AgentTargets are the names rac agent-init takes.
var AgentTargets = agentinit.Targets

// AgentInitOptions are one rac agent-init call, as its flags set them.
type AgentInitOptions = agentinit.Options

// AgentInitResult says what rac agent-init did.
type AgentInitResult = agentinit.Result

// AgentInit is rac agent-init with getenv, naming this rac and rac-mcp as
// a harness runs them; a bad target or flag is a usage error.
func AgentInit(o AgentInitOptions, getenv func(string) string) (AgentInitResult, error) {
	o.Getenv = getenv
	o.Program, o.Exe = Self()
	o.MCPServer, _, _ = MCPServer() // "": agentinit says what is missing
	res, err := agentinit.Run(o)
	if errors.Is(err, agentinit.ErrUsage) {
		return res, app.Usage(err)
	}
	return res, err
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
