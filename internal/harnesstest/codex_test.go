package harnesstest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codexHome writes a CODEX_HOME whose one provider is the mock.
func (w *World) codexHome(m *Mock) string {
	w.t.Helper()
	dir := filepath.Join(w.Root, "codex-home")
	require.NoError(w.t, os.MkdirAll(dir, 0o700))
	cfg := `model = "mock-model"
model_provider = "mock"
approval_policy = "never"

[model_providers.mock]
name = "mock"
base_url = "` + m.URL() + `/v1"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
`
	require.NoError(w.t, os.WriteFile(filepath.Join(dir, "config.toml"), []byte(cfg), 0o600))
	return dir
}

func codexEnv(home string) []string {
	return []string{"CODEX_HOME=" + home, "OPENAI_API_KEY=dummy", "RUST_LOG=error"}
}

// Codex's sandbox modes (codex exec defaults to read-only).
const (
	readOnly       = "read-only"
	workspaceWrite = "workspace-write"
	fullAccess     = "danger-full-access"
)

// codexArgs is codex exec in sandbox mode with the mock's provider;
// resume (a thread id) continues that conversation.
func codexArgs(sandbox, resume string) []string {
	a := []string{"exec", "--skip-git-repo-check", "--json", "-m", "mock-model", "-c", "model_provider=mock", "-c", "sandbox_mode=\"" + sandbox + "\""}
	if resume != "" {
		a = append(a, "resume", resume)
	}
	return append(a, "go")
}

// codex runs one conversation.
func (w *World) codex(bin string, m *Mock, sandbox, resume string) Harness {
	w.t.Helper()
	return w.harness(bin, codexEnv(w.codexHome(m)), codexArgs(sandbox, resume)...)
}

