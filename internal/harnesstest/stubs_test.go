package harnesstest

// The tests below need the part of issue 15 that is still being built:
// the MCP server (rac mcp). Their scripts for the mock model are written;
// enabling one is deleting its skipStub line. (The hook tests are in
// hooks_test.go.)

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	stubMCP = "STUB: needs rac mcp registered by rac agent-init (issue 15)"
)

// agentInit runs rac agent-init in the world (home and working folder),
// for the route of one harness.
func (w *World) agentInit(args ...string) string {
	w.t.Helper()
	return w.Run(w.Rac, append([]string{"agent-init"}, args...)...)
}

// mcpCall is a step calling one of rac's MCP tools as Claude Code names
// them (mcp__SERVER__TOOL; Codex uses the same form).
func mcpCall(tool string, input map[string]any) Step {
	return Step{Tool: "mcp__rac__" + tool, Input: input}
}

// The model's read and run calls reach rac mcp and the tool results are
// the expected text; after the SessionStart hook, a recording of a Bash
// call of the same conversation is found by list without a reference.
func TestClaudeMCP(t *testing.T) {
	skipStub(t, stubMCP)
	bin := need(t, "claude")
	w := newWorld(t)
	w.agentInit("claude", "--user")
	mcp := map[string]any{"mcpServers": map[string]any{"rac": map[string]any{"command": w.Rac, "args": []string{"mcp"}, "env": map[string]string{"RAC_MCP_RUN": "true"}}}}
	b, err := json.Marshal(mcp)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(w.WD, ".mcp.json"), b, 0o600))
	m := newMock(t, anthropic{},
		Shell("echo from-bash-call"),
		mcpCall("list", map[string]any{}),
		mcpCall("read", map[string]any{"ref": "last"}),
		mcpCall("run", map[string]any{"argv": []string{"echo", "from-mcp-run"}}),
		Say("done"))
	require.NoError(t, w.claude(bin, m, nil, "--mcp-config", filepath.Join(w.WD, ".mcp.json")).Err)
	rs := results(t, m, 4)
	assert.Contains(t, rs[1].Output, "echo-from-bash-call")
	assert.Contains(t, rs[2].Output, "from-bash-call")
	assert.Contains(t, rs[3].Output, "from-mcp-run")
	assert.Contains(t, rs[3].Output, "rac: ref ")
}

// Codex: rac mcp under [mcp_servers] in config.toml; read and run.
func TestCodexMCP(t *testing.T) {
	skipStub(t, stubMCP)
	bin := need(t, "codex")
	w := newWorld(t)
	m := newMock(t, openai{},
		Shell(w.Rac+" run -- echo from-shell"),
		mcpCall("read", map[string]any{"ref": "last"}),
		mcpCall("run", map[string]any{"argv": []string{"echo", "from-mcp-run"}}),
		Say("done"))
	home := w.codexHome(m)
	cfg := "\n[mcp_servers.rac]\ncommand = \"" + w.Rac + "\"\nargs = [\"mcp\"]\nenv = { RAC_MCP_RUN = \"true\" }\n"
	f, err := os.OpenFile(filepath.Join(home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(cfg)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	require.NoError(t, w.harness(bin, codexEnv(home), codexArgs(fullAccess, "")...).Err)
	rs := results(t, m, 3)
	assert.Contains(t, rs[1].Output, "from-shell")
	assert.Contains(t, rs[2].Output, "from-mcp-run")
}

// skipStub skips a test whose feature has not landed; delete the call
// to enable the test.
func skipStub(t *testing.T, why string) {
	t.Helper()
	t.Skip(why)
}
