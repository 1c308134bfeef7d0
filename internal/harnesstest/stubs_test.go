package harnesstest

// The tests below need the parts of issues 14 and 15 that are still being
// built: rac agent-init, the hooks (rac hook claude-session|claude|codex|
// gemini) and the MCP server (rac mcp). Their scripts for the mock model
// are written; enabling one is deleting its skipStub line (and, for a hook,
// the agent-init call's flags if they differ).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	stubHooks = "STUB: needs rac agent-init and rac hook (issue 14's hooks are being built)"
	stubMCP   = "STUB: needs rac mcp registered by rac agent-init (issue 15)"
)

// agentInit runs rac agent-init in the world (home and working folder),
// for the route of one harness.
func (w *World) agentInit(args ...string) string {
	w.t.Helper()
	return w.Run(w.Rac, append([]string{"agent-init"}, args...)...)
}

// With the SessionStart hook (the default route), the model's plain
// command is recorded in the conversation's session, the tool result
// carries the start line, and grep's no-match result is untouched.
func TestClaudeSessionStartHook(t *testing.T) {
	skipStub(t, stubHooks)
	bin := need(t, "claude")
	w := newWorld(t)
	w.agentInit("claude", "--user")
	m := newMock(t, anthropic{},
		Shell("git status"),
		Shell("rac out read last"),
		Shell("grep nosuch notes.txt"),
		Say("done"))
	require.NoError(t, w.claude(bin, m, nil).Err)
	rs := results(t, m, 3)
	sess, _ := refOf(t, rs[0].Output)
	assert.True(t, strings.HasPrefix(sess, "claude-"))
	assert.Contains(t, rs[1].Output, "nothing to commit")
	assert.False(t, rs[2].IsError)
	assert.Equal(t, "(Bash completed with no output)", rs[2].Output)
}

// The PreToolUse rewrite (agent-init claude --rewrite) keeps every other
// input field (timeout, description, run_in_background), and the
// harness's permission decisions: for a command an allow rule matches,
// one a deny rule matches and an unmatched one in default mode, the tool
// result is the same with and without the hook.
func TestClaudeRewriteHook(t *testing.T) {
	skipStub(t, stubHooks)
	bin := need(t, "claude")
	script := []Step{
		{Shell: "git log --oneline", Input: map[string]any{"timeout": 60000, "description": "show the log"}},
		Shell("git status"),         // allowed by the rule below
		Shell("git push origin x"),  // denied by the rule below
		Shell("git rev-parse HEAD"), // no rule: asks (denied in -p)
		Say("done"),
	}
	settings := `{"permissions":{"allow":["Bash(git status:*)","Bash(git log:*)"],"deny":["Bash(git push:*)"]}}`
	run := func(hook bool) []ToolResult {
		w := newWorld(t)
		require.NoError(t, os.MkdirAll(filepath.Join(w.WD, ".claude"), 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(w.WD, ".claude", "settings.json"), []byte(settings), 0o600))
		if hook {
			w.agentInit("claude", "--project", "--rewrite")
		}
		m := newMock(t, anthropic{}, script...)
		// default permission mode: no --dangerously-skip-permissions
		h := w.harness(bin, claudeEnv(m), "-p", "go", "--output-format", "stream-json", "--verbose")
		require.NoError(t, h.Err)
		// the rewritten input the model's call became (a tool_use is
		// logged with its input in the next request's history)
		return results(t, m, 4)
	}
	without, with := run(false), run(true)
	for i := range without {
		assert.Equal(t, without[i].IsError, with[i].IsError, "call %d", i)
		if i != 0 && i != 1 {
			assert.Equal(t, without[i].Output, with[i].Output, "call %d: the hook changed a permission decision", i)
		}
	}
	refOf(t, with[0].Output)
}

// Codex's PreToolUse hook (hooks.json, run once trusted) records the
// model's plain git status in the thread's session.
func TestCodexHook(t *testing.T) {
	skipStub(t, stubHooks)
	bin := need(t, "codex")
	w := newWorld(t)
	m := newMock(t, openai{}, Shell("git status"), Shell(w.Rac+" out read last"), Say("done"))
	home := w.codexHome(m)
	w.Run("env", "CODEX_HOME="+home, w.Rac, "agent-init", "codex", "--user")
	args := codexArgs(fullAccess, "")
	args = append(args[:len(args)-1], "--dangerously-bypass-hook-trust", "go")
	require.NoError(t, w.harness(bin, codexEnv(home), args...).Err)
	rs := results(t, m, 2)
	sess, _ := refOf(t, rs[0].Output)
	assert.True(t, strings.HasPrefix(sess, "codex-"))
	_, out := codexOutput(t, rs[1])
	assert.Contains(t, out, "nothing to commit")
}

// Gemini's BeforeTool hook passes GEMINI_SESSION_ID on (RAC_SESSION), so
// a resumed conversation, a new process, stays in its session.
func TestGeminiHookResume(t *testing.T) {
	skipStub(t, stubHooks)
	bin := need(t, "gemini")
	w := newWorld(t)
	gh := w.geminiHome()
	w.Run("env", "GEMINI_CLI_HOME="+gh, w.Rac, "agent-init", "gemini", "--user")
	m := newMock(t, gemini{}, Shell("git status"), Say("done"), Shell("git log"), Say("done"))
	env := geminiEnv(m, gh)
	require.NoError(t, w.harness(bin, env, "-p", "go", "--yolo", "--output-format", "json").Err)
	require.NoError(t, w.harness(bin, env, "-p", "go", "--yolo", "--output-format", "json", "--resume", "latest").Err)
	rs := results(t, m, 2)
	s1, _ := refOf(t, rs[0].Output)
	s2, _ := refOf(t, rs[1].Output)
	assert.Equal(t, s1, s2, "the resumed conversation left its session")
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
