package wiring

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/runspec"
)

func load(t *testing.T, vars map[string]string, flags map[string]string) *config.Settings {
	t.Helper()
	s, err := config.Load(config.Options{Getenv: getenv(vars), Flags: flags})
	require.NoError(t, err)
	return s
}

func TestRunRequest(t *testing.T) {
	s := load(t, map[string]string{"RAC_RUN_INTERACTIVE": "vim", "RAC_RUN_SUMMARY_TAIL": "3"},
		map[string]string{"run.timeout": "90s", "run.announce": "failed", "run.mode": "pipe", "run.summary": "true"})
	req := RunRequest(s.Run, []string{"make", "test"})
	assert.Equal(t, []string{"make", "test"}, req.Argv)
	assert.Equal(t, 90*time.Second, req.Timeout)
	assert.Equal(t, s.Run.KillAfter.V, req.KillAfter)
	assert.Equal(t, s.Run.DrainTimeout.V, req.DrainTimeout)
	assert.Equal(t, s.Run.SignalSettle.V, req.SignalSettle)
	assert.Equal(t, runspec.ModePipe, req.Mode)
	assert.Equal(t, runspec.AnnounceFailed, req.Announce)
	assert.Equal(t, []string{"vim"}, req.Interactive)
	assert.True(t, req.Summary)
	assert.Equal(t, 10, req.SummaryHead)
	assert.Equal(t, 3, req.SummaryTail)
	assert.Nil(t, req.Stdout, "the caller's streams")
}

func TestShellInit(t *testing.T) {
	s := load(t, map[string]string{"RAC_SHELL_WRAP": "git", "RAC_HOOK_WRAP": "make,go"}, nil)
	people := ShellInit(s, getenv(map[string]string{"USER": "ann", "LOGNAME": "other"}), "zsh", "work", false)
	assert.Equal(t, "zsh", people.Shell)
	assert.Equal(t, []string{"git"}, people.Wrap, "shell.wrap for people")
	assert.Equal(t, "work", people.Session)
	assert.Equal(t, "ann", people.User)
	assert.Equal(t, os.Getuid(), people.UID)
	assert.NotEmpty(t, people.Rac)
	agent := ShellInit(s, getenv(map[string]string{"LOGNAME": "bob"}), "bash", "", true)
	assert.Equal(t, []string{"make", "go"}, agent.Wrap, "hook.wrap for an agent's shell")
	assert.True(t, agent.Agent)
	assert.Equal(t, "bob", agent.User, "LOGNAME when USER is unset")
}

func TestHook(t *testing.T) {
	s := load(t, map[string]string{"RAC_HOOK_WRAP": "make", "RAC_RUN_INTERACTIVE": "vim"}, nil)
	o := Hook(s, getenv(nil))
	assert.Equal(t, []string{"make"}, o.Wrap)
	assert.Equal(t, []string{"vim"}, o.Interactive)
	assert.Equal(t, os.Getppid(), o.PPID)
	exe, _ := os.Executable()
	assert.Equal(t, exe, o.Exe)
	assert.NotEmpty(t, o.Rac)
}

func TestMCPServer(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	_, exe, err := MCPServer()
	exeWant, _ := os.Executable()
	assert.Equal(t, exeWant, exe)
	require.Error(t, err, "no rac-mcp beside the test binary or on PATH")
	assert.Contains(t, err.Error(), "rac mcp needs rac-mcp")
	require.NoError(t, os.WriteFile(dir+"/rac-mcp", []byte("#!/bin/sh\n"), 0o755))
	server, _, err := MCPServer()
	require.NoError(t, err)
	assert.Equal(t, dir+"/rac-mcp", server, "found on PATH")
}
