package harnesstest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

// getenv looks a name up in the world's environment (what rac sees
// outside the harness).
func (w *World) getenv(name string) string {
	for _, kv := range w.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// harnessNote is the note a SessionStart hook wrote for harness pid in
// the world's store (store.HarnessDir/PID.json).
func (w *World) harnessNote(pid int) store.HarnessNote {
	w.t.Helper()
	loc := store.Locate(w.getenv)
	b, err := os.ReadFile(filepath.Join(loc.Path, store.HarnessDir, strconv.Itoa(pid)+".json"))
	require.NoError(w.t, err, "no harness note for pid %d", pid)
	var n store.HarnessNote
	require.NoError(w.t, json.Unmarshal(b, &n), "%s", b)
	return n
}

// With the SessionStart hook (the default route), the model's plain
// commands are recorded in the conversation's session: the tool result
// starts with the start line, two calls share the session, a later call
// reads the first (rac out read 1), grep's no-match result is untouched, and the
// hook noted the conversation under claude's pid.
func TestClaudeSessionStartHook(t *testing.T) {
	bin := need(t, "claude")
	w := newWorld(t)
	w.agentInit("claude", "--user")
	m := newMock(t, anthropic{},
		Shell("git status"),
		Shell("git log --oneline"),
		Shell("rac out read 1"),
		Shell("grep nosuch notes.txt"),
		Say("done"))
	h := w.claude(bin, m, nil)
	require.NoError(t, h.Err)
	rs := results(t, m, 4)
	for i, r := range rs {
		t.Logf("result %d (error %v): %q", i, r.IsError, r.Output)
	}
	want := session.DerivedName("claude", claudeSessionID(t, h))
	sess, name := refOf(t, rs[0].Output)
	assert.Equal(t, want, sess, "the plain git status is not in the conversation's session")
	assert.Equal(t, "0001-git-status", name)
	assert.True(t, strings.HasPrefix(rs[0].Output, "rac: recording "), "the start line is not the first line")
	assert.Contains(t, rs[0].Output, "nothing to commit")
	sess2, name2 := refOf(t, rs[1].Output)
	assert.Equal(t, sess, sess2, "the second call left the session")
	assert.Equal(t, "0002-git-log", name2)
	assert.Contains(t, rs[1].Output, "first commit")
	assert.Contains(t, rs[2].Output, "nothing to commit", "a later call did not read the first recording")
	assert.False(t, rs[3].IsError, "grep's no match became an error")
	assert.Equal(t, "(Bash completed with no output)", rs[3].Output)

	n := w.harnessNote(h.PID)
	assert.Equal(t, sess, n.Session)
	assert.Equal(t, "claude", n.Harness)
	assert.Equal(t, h.PID, n.PID)
	assert.NotZero(t, n.Start, "no process start time in the note")
}

// postToolUseProbe is a Claude Code settings hook entry that appends each
// PostToolUse input (the tool input as it ran) to file, one JSON a line.
func postToolUseProbe(file string) string {
	return `"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cat >> ` + file + `; echo >> ` + file + `"}]}]`
}

// ranInputs reads a postToolUseProbe file: the input each call ran with,
// by tool call id.
func ranInputs(t *testing.T, file string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err, "the PostToolUse probe wrote nothing")
	ran := map[string]map[string]any{}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var in struct {
			ID    string         `json:"tool_use_id"`
			Input map[string]any `json:"tool_input"`
		}
		require.NoError(t, json.Unmarshal([]byte(l), &in), "%s", l)
		ran[in.ID] = in.Input
	}
	return ran
}

