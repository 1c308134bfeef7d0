package harnesstest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/session"
)

// needMCP fails the test unless rac-mcp, the server rac mcp runs, is
// beside the rac under test (make build puts both in bin/).
func needMCP(t *testing.T) {
	t.Helper()
	rac, err := filepath.EvalSymlinks(os.Getenv(envRac))
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(filepath.Dir(rac), "rac-mcp"))
	require.NoError(t, err, "rac mcp needs rac-mcp beside %s: make build puts both in bin/", rac)
}

// chainProbe is a shell line, run by the run tool, that prints the
// processes above rac run (the command's parent): the server, then the
// process that started it.
const chainProbe = `p=$PPID; for i in 1 2 3 4; do p=$(cut -d' ' -f4 /proc/$p/stat); printf 'up%d=%s:%s ' $i $p "$(cat /proc/$p/comm)"; done; echo`

// refLine matches rac's end line and captures the session.
var refLine = regexp.MustCompile(`rac: ref ([a-z0-9][a-z0-9._-]*)/([0-9]+-[a-z0-9._-]*)`)

// The model's list, read and run calls reach rac mcp (registered by
// agent-init claude --mcp --project, started by Claude Code itself) and
// their results are the expected text. With the SessionStart hook
// (agent-init claude), the server's default session is the
// conversation's: list and read without any session find the recording
// of a plain Bash call, and the run tool records into it too. A second
// conversation's server sees none of it; --resume sees it again.
func TestClaudeMCP(t *testing.T) {
	bin := need(t, "claude")
	needMCP(t)
	w := newWorld(t)
	// a probe SessionStart hook beside rac's, run the way rac's is
	probe := filepath.Join(w.Root, "hook-probe")
	settings := filepath.Join(w.Home, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(settings), 0o700))
	probeCmd := `echo "shell line: hook=$$ parent=$PPID:$(cat /proc/$PPID/comm) CLAUDE_PID=${CLAUDE_PID:-unset}" >> ` + probe
	// a hook command of one word, as rac's is: is it exec'd, or run by a shell?
	script := filepath.Join(w.Root, "probe.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\necho \"one word: parent=$PPID:$(cat /proc/$PPID/comm)\" >> "+probe+"\n"), 0o700))
	b, err := json.Marshal(map[string]any{"hooks": map[string]any{"SessionStart": []any{
		map[string]any{"hooks": []any{map[string]any{"type": "command", "command": probeCmd}, map[string]any{"type": "command", "command": script}}}}}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(settings, b, 0o600))
	w.agentInit("claude", "--user")
	out := w.agentInit("claude", "--mcp", "--project")
	t.Logf("agent-init claude --mcp --project: %s", out)
	mcpJSON, err := os.ReadFile(filepath.Join(w.WD, ".mcp.json"))
	require.NoError(t, err)
	t.Logf(".mcp.json: %s", mcpJSON)

	m := newMock(t, anthropic{},
		Shell("git status"),
		mcpCall("list", map[string]any{}),
		mcpCall("read", map[string]any{"ref": "last"}),
		mcpCall("run", map[string]any{"command": chainProbe}),
		mcpCall("read", map[string]any{"ref": "last", "stream": "stdout"}),
		mcpCall("read", map[string]any{"ref": "../../etc/passwd"}),
		mcpCall("explain", map[string]any{"ref": "1"}),
		Say("done"),
		// the resumed conversation (its history holds the 8 turns above)
		mcpCall("list", map[string]any{}),
		Say("done"))
	env := []string{"RAC_MCP_RUN=true"} // the server inherits claude's environment
	h := w.claude(bin, m, env)
	require.NoError(t, h.Err)
	rs := results(t, m, 7)
	for i, r := range rs {
		t.Logf("result %d (error %v): %q", i, r.IsError, r.Output)
	}
	id := claudeSessionID(t, h)
	want := session.DerivedName("claude", id)
	sess, name := refOf(t, rs[0].Output)
	require.Equal(t, want, sess)
	require.Equal(t, "0001-git-status", name)

	// list: no session named, the conversation's found
	assert.False(t, rs[1].IsError, "list: %s", rs[1].Output)
	assert.Contains(t, rs[1].Output, want, "list is not in the conversation's session")
	assert.Contains(t, rs[1].Output, "0001-git-status")
	// read last: the Bash call's output
	assert.False(t, rs[2].IsError)
	assert.Contains(t, rs[2].Output, "On branch")
	// run: recorded into the same session, the summary with its reference
	assert.False(t, rs[3].IsError, "run: %s", rs[3].Output)
	m3 := refLine.FindStringSubmatch(rs[3].Output)
	require.NotNil(t, m3, "no 'rac: ref' in the run result: %s", rs[3].Output)
	assert.Equal(t, want, m3[1], "the run tool recorded outside the conversation's session")
	assert.True(t, strings.HasPrefix(m3[2], "0002-"), m3[2])
	chain := regexp.MustCompile(`up1=\d+:rac-mcp up2=(\d+):(\S+) `).FindStringSubmatch(rs[4].Output)
	require.NotNil(t, chain, "the run tool's chain probe: %s", rs[4].Output)
	assert.Equal(t, strconv.Itoa(h.PID), chain[1], "rac-mcp's parent is not claude (the pid the hook noted)")
	t.Logf("measured: rac-mcp's parent is pid %s (%s), claude's pid %d", chain[1], chain[2], h.PID)
	// a traversal attempt is a tool error, and the server lives on
	assert.True(t, rs[5].IsError, "a reference leaving the store: %s", rs[5].Output)
	// explain is the one tool whose text is not its structured content:
	// which one reaches the model?
	assert.False(t, rs[6].IsError, "explain: %s", rs[6].Output)
	assert.Contains(t, rs[6].Output, want+"/0001-git-status")
	assert.Contains(t, rs[6].Output, "exited with code 0")
	t.Logf("measured: Claude Code gives the model explain's %s", textOrStructured(rs[6].Output))

	n := w.harnessNote(h.PID)
	assert.Equal(t, want, n.Session)
	hookProbe, err := os.ReadFile(probe)
	require.NoError(t, err)
	t.Logf("measured, a SessionStart hook command: %s", hookProbe)

	// a second conversation: a new claude, a new server, a new session
	m2 := newMock(t, anthropic{}, mcpCall("list", map[string]any{}), Say("done"))
	h2 := w.claude(bin, m2, env)
	require.NoError(t, h2.Err)
	rs2 := results(t, m2, 1)
	want2 := session.DerivedName("claude", claudeSessionID(t, h2))
	require.NotEqual(t, want, want2)
	assert.False(t, rs2[0].IsError, "list: %s", rs2[0].Output)
	assert.Contains(t, rs2[0].Output, want2, "the second conversation's server is not in its session")
	assert.NotContains(t, rs2[0].Output, "git-status", "the second conversation sees the first's recordings")

	// --resume: the SessionStart hook announces the first conversation again
	h3 := w.claude(bin, m, env, "--resume", id)
	require.NoError(t, h3.Err)
	rs3 := m.Results()
	require.Len(t, rs3, 8)
	assert.Contains(t, rs3[7].Output, want)
	assert.Contains(t, rs3[7].Output, "0001-git-status", "the resumed conversation's server lost its recordings")
}

