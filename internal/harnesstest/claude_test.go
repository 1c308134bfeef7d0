package harnesstest

import (
	"bufio"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// claudeEnv is the environment Claude Code runs offline with, against m.
func claudeEnv(m *Mock) []string {
	return []string{
		"ANTHROPIC_BASE_URL=" + m.URL(), "ANTHROPIC_API_KEY=dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1",
		"DISABLE_ERROR_REPORTING=1", "IS_SANDBOX=1",
	}
}

func claudeArgs(args ...string) []string {
	return append([]string{"-p", "go", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose"}, args...)
}

// claude runs one conversation (claude -p) with extra arguments.
func (w *World) claude(bin string, m *Mock, env []string, args ...string) Harness {
	w.t.Helper()
	return w.harness(bin, append(claudeEnv(m), env...), claudeArgs(args...)...)
}

// claudeSessionID is the conversation id of a stream-json run.
func claudeSessionID(t *testing.T, h Harness) string {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(h.Stdout))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Type      string `json:"type"`
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.SessionID != "" {
			return ev.SessionID
		}
	}
	t.Fatalf("no session_id in claude's output")
	return ""
}

// results are the mock's tool results, n of them, with the log dumped
// when the count is off.
func results(t *testing.T, m *Mock, n int) []ToolResult {
	t.Helper()
	rs := m.Results()
	if len(rs) != n {
		m.Dump()
		t.Fatalf("the model received %d tool results, want %d: %+v", len(rs), n, rs)
	}
	return rs
}

// A second call of one conversation reads the first by last; another
// conversation does not see it; --resume stays in the session.
func TestClaudeSession(t *testing.T) {
	bin := need(t, "claude")
	w := newWorld(t)
	m := newMock(t, anthropic{},
		Shell("rac run -- echo first-output"),
		Shell("rac out read last"),
		Say("done"),
		// the resumed conversation: its history holds the 3 turns above
		Shell("rac run -- echo resumed-output"),
		Shell("rac out read 1"),
		Say("done"))
	h := w.claude(bin, m, nil)
	require.NoError(t, h.Err)
	rs := results(t, m, 2)
	sess, name := refOf(t, rs[0].Output)
	assert.True(t, strings.HasPrefix(sess, "claude-"), "session %s is not the conversation's", sess)
	assert.Contains(t, rs[0].Output, "first-output")
	assert.False(t, rs[0].IsError)
	assert.Contains(t, rs[1].Output, "first-output", "the second call did not read the first by last")
	assert.NotContains(t, rs[1].Output, "not found")

	// --resume: the same conversation, a new process
	h = w.claude(bin, m, nil, "--resume", claudeSessionID(t, h))
	require.NoError(t, h.Err)
	rs = results(t, m, 4)
	sess2, name2 := refOf(t, rs[2].Output)
	assert.Equal(t, sess, sess2, "--resume left the session")
	assert.NotEqual(t, name, name2)
	assert.Contains(t, rs[3].Output, "first-output")

	// another conversation: its own session, which has recorded nothing
	other := newMock(t, anthropic{}, Shell("rac out read last"), Shell("rac run -- echo other"), Say("done"))
	require.NoError(t, w.claude(bin, other, nil).Err)
	ors := results(t, other, 2)
	assert.NotContains(t, ors[0].Output, "first-output")
	assert.Contains(t, ors[0].Output, "not found")
	sess3, _ := refOf(t, ors[1].Output)
	assert.NotEqual(t, sess, sess3)
}

// grep's exit 1 is "no matches" to Claude Code by the command's name: a
// pipeline ending in grep keeps that with rac run in front of its first
// command (what a rewrite of git log | grep makes).
func TestClaudeGrepNoMatch(t *testing.T) {
	bin := need(t, "claude")
	w := newWorld(t)
	m := newMock(t, anthropic{},
		Shell("grep nosuch notes.txt"),
		Shell("git log | grep nosuch"),
		Shell("rac run -- git log | grep nosuch"),
		Say("done"))
	require.NoError(t, w.claude(bin, m, nil).Err)
	rs := results(t, m, 3)
	for i, r := range rs {
		t.Logf("result %d (error %v): %q", i, r.IsError, r.Output)
		assert.False(t, r.IsError, "call %d became an error result", i)
	}
	assert.Equal(t, rs[0].Output, rs[1].Output, "git log | grep is not the no-match result of grep")
	refOf(t, rs[2].Output)
	assert.Equal(t, rs[1].Output, withoutRacLines(rs[2].Output), "rac run in front of git log changed the no-match result")
}

// A call Claude Code kills (its timeout, with background tasks off)
// leaves neither rac nor the command running; the model got the start
// line, printed before the command's first byte.
func TestClaudeTimeoutKill(t *testing.T) {
	bin := need(t, "claude")
	w := newWorld(t)
	pp := newPidPipe(t, w.Root)
	m := newMock(t, anthropic{},
		Step{Shell: "rac run -- sh -c 'echo $$ $PPID > " + pp.Path + "; exec sleep 300'", Input: map[string]any{"timeout": 3000}},
		Say("done"))
	h := w.claude(bin, m, []string{"CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1"})
	require.NoError(t, h.Err)
	pids := pp.wait(t, time.Second)
	waitPidsGone(t, pids, 10*time.Second)
	rs := results(t, m, 1)
	refOf(t, rs[0].Output)
}

// Killing Claude Code itself mid-call (SIGTERM, as a terminal closing)
// leaves nothing behind either.
func TestClaudeHarnessKill(t *testing.T) {
	bin := need(t, "claude")
	w := newWorld(t)
	pp := newPidPipe(t, w.Root)
	m := newMock(t, anthropic{},
		Shell("rac run -- sh -c 'echo $$ $PPID > "+pp.Path+"; exec sleep 300'"),
		Say("done"))
	ctx := t.Context()
	cmd, _, _ := w.start(ctx, bin, claudeEnv(m), claudeArgs()...)
	pids := pp.wait(t, harnessTimeout)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	_ = cmd.Wait()
	waitPidsGone(t, pids, 10*time.Second)
}