// The PreToolUse rewrite (agent-init claude --rewrite) keeps every other
// input field and every decision of the harness's. What "the same with
// and without the hook" compares, call by call, in two worlds alike but
// for the hook (same commit hash): the tool result's is_error, and its
// text with rac's own lines ("rac: recording ...", "rac: ref ...")
// removed (withoutRacLines; nothing left is Claude Code's text for an
// empty result). For the calls Claude Code refuses, the text must be
// byte-identical and hold no rac line. Which command actually ran (the
// rewritten text or the original) is read from a PostToolUse hook, which
// gets the input the call ran with.
func TestClaudeRewriteHook(t *testing.T) {
	bin := need(t, "claude")
	script := []Step{
		// allowed by a rule: rewritten, and its timeout and description kept
		{Shell: "git show --stat HEAD", Input: map[string]any{"timeout": 60000, "description": "show the commit"}},
		Shell("git log"),           // no rule: Claude Code's own read-only allowance, which rac cannot see
		Shell("git status"),        // allowed by a rule: rewritten
		Shell("git push origin x"), // denied by a rule
		Shell("git tag v1"),        // no rule: needs approval (refused in -p)
		Shell("grep nosuch notes.txt"),
		Shell("git log | grep nosuch"),
		Say("done"),
	}
	const (
		rewritten = iota // PreToolUse wrapped it
		asTyped          // ran as typed (the SessionStart functions may record it)
		refused          // never ran
	)
	fate := []int{rewritten, asTyped, rewritten, refused, refused, asTyped, asTyped}
	run := func(hook, bypass bool) ([]ToolResult, map[string]map[string]any) {
		w := newWorld(t)
		probe := filepath.Join(w.Root, "post.jsonl")
		settings := `{"permissions":{"allow":["Bash(git status:*)","Bash(git show:*)"],"deny":["Bash(git push:*)"]},"hooks":{` + postToolUseProbe(probe) + `}}`
		require.NoError(t, os.MkdirAll(filepath.Join(w.WD, ".claude"), 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(w.WD, ".claude", "settings.json"), []byte(settings), 0o600))
		if hook {
			w.agentInit("claude", "--project", "--rewrite")
		}
		m := newMock(t, anthropic{}, script...)
		args := []string{"-p", "go", "--output-format", "stream-json", "--verbose"}
		if bypass {
			args = append(args, "--dangerously-skip-permissions")
		}
		require.NoError(t, w.harness(bin, claudeEnv(m), args...).Err)
		rs := results(t, m, len(fate))
		for i, r := range rs {
			t.Logf("hook %v, bypass %v: result %d (error %v): %q", hook, bypass, i, r.IsError, r.Output)
		}
		return rs, ranInputs(t, probe)
	}

	// default permission mode
	without, _ := run(false, false)
	with, ran := run(true, false)
	for i := range fate {
		assert.Equal(t, without[i].IsError, with[i].IsError, "call %d: the hook changed whether the result is an error", i)
		assert.Equal(t, without[i].Output, withoutRacLines(with[i].Output), "call %d: the hook changed the tool result", i)
		in := ran[with[i].ID]
		switch fate[i] {
		case rewritten:
			require.NotNil(t, in, "call %d did not run", i)
			assert.Equal(t, "rac run -- "+script[i].Shell, in["command"], "call %d", i)
			refOf(t, with[i].Output)
		case asTyped:
			require.NotNil(t, in, "call %d did not run", i)
			assert.Equal(t, script[i].Shell, in["command"], "call %d: rewritten without an allow rule rac can see", i)
		case refused:
			assert.Nil(t, in, "call %d ran", i)
			assert.True(t, with[i].IsError, "call %d", i)
			assert.Equal(t, without[i].Output, with[i].Output, "call %d: the hook changed a refusal", i)
			assert.NotContains(t, with[i].Output, "rac:", "call %d", i)
		}
	}
	in := ran[with[0].ID]
	assert.Equal(t, map[string]any{"command": "rac run -- git show --stat HEAD", "timeout": float64(60000), "description": "show the commit"}, in,
		"the rewrite dropped or changed a field of the input")
	assert.Contains(t, with[3].Output, "denied")
	assert.Contains(t, with[4].Output, "requires approval")
	for _, i := range []int{5, 6} {
		assert.False(t, with[i].IsError, "call %d: grep's no match became an error", i)
		assert.Equal(t, "(Bash completed with no output)", withoutRacLines(with[i].Output), "call %d", i)
	}

	// bypassPermissions: everything is allowed, so the pipeline's git log
	// is rewritten too, and grep's exit 1 is still "no matches"
	with, ran = run(true, true)
	assert.Equal(t, "rac run -- git log | grep nosuch", ran[with[6].ID]["command"])
	assert.Equal(t, "grep nosuch notes.txt", ran[with[5].ID]["command"], "grep was wrapped")
	refOf(t, with[6].Output)
	assert.Nil(t, ran[with[3].ID], "the deny rule stopped holding in bypassPermissions mode")
	assert.Contains(t, with[3].Output, "denied")
	for _, i := range []int{5, 6} {
		assert.False(t, with[i].IsError, "call %d: grep's no match became an error", i)
		assert.Equal(t, "(Bash completed with no output)", withoutRacLines(with[i].Output), "call %d", i)
	}
}