// Codex: agent-init codex --mcp writes [mcp_servers.rac] into
// config.toml; the model's run and read calls reach rac mcp, and the
// env_vars of the registration carry RAC_MCP_RUN over Codex's cleared
// environment. No Codex hook announces the conversation to the server and
// its environment holds no thread id, but codex holds the thread's lock
// file open: the server's calls without a session land in the
// conversation's session, where its shell calls record, whatever process
// session (or none visible: a PID namespace) the harness runs in; a
// second conversation sees none of it, exec resume sees it again.
func TestCodexMCP(t *testing.T) {
	bin := need(t, "codex")
	needMCP(t)
	w := newWorld(t)
	m := newMock(t, openaiMCP{},
		Shell(w.Rac+" run -- echo from-shell"),
		mcpCall("run", map[string]any{"argv": []string{"echo", "from-mcp-run"}}),
		mcpCall("read", map[string]any{"ref": "last"}),
		mcpCall("grep", map[string]any{"text": "from-shell", "all_sessions": true}),
		mcpCall("list", map[string]any{}),
		mcpCall("explain", map[string]any{"ref": "last"}),
		Say("done"),
		mcpCall("list", map[string]any{}), // after exec resume
		Say("done"))
	// RAC_MCP_RUN reaches the server only through the registration's env_vars
	env := append(codexEnv(w.codexMCPHome(m)), "RAC_MCP_RUN=true")
	h := w.harness(bin, env, codexArgs(fullAccess, "")...)
	require.NoError(t, h.Err)
	rs := m.Results()
	if len(rs) != 6 {
		t.Logf("tools offered to the model: %v", offeredTools(m))
	}
	rs = results(t, m, 6)
	for i, r := range rs {
		t.Logf("result %d (error %v): %q", i, r.IsError, r.Output)
	}
	shellSess, _ := refOf(t, rs[0].Output)
	require.Equal(t, session.DerivedName("codex", codexThreadID(t, h)), shellSess)
	assert.Contains(t, rs[1].Output, "from-mcp-run")
	m1 := refLine.FindStringSubmatch(rs[1].Output)
	require.NotNil(t, m1, "no 'rac: ref' in the run result: %s", rs[1].Output)
	assert.Equal(t, shellSess, m1[1], "the run tool recorded outside the conversation's session")
	assert.Contains(t, rs[2].Output, "from-mcp-run", "read last did not read the run tool's recording")
	assert.Contains(t, rs[3].Output, shellSess, "grep across sessions did not find the shell's recording")
	assert.Contains(t, rs[3].Output, "from-shell")
	assert.Contains(t, rs[4].Output, shellSess+"/0001-echo-from-shell", "list without a session does not show the shell call's recording")
	assert.Contains(t, rs[4].Output, m1[1]+"/0002-echo-from-mcp-run", "list without a session is not the conversation's session")
	assert.Contains(t, rs[5].Output, m1[1]+"/0002-echo-from-mcp-run")
	assert.Contains(t, rs[5].Output, "exited with code 0")
	t.Logf("measured: Codex gives the model explain's %s", textOrStructured(rs[5].Output))

	// a second conversation: a new codex, a new thread, a new session
	m2 := newMock(t, openaiMCP{}, mcpCall("list", map[string]any{}), Say("done"))
	h2 := w.harness(bin, append(codexEnv(w.codexMCPHome(m2)), "RAC_MCP_RUN=true"), codexArgs(fullAccess, "")...)
	require.NoError(t, h2.Err)
	rs2 := results(t, m2, 1)
	assert.False(t, rs2[0].IsError, "list: %s", rs2[0].Output)
	second := session.DerivedName("codex", codexThreadID(t, h2))
	require.NotEqual(t, shellSess, second)
	assert.Contains(t, rs2[0].Output, second, "the second conversation's server is not in its session")
	assert.NotContains(t, rs2[0].Output, "from-mcp-run", "the second conversation sees the first's recordings")

	// exec resume: a new codex holds the first thread's lock again
	h3 := w.harness(bin, append(codexEnv(w.codexMCPHome(m)), "RAC_MCP_RUN=true"), codexArgs(fullAccess, codexThreadID(t, h))...)
	require.NoError(t, h3.Err)
	rs3 := results(t, m, 7)
	assert.Contains(t, rs3[6].Output, shellSess+"/0002-echo-from-mcp-run", "the resumed conversation's server lost its recordings")
}