// codexThreadID is the thread of a --json run.
func codexThreadID(t *testing.T, h Harness) string {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(h.Stdout))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Type     string `json:"type"`
			ThreadID string `json:"thread_id"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.ThreadID != "" {
			return ev.ThreadID
		}
	}
	t.Fatalf("no thread_id in codex's output")
	return ""
}

// codexExit matches the exit line of an exec_command result.
var codexExit = regexp.MustCompile(`(?m)^Process exited with code (\d+)$`)

// codexOutput is an exec_command result's exit code and output (the
// text after its header).
func codexOutput(t *testing.T, r ToolResult) (string, string) {
	t.Helper()
	m := codexExit.FindStringSubmatch(r.Output)
	require.NotNil(t, m, "no exit line in the tool result:\n%s", r.Output)
	_, out, ok := strings.Cut(r.Output, "\nOutput:\n")
	require.True(t, ok, "no output in the tool result:\n%s", r.Output)
	return m[1], out
}

// A second call of one conversation reads the first by last; another
// conversation does not see it; exec resume stays in the session.
func TestCodexSession(t *testing.T) {
	bin := need(t, "codex")
	w := newWorld(t)
	rac := w.Rac
	m := newMock(t, openai{},
		Shell(rac+" run -- echo first-output"),
		Shell(rac+" out read last"),
		Say("done"),
		Shell(rac+" run -- echo resumed-output"),
		Shell(rac+" out read 1"),
		Say("done"))
	h := w.codex(bin, m, fullAccess, "")
	require.NoError(t, h.Err)
	rs := results(t, m, 2)
	sess, name := refOf(t, rs[0].Output)
	assert.True(t, strings.HasPrefix(sess, "codex-"), "session %s is not the thread's", sess)
	_, out := codexOutput(t, rs[1])
	assert.Contains(t, out, "first-output", "the second call did not read the first by last")

	h = w.codex(bin, m, fullAccess, codexThreadID(t, h))
	require.NoError(t, h.Err)
	rs = results(t, m, 4)
	sess2, name2 := refOf(t, rs[2].Output)
	assert.Equal(t, sess, sess2, "exec resume left the session")
	assert.NotEqual(t, name, name2)
	_, out = codexOutput(t, rs[3])
	assert.Contains(t, out, "first-output")

	other := newMock(t, openai{}, Shell(rac+" out read last"), Shell(rac+" run -- echo other"), Say("done"))
	require.NoError(t, w.codex(bin, other, fullAccess, "").Err)
	ors := results(t, other, 2)
	code, out := codexOutput(t, ors[0])
	assert.Equal(t, "1", code)
	assert.NotContains(t, out, "first-output")
	assert.Contains(t, out, "not found")
	sess3, _ := refOf(t, ors[1].Output)
	assert.NotEqual(t, sess, sess3)
}

// In workspace-write only the working folder, /tmp and $TMPDIR can be
// written, not the store under $HOME: the fallback store takes the
// recording and the second call finds it by last.
func TestCodexWorkspaceWrite(t *testing.T) {
	bin := need(t, "codex")
	w := newWorld(t)
	m := newMock(t, openai{},
		Shell(w.Rac+" run -- echo first-output"),
		Shell(w.Rac+" out read last"),
		Say("done"))
	require.NoError(t, w.codex(bin, m, workspaceWrite, "").Err)
	rs := results(t, m, 2)
	refOf(t, rs[0].Output)
	code, out := codexOutput(t, rs[1])
	assert.Equal(t, "0", code)
	assert.Contains(t, out, "first-output", "the second call did not read the first by last")
}

// A conversation begun with full access (recording 1 in the store under
// $HOME) and resumed in workspace-write, where that store is read-only:
// recording 2 goes to the fallback, numbered on from the store's counter,
// and both are found.
func TestCodexResumeIntoSandbox(t *testing.T) {
	bin := need(t, "codex")
	w := newWorld(t)
	m := newMock(t, openai{},
		Shell(w.Rac+" run -- echo outside"),
		Say("done"),
		Shell(w.Rac+" run -- echo inside"),
		Shell(w.Rac+" out read 1"),
		Shell(w.Rac+" out read last"),
		Say("done"))
	h := w.codex(bin, m, fullAccess, "")
	require.NoError(t, h.Err)
	require.NoError(t, w.codex(bin, m, workspaceWrite, codexThreadID(t, h)).Err)
	rs := results(t, m, 4)
	s1, n1 := refOf(t, rs[0].Output)
	s2, n2 := refOf(t, rs[1].Output)
	assert.Equal(t, s1, s2)
	assert.Equal(t, "0001-echo-outside", n1)
	assert.Equal(t, "0002-echo-inside", n2, "the fallback store numbered from 1 again")
	assert.Contains(t, rs[1].Output, "instead")
	_, out := codexOutput(t, rs[2])
	assert.Contains(t, out, "outside")
	_, out = codexOutput(t, rs[3])
	assert.Contains(t, out, "inside")
}

// In the read-only sandbox nothing can be written: the command runs
// unchanged, rac says so in one line naming the ways to allow writes,
// and the next call's "not found" says the same, not that the session
// is wrong.
func TestCodexReadOnly(t *testing.T) {
	bin := need(t, "codex")
	w := newWorld(t)
	m := newMock(t, openai{},
		Shell("echo same-output; exit 3"),
		Shell(w.Rac+" run -- sh -c 'echo same-output; exit 3'"),
		Shell(w.Rac+" out read last"),
		Say("done"))
	require.NoError(t, w.codex(bin, m, readOnly, "").Err)
	rs := results(t, m, 3)
	code0, out0 := codexOutput(t, rs[0])
	code1, out1 := codexOutput(t, rs[1])
	assert.Equal(t, code0, code1, "rac changed the exit status")
	var rac, rest []string
	for _, l := range strings.Split(out1, "\n") {
		if strings.HasPrefix(l, "rac: ") {
			rac = append(rac, l)
		} else {
			rest = append(rest, l)
		}
	}
	assert.Equal(t, out0, strings.Join(rest, "\n"), "rac changed the command's output")
	require.Len(t, rac, 1, "want one line from rac: %q", rac)
	assert.Contains(t, rac[0], "sandbox")
	assert.Contains(t, rac[0], "workspace-write")
	assert.Contains(t, rac[0], "RAC_HOME")
	code2, out2 := codexOutput(t, rs[2])
	assert.Equal(t, "1", code2)
	assert.Contains(t, out2, "sandbox", "the not-found hint does not name the sandbox")
	assert.NotContains(t, out2, "another session", "the not-found hint blames the session")
}

// Codex treats exit codes alike whatever the command's name: grep's 1
// and git log | grep's 1 reach the model as the same result with rac run
// in front of git log.
func TestCodexGrepNoMatch(t *testing.T) {
	bin := need(t, "codex")
	w := newWorld(t)
	m := newMock(t, openai{},
		Shell("grep nosuch notes.txt"),
		Shell("git log | grep nosuch"),
		Shell(w.Rac+" run -- git log | grep nosuch"),
		Say("done"))
	require.NoError(t, w.codex(bin, m, fullAccess, "").Err)
	rs := results(t, m, 3)
	var codes, outs []string
	for _, r := range rs {
		c, o := codexOutput(t, r)
		codes, outs = append(codes, c), append(outs, o)
	}
	assert.Equal(t, []string{"1", "1", "1"}, codes)
	refOf(t, rs[2].Output)
	assert.Equal(t, outs[1], strings.TrimPrefix(withoutRacLines(outs[2]), "(Bash completed with no output)"))
}

// Codex kills a call's process group with SIGKILL when the session ends
// and on Ctrl-C: rac keeps the command in that group, so nothing is left.
func TestCodexKill(t *testing.T) {
	bin := need(t, "codex")
	for _, tc := range []struct {
		name  string
		ctrlC bool
	}{{"session-end", false}, {"ctrl-c", true}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			pp := newPidPipe(t, w.Root)
			m := newMock(t, openai{},
				// yield_time_ms: the call hands back to the model after 1s
				// (10s by default), and the session ends
				Step{Shell: w.Rac + " run -- sh -c 'echo $$ $PPID > " + pp.Path + "; exec sleep 300'", Input: map[string]any{"yield_time_ms": 1000}},
				Say("done"))
			cmd, _, _ := w.start(t.Context(), bin, codexEnv(w.codexHome(m)), codexArgs(fullAccess, "")...)
			pids := pp.wait(t, harnessTimeout)
			if tc.ctrlC {
				require.NoError(t, syscall.Kill(-cmd.Process.Pid, syscall.SIGINT))
			}
			_ = cmd.Wait()
			waitPidsGone(t, pids, 10*time.Second)
		})
	}
}