// codexCommands are the commands Codex ran, as its --json output shows
// them (after the hooks).
func codexCommands(t *testing.T, h Harness) []string {
	t.Helper()
	var cmds []string
	sc := bufio.NewScanner(strings.NewReader(h.Stdout))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"item"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "item.completed" && ev.Item.Type == "command_execution" {
			cmds = append(cmds, ev.Item.Command)
		}
	}
	return cmds
}

// Codex's PreToolUse hook (agent-init codex: hooks.json, run once
// trusted) records the model's plain commands in the thread's session.
// Codex runs each command in a login shell (bash -lc), whose PATH comes
// from /etc/profile, not from Codex: a bare "rac run --" would be "rac:
// command not found" there unless rac is on the system PATH, so the hook
// inserts the running rac's absolute path. The first call logs the
// premise: the shell's PATH lacks the world's bin folder that holds rac.
func TestCodexHook(t *testing.T) {
	bin := need(t, "codex")
	exe, err := filepath.EvalSymlinks(os.Getenv(envRac))
	require.NoError(t, err)
	for _, sandbox := range []string{fullAccess, workspaceWrite} {
		t.Run(sandbox, func(t *testing.T) {
			w := newWorld(t)
			m := newMock(t, openai{},
				Shell(`echo "PATH=$PATH"; command -v rac || echo no-rac-here`),
				Shell("git status"),
				Shell("git log --oneline | head -1"),
				Shell(w.Rac+" out read 1"),
				Shell("grep nosuch notes.txt"),
				Say("done"))
			home := w.codexHome(m)
			w.Run("env", "CODEX_HOME="+home, w.Rac, "agent-init", "codex", "--user")
			args := codexArgs(sandbox, "")
			args = append(args[:len(args)-1], "--dangerously-bypass-hook-trust", "go")
			h := w.harness(bin, codexEnv(home), args...)
			require.NoError(t, h.Err)
			rs := results(t, m, 5)
			for i, r := range rs {
				t.Logf("result %d: %q", i, r.Output)
			}
			_, out := codexOutput(t, rs[0])
			t.Logf("the shell's %s", out)
			if !strings.Contains(out, "no-rac-here") {
				// a rac installed in /usr/local/bin: the rewrite must still
				// name the rac under test
				t.Logf("a rac is on the login shell's PATH here: the PATH reset is not shown")
			}

			cmds := codexCommands(t, h)
			require.Len(t, cmds, 5)
			assert.Contains(t, cmds[1], exe+" run -- git status")
			assert.Contains(t, cmds[2], exe+" run -- git log --oneline | head -1")
			assert.NotContains(t, cmds[4], "run --", "grep was wrapped")

			want := session.DerivedName("codex", codexThreadID(t, h))
			sess, name := refOf(t, rs[1].Output)
			assert.Equal(t, want, sess, "the plain git status is not in the thread's session")
			assert.Equal(t, "0001-git-status", name)
			code, out := codexOutput(t, rs[1])
			assert.Equal(t, "0", code)
			// (in workspace-write a line saying the fallback store is used
			// comes first). Both lines are there; their order is Codex's:
			// stdout and stderr are separate pipes that Codex reads in two
			// tasks and appends as each read returns, so under load the
			// command's stdout can land before rac's start line although
			// rac wrote that line before the command started.
			assert.Contains(t, out, "rac: recording ")
			assert.Contains(t, out, "On branch")
			assert.Contains(t, out, "nothing to commit")
			sess2, name2 := refOf(t, rs[2].Output)
			assert.Equal(t, sess, sess2, "the second call left the session")
			assert.Equal(t, "0002-git-log", name2)
			code, out = codexOutput(t, rs[3])
			assert.Equal(t, "0", code)
			assert.Contains(t, out, "nothing to commit", "a later call did not read the first recording")
			code, out = codexOutput(t, rs[4])
			assert.Equal(t, "1", code)
			assert.Empty(t, out)
		})
	}
}