// textOrStructured says which of explain's two forms a tool result is.
func textOrStructured(out string) string {
	if strings.Contains(out, `"ref":`) {
		return "structured content (JSON)"
	}
	return "text"
}

// Without CLAUDE_PID in the hook's environment, the hook still notes the
// conversation under claude's pid (the nearest ancestor named claude,
// above the shell that runs the hook command), so rac mcp finds it.
func TestClaudeMCPHookWithoutClaudePID(t *testing.T) {
	bin := need(t, "claude")
	needMCP(t)
	w := newWorld(t)
	settings := filepath.Join(w.Home, ".claude", "settings.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(settings), 0o700))
	hook := "env -u CLAUDE_PID " + w.Rac + " hook claude-session; true"
	b, err := json.Marshal(map[string]any{"hooks": map[string]any{"SessionStart": []any{
		map[string]any{"hooks": []any{map[string]any{"type": "command", "command": hook}}}}}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(settings, b, 0o600))
	w.agentInit("claude", "--mcp")
	m := newMock(t, anthropic{}, Shell("git status"), mcpCall("list", map[string]any{}), Say("done"))
	h := w.claude(bin, m, nil)
	require.NoError(t, h.Err)
	rs := results(t, m, 2)
	want := session.DerivedName("claude", claudeSessionID(t, h))
	sess, _ := refOf(t, rs[0].Output)
	require.Equal(t, want, sess)
	assert.Contains(t, rs[1].Output, want+"/0001-git-status", "rac mcp did not find the conversation: %s", rs[1].Output)
	assert.Equal(t, want, w.harnessNote(h.PID).Session)
}

// codexMCPHome is codexHome with rac mcp registered by agent-init codex
// --mcp.
func (w *World) codexMCPHome(m *Mock) string {
	w.t.Helper()
	home := w.codexHome(m)
	out := w.RunEnv([]string{"CODEX_HOME=" + home}, w.Rac, "agent-init", "codex", "--mcp")
	w.t.Logf("agent-init codex --mcp: %s", out)
	cfg, err := os.ReadFile(filepath.Join(home, "config.toml"))
	require.NoError(w.t, err)
	require.Contains(w.t, string(cfg), "[mcp_servers.rac]")
	return home
}

// RunEnv is Run with env added to the world's environment.
func (w *World) RunEnv(env []string, name string, args ...string) string {
	w.t.Helper()
	saved := w.Env
	w.Env = append(append([]string(nil), w.Env...), env...)
	defer func() { w.Env = saved }()
	return w.Run(name, args...)
}

// offeredTools are the tool names of the mock's requests (what the
// harness offers the model), for a failure's log.
func offeredTools(m *Mock) []string {
	seen := map[string]bool{}
	for _, l := range m.Log() {
		var req struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		if json.Unmarshal(l.Body, &req) == nil {
			for _, tl := range req.Tools {
				seen[tl.Name] = true
			}
		}
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