// geminiProbe adds to the Gemini settings in home a BeforeTool hook that
// saves each hook input (file.N.json) and the hook's GEMINI_ variables
// (file.N.env), N counting calls.
func geminiProbe(t *testing.T, home, file string) {
	t.Helper()
	name := filepath.Join(home, ".gemini", "settings.json")
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(b, &s))
	cmd := `n=$(ls ` + file + `.*.json 2>/dev/null | wc -l); cat > ` + file + `.$n.json; env | grep '^GEMINI_' | sort > ` + file + `.$n.env`
	s["hooks"] = map[string]any{"BeforeTool": []any{map[string]any{"matcher": "run_shell_command",
		"hooks": []any{map[string]any{"name": "probe", "type": "command", "command": cmd}}}}}
	b, err = json.Marshal(s)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(name, b, 0o600))
}

// Gemini CLI exports no conversation id to its shells, and --resume is a
// new process (so, without the hook, a new rac session: TestGeminiResume).
// Its hook input does carry it: session_id, and GEMINI_SESSION_ID in the
// hook's environment, both kept by --resume (a probe hook beside rac's
// saves them). rac's BeforeTool hook puts RAC_SESSION=gemini-ID before
// each wrapped command and each of the model's own rac commands, so the
// resumed process records into the conversation's session and reads the
// first process's recording.
func TestGeminiHookResume(t *testing.T) {
	bin := need(t, "gemini")
	w := newWorld(t)
	gh := w.geminiHome()
	probe := filepath.Join(w.Root, "probe")
	geminiProbe(t, gh, probe)
	w.Run("env", "GEMINI_CLI_HOME="+gh, w.Rac, "agent-init", "gemini", "--user")
	m := newMock(t, gemini{},
		Shell("git status"), Shell("rac out read last"), Say("done"),
		Shell("git log"), Shell("rac out read 1"), Say("done"))
	env := geminiEnv(m, gh)
	h := w.harness(bin, env, "-p", "go", "--yolo", "--output-format", "json")
	require.NoError(t, h.Err)
	var out struct {
		SessionID string `json:"session_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(h.Stdout), &out), "gemini's json output")
	require.NotEmpty(t, out.SessionID)
	require.NoError(t, w.harness(bin, env, "-p", "go", "--yolo", "--output-format", "json", "--resume", "latest").Err)
	rs := results(t, m, 4)
	for i, r := range rs {
		t.Logf("result %d: %q", i, r.Output)
	}

	// what the resumed process's hook got
	b, err := os.ReadFile(probe + ".2.json")
	require.NoError(t, err)
	var in struct {
		SessionID string `json:"session_id"`
		Input     struct {
			Command string `json:"command"`
		} `json:"tool_input"`
	}
	require.NoError(t, json.Unmarshal(b, &in), "%s", b)
	assert.Equal(t, "git log", in.Input.Command)
	assert.Equal(t, out.SessionID, in.SessionID, "the resumed conversation's hook input has another session_id")
	e, err := os.ReadFile(probe + ".2.env")
	require.NoError(t, err)
	assert.Contains(t, string(e), "GEMINI_SESSION_ID="+out.SessionID+"\n")

	want := session.DerivedName("gemini", out.SessionID)
	s1, n1 := refOf(t, rs[0].Output)
	assert.Equal(t, want, s1, "the plain git status is not in the conversation's session")
	assert.Equal(t, "0001-git-status", n1)
	assert.Contains(t, rs[1].Output, "nothing to commit", "the second call did not read the first by last")
	s2, n2 := refOf(t, rs[2].Output)
	assert.Equal(t, s1, s2, "the resumed conversation left its session")
	assert.Equal(t, "0002-git-log", n2)
	assert.Contains(t, rs[3].Output, "nothing to commit", "the resumed process did not read the first process's recording")
	assert.NotContains(t, rs[3].Output, "not found")
}
