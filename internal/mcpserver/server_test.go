package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/mcpserver"
	"github.com/rac-cli/rac/internal/runspec"
	"github.com/rac-cli/rac/internal/store"
)

const budget = 8 << 10

func TestInitializeAndListTools(t *testing.T) {
	f := newFixture(t)
	for _, run := range []bool{false, true} {
		t.Run(fmt.Sprintf("run=%v", run), func(t *testing.T) {
			cs := f.connect(t, mcpserver.Options{Budget: budget, Run: run, Version: "1.2.3"})
			ir := cs.InitializeResult()
			require.NotNil(t, ir)
			assert.Equal(t, "rac", ir.ServerInfo.Name)
			assert.Equal(t, "1.2.3", ir.ServerInfo.Version)
			assert.NotNil(t, ir.Capabilities.Tools)
			tools, err := cs.ListTools(context.Background(), nil)
			require.NoError(t, err)
			var names []string
			for _, tl := range tools.Tools {
				names = append(names, tl.Name)
				assert.NotEmpty(t, tl.Description, tl.Name)
				assert.NotNil(t, tl.InputSchema, tl.Name)
			}
			want := []string{"list", "read", "grep", "explain"}
			if run {
				want = append(want, "run")
			}
			assert.ElementsMatch(t, want, names, "run is offered only when mcp.run is true")
		})
	}
}

func TestReadListGrepExplain(t *testing.T) {
	f := newFixture(t)
	ref := f.record(t, "s1", true, "sh", "-c", "seq 1 300; echo 'error: it broke' >&2; exit 3")
	f.record(t, "s1", true, "sh", "-c", "echo second")
	cs := f.connect(t, mcpserver.Options{Budget: budget})

	t.Run("read tail by default", func(t *testing.T) {
		res, text, sc := call(t, cs, budget, "read", map[string]any{"ref": ref, "stream": "stdout"})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "300: 300\n")
		assert.Contains(t, text, "221: 221\n")
		assert.NotContains(t, text, "220: 220\n", "80 lines")
		assert.Equal(t, ref, sc["ref"])
		assert.Equal(t, float64(300), sc["stream_lines"])
		assert.Len(t, sc["lines"], 80)
	})
	t.Run("read a range in a session", func(t *testing.T) {
		res, text, sc := call(t, cs, budget, "read", map[string]any{"ref": "1", "session": "s1", "stream": "stdout", "lines": "10:12"})
		require.False(t, res.IsError, text)
		assert.Equal(t, "s1/0001-sh stdout (exited), 300 lines:\n10: 10\n11: 11\n12: 12\n", text)
		assert.Empty(t, sc["cut"])
		assert.Nil(t, sc["next"])
	})
	t.Run("read both streams", func(t *testing.T) {
		// two pipes: which of the last lines came first is the scheduler's
		both := f.record(t, "s2", true, "sh", "-c", "echo out; echo err >&2")
		_, text, sc := call(t, cs, budget, "read", map[string]any{"ref": both, "head": 10})
		assert.Contains(t, text, "stdout:1: out\n")
		assert.Contains(t, text, "stderr:1: err\n")
		assert.Empty(t, sc["stream"], "arrival order")
	})
	t.Run("list newest first", func(t *testing.T) {
		res, text, sc := call(t, cs, budget, "list", map[string]any{"session": "s1"})
		require.False(t, res.IsError, text)
		entries := sc["entries"].([]any)
		require.Len(t, entries, 2)
		assert.Equal(t, "s1/0002-sh", entries[0].(map[string]any)["ref"])
		assert.Equal(t, float64(2), sc["total"])
		_, _, sc = call(t, cs, budget, "list", map[string]any{"session": "s1", "limit": 1})
		assert.Len(t, sc["entries"], 1)
		assert.Equal(t, float64(1), sc["next_skip"])
		assert.Contains(t, fmt.Sprint(sc["cut"]), "limit: 1 older entries not shown")
		_, _, sc = call(t, cs, budget, "list", map[string]any{"all_sessions": true})
		require.Len(t, sc["entries"], 3, "s1's two and s2's one")
		assert.Equal(t, "s2/0001-sh", sc["entries"].([]any)[0].(map[string]any)["ref"], "the newest")
	})
	t.Run("grep", func(t *testing.T) {
		res, text, sc := call(t, cs, budget, "grep", map[string]any{"text": "IT BROKE", "ignore_case": true, "session": "s1", "context": 1})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, ref+":stderr:1:error: it broke\n")
		assert.Equal(t, float64(1), sc["total"])
		_, text, sc = call(t, cs, budget, "grep", map[string]any{"text": "1", "session": "s1"})
		assert.Less(t, len(sc["hits"].([]any)), 300/2, "bounded")
		assert.Equal(t, float64(138), sc["total"], "every hit counted")
		assert.Contains(t, text, "rac: next: grep skip=")
		skip := sc["next_skip"]
		_, _, sc = call(t, cs, budget, "grep", map[string]any{"text": "1", "session": "s1", "skip": skip})
		first := sc["hits"].([]any)[0].(map[string]any)
		assert.Greater(t, first["line"], float64(1), "the next page starts after the last hit shown")
	})
	t.Run("explain", func(t *testing.T) {
		res, text, sc := call(t, cs, budget, "explain", map[string]any{"ref": ref})
		require.False(t, res.IsError, text)
		assert.Contains(t, text, "error: it broke")
		assert.Equal(t, ref, sc["ref"])
		assert.Equal(t, float64(3), sc["exit_code"])
	})
}

func TestBadInputIsAToolError(t *testing.T) {
	f := newFixture(t)
	f.record(t, "s1", true, "sh", "-c", "echo a")
	f.record(t, "s1", true, "sh", "-c", "echo b")
	f.record(t, "s1", true, "true")
	f.record(t, "s1", true, "sh", "-c", "echo o; echo e >&2")
	cs := f.connect(t, mcpserver.Options{Budget: budget})
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"unknown reference", "read", map[string]any{"ref": "s1/0099"}, `not found: no recording "0099" in session "s1"; list shows`},
		{"unknown session", "read", map[string]any{"ref": "nosuch/1"}, `no session "nosuch"`},
		{"ambiguous prefix", "read", map[string]any{"ref": "s", "session": "s1"}, "ambiguous"},
		{"traversal", "read", map[string]any{"ref": "../../etc/passwd"}, "invalid reference"},
		{"absolute path", "explain", map[string]any{"ref": "/etc/passwd"}, "absolute paths are not allowed"},
		{"traversal in session", "list", map[string]any{"session": "../x"}, "session"},
		{"huge tail", "read", map[string]any{"ref": "s1/1", "tail": 1 << 40}, "huge range"},
		{"two ranges", "read", map[string]any{"ref": "s1/1", "head": 1, "tail": 1}, "one of head, tail and lines"},
		{"bad range", "read", map[string]any{"ref": "s1/1", "lines": "9:3"}, `invalid lines "9:3": use A:B with line numbers from 1 (e.g. lines=120:160)`},
		{"bad stream", "read", map[string]any{"ref": "s1/1", "stream": "fd3"}, `invalid stream "fd3"`},
		{"both streams", "read", map[string]any{"ref": "s1/4", "lines": "1"}, "add stream=stdout or stream=stderr to lines"},
		{"negative head", "read", map[string]any{"ref": "s1/1", "head": -1}, "head and tail take"},
		{"missing ref", "read", map[string]any{}, "ref"},
		{"empty grep", "grep", map[string]any{"text": "", "session": "s1"}, "empty text"},
		{"huge context", "grep", map[string]any{"text": "a", "session": "s1", "context": 1000}, "context takes 0 to 10"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, text, _ := call(t, cs, budget, tt.tool, tt.args)
			assert.True(t, res.IsError, text)
			assert.Contains(t, text, tt.want)
			assert.NotContains(t, text, "--", "the tools' parameters, not rac's flags")
		})
	}
	// the run tool is not there at all when mcp.run is off
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"argv": []string{"true"}}})
	assert.ErrorContains(t, err, `unknown tool "run"`)
	// the server is still there
	res, text, _ := call(t, cs, budget, "read", map[string]any{"ref": "s1/1"})
	assert.False(t, res.IsError, text)
}

func TestReadOfHugeRangesStaysWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("records 100 MiB")
	}
	f := newFixture(t)
	// 100 MiB of numbered lines, and one line of 1 MiB
	ref := f.record(t, "big", true, "sh", "-c", "seq 1 14000000 | sed 's/$/ some text to make the line longer/' | head -c 104857600; head -c 1048576 /dev/zero | tr '\\0' x; echo")
	cs := f.connect(t, mcpserver.Options{Budget: budget})
	for _, args := range []map[string]any{
		{"ref": ref},
		{"ref": ref, "tail": 10000},
		{"ref": ref, "head": 10000},
		{"ref": ref, "lines": "1:"},
		{"ref": ref, "lines": "2000000:99999999"},
		{"ref": ref, "tail": 1},
	} {
		res, text, sc := call(t, cs, budget, "read", args)
		require.False(t, res.IsError, text)
		require.NotEmpty(t, sc["lines"], "%v", args)
		if args["tail"] == 1 {
			assert.Contains(t, text, "more bytes not shown", "the 1 MiB line is cut and says so")
			continue
		}
		assert.Contains(t, text, "rac: cut: budget:", "%v: the cut is stated", args)
		require.NotNil(t, sc["next"], "%v: and the next range", args)
	}
	_, _, sc := call(t, cs, budget, "list", map[string]any{"session": "big"})
	assert.Len(t, sc["entries"], 1)
	_, _, _ = call(t, cs, budget, "explain", map[string]any{"ref": ref})
	_, _, sc = call(t, cs, budget, "grep", map[string]any{"text": "line longer", "session": "big"})
	assert.Greater(t, sc["total"], float64(1_000_000))
}

func TestNextRangeContinuesARead(t *testing.T) {
	f := newFixture(t)
	ref := f.record(t, "s1", true, "sh", "-c", "seq 1 5000")
	const small = mcpserver.MinBudget
	cs := f.connect(t, mcpserver.Options{Budget: small})
	_, _, sc := call(t, cs, small, "read", map[string]any{"ref": ref, "head": 3000})
	next := sc["next"].(map[string]any)
	lines := sc["lines"].([]any)
	last := lines[len(lines)-1].(map[string]any)["line"].(float64)
	assert.Equal(t, fmt.Sprintf("%d:3000", int(last)+1), next["lines"])
	_, _, sc = call(t, cs, small, "read", map[string]any{"ref": ref, "lines": next["lines"]})
	first := sc["lines"].([]any)[0].(map[string]any)["line"].(float64)
	assert.Equal(t, last+1, first, "no line lost between pages")

	_, _, sc = call(t, cs, small, "read", map[string]any{"ref": ref, "tail": 1000})
	lines = sc["lines"].([]any)
	assert.Equal(t, float64(5000), lines[len(lines)-1].(map[string]any)["line"], "a cut tail keeps its end")
	next = sc["next"].(map[string]any)
	first = lines[0].(map[string]any)["line"].(float64)
	assert.Equal(t, fmt.Sprintf("4001:%d", int(first)-1), next["lines"])
}

func TestSecretsNeverInAResult(t *testing.T) {
	f := newFixture(t)
	script := "echo token=$" + secretEnv + "; echo $" + secretEnv + " >&2"
	redacted := f.record(t, "s1", true, "sh", "-c", script)
	// made with --no-redact: the bytes hold the secret, the results must not
	raw := f.record(t, "s1", false, "sh", "-c", script)
	cs := f.connect(t, mcpserver.Options{Budget: budget, Run: true})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"ref": redacted}},
		{"read", map[string]any{"ref": raw}},
		{"read", map[string]any{"ref": raw, "stream": "stderr", "lines": "1"}},
		{"grep", map[string]any{"text": "token", "session": "s1", "context": 2}},
		{"grep", map[string]any{"text": secret[:8], "session": "s1"}},
		{"list", map[string]any{"session": "s1"}},
		{"explain", map[string]any{"ref": raw}},
		{"run", map[string]any{"command": script, "session": "s1"}},
		{"run", map[string]any{"argv": []string{"echo", secret}, "session": "s1"}},
	} {
		res, text, sc := call(t, cs, budget, c.tool, c.args)
		require.False(t, res.IsError, "%s %v: %s", c.tool, c.args, text)
		assert.NotContains(t, text, secret, "%s %v", c.tool, c.args)
		assert.NotContains(t, fmt.Sprint(sc), secret, "%s %v", c.tool, c.args)
	}
	// the raw recording really holds it: the test could fail
	p := filepath.Join(f.home, "sessions", "s1")
	found := false
	_ = filepath.Walk(p, func(path string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), secret) {
				found = true
			}
		}
		return nil
	})
	assert.True(t, found, "the --no-redact recording keeps the secret on disk")
}

func TestDefaultSession(t *testing.T) {
	f := newFixture(t)
	f.record(t, "from-hook", true, "echo", "hook")
	f.record(t, "from-env", true, "echo", "env")
	f.record(t, "from-flag", true, "echo", "flag")
	self := os.Getpid()
	start, _ := store.ProcStart(self)
	st, err := store.OpenStore(f.home)
	require.NoError(t, err)
	defer st.Close()

	t.Run("rac run's rules without a note", func(t *testing.T) {
		f.env["RAC_SESSION"] = "from-env"
		defer delete(f.env, "RAC_SESSION")
		cs := f.connect(t, mcpserver.Options{Budget: budget, ParentPID: self})
		_, text, _ := call(t, cs, budget, "list", nil)
		assert.Contains(t, text, "from-env/0001-echo")
	})
	t.Run("a note for another process with that pid", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("needs start times from /proc")
		}
		require.NoError(t, st.NoteHarness(store.HarnessNote{PID: self, Start: start + 1, Harness: "claude", Session: "from-hook", At: time.Now()}))
		cs := f.connect(t, mcpserver.Options{Budget: budget, ParentPID: self})
		_, text, _ := call(t, cs, budget, "list", nil)
		assert.NotContains(t, text, "from-hook/0001-echo", "a reused pid never matches")
	})
	t.Run("a note for a parent that is gone", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("needs /proc")
		}
		gone := exec.Command("true")
		require.NoError(t, gone.Run())
		pid := gone.Process.Pid
		require.NoError(t, st.NoteHarness(store.HarnessNote{PID: pid, Harness: "claude", Session: "from-hook", At: time.Now()}))
		cs := f.connect(t, mcpserver.Options{Budget: budget, ParentPID: pid})
		_, text, _ := call(t, cs, budget, "list", nil)
		assert.NotContains(t, text, "from-hook/0001-echo", "the note of a harness that has exited still chose the session")
	})
	t.Run("the SessionStart note of the parent", func(t *testing.T) {
		require.NoError(t, st.NoteHarness(store.HarnessNote{PID: self, Start: start, Harness: "claude", Session: "from-hook", At: time.Now()}))
		cs := f.connect(t, mcpserver.Options{Budget: budget, ParentPID: self})
		_, text, _ := call(t, cs, budget, "list", nil)
		assert.Contains(t, text, "from-hook/0001-echo")
		_, text, _ = call(t, cs, budget, "read", map[string]any{"ref": "last"})
		assert.Contains(t, text, "1: hook")
		// /clear: the hook announces a new session under the same server
		require.NoError(t, st.NoteHarness(store.HarnessNote{PID: self, Start: start, Harness: "claude", Session: "from-env", At: time.Now().Add(time.Second)}))
		_, text, _ = call(t, cs, budget, "read", map[string]any{"ref": "last"})
		assert.Contains(t, text, "1: env")
		// an argument still wins
		_, text, _ = call(t, cs, budget, "read", map[string]any{"ref": "last", "session": "from-hook"})
		assert.Contains(t, text, "1: hook")
	})
	// the server's own explicit session (rac mcp --session, or RAC_SESSION
	// in its registration's environment) wins over the hook's note
	t.Run("an explicit session over the note", func(t *testing.T) {
		require.NoError(t, st.NoteHarness(store.HarnessNote{PID: self, Start: start, Harness: "claude", Session: "from-hook", At: time.Now().Add(2 * time.Second)}))
		cs := f.connect(t, mcpserver.Options{Budget: budget, ParentPID: self, App: f.app("from-flag")})
		_, text, _ := call(t, cs, budget, "read", map[string]any{"ref": "last"})
		assert.Contains(t, text, "1: flag", "rac mcp --session lost to the note")
		f.env["RAC_SESSION"] = "from-env"
		defer delete(f.env, "RAC_SESSION")
		cs = f.connect(t, mcpserver.Options{Budget: budget, ParentPID: self})
		_, text, _ = call(t, cs, budget, "read", map[string]any{"ref": "last"})
		assert.Contains(t, text, "1: env", "RAC_SESSION lost to the note")
	})
}

func TestRun(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, mcpserver.Options{Budget: budget, Run: true})
	dir := t.TempDir()
	res, text, sc := call(t, cs, budget, "run", map[string]any{"command": "pwd; seq 1 100; echo oops >&2; exit 2", "cwd": dir, "session": "r1"})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, "rac: ref r1/0001-sh")
	assert.Contains(t, text, dir, "ran in cwd")
	assert.NotContains(t, text, "\n50\n", "a summary, not the output")
	result := sc["result"].(map[string]any)
	assert.Equal(t, float64(2), result["exit_code"])
	assert.Equal(t, float64(101), result["stdout_lines"])
	assert.Equal(t, "r1/0001-sh", sc["ref"])
	// the recording is there for read
	_, text, _ = call(t, cs, budget, "read", map[string]any{"ref": "r1/1", "stream": "stdout", "lines": "51"})
	assert.Contains(t, text, "51: 50")

	for _, bad := range []map[string]any{
		{},
		{"argv": []string{"true"}, "command": "true"},
		{"argv": []string{"true"}, "cwd": "relative/dir"},
		{"argv": []string{"true"}, "timeout_seconds": 99999},
	} {
		res, text, _ := call(t, cs, budget, "run", bad)
		assert.True(t, res.IsError, "%v: %s", bad, text)
	}
	for cwd, want := range map[string]string{
		"/no/such/dir":          `cwd "/no/such/dir" does not exist`,
		filepath.Join(dir, "f"): "is not a directory",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "f"), nil, 0o600))
		res, text, _ := call(t, cs, budget, "run", map[string]any{"argv": []string{"true"}, "cwd": cwd, "session": "r1"})
		assert.True(t, res.IsError, text)
		assert.Contains(t, text, want)
		assert.NotContains(t, text, "cannot start rac", "the cwd is at fault, not rac's executable")
	}
	res, text, sc = call(t, cs, budget, "run", map[string]any{"argv": []string{"/no/such/command"}, "session": "r1"})
	require.False(t, res.IsError, text)
	assert.Equal(t, float64(127), sc["result"].(map[string]any)["exit_code"])
}

func TestRunKillsItsProcessGroupOnTimeout(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	f := newFixture(t)
	cs := f.connect(t, mcpserver.Options{Budget: budget, Run: true})
	pidfile := filepath.Join(t.TempDir(), "pid")
	// the background sleep's parent exits at once: it is no descendant of
	// the command any more, only a member of its process group
	cmd := fmt.Sprintf("(sleep 300 >/dev/null 2>&1 & echo $! > %s); sleep 300", pidfile)
	res, text, sc := call(t, cs, budget, "run", map[string]any{"command": cmd, "timeout_seconds": 1, "session": "r1"})
	require.False(t, res.IsError, text)
	assert.Equal(t, "timed_out", sc["result"].(map[string]any)["status"])
	waitGone(t, waitFile(t, pidfile))
}

// What the command leaves running is killed when the call returns, also a
// child that left the command's session and group with setsid.
func TestRunLeavesNoSetsidChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a child subreaper and /proc")
	}
	f := newFixture(t)
	cs := f.connect(t, mcpserver.Options{Budget: budget, Run: true})
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := fmt.Sprintf("setsid sh -c 'echo $$ > %s; exec sleep 300' >/dev/null 2>&1 & while [ ! -s %s ]; do :; done", pidfile, pidfile)
	res, text, _ := call(t, cs, budget, "run", map[string]any{"command": cmd, "session": "r1"})
	require.False(t, res.IsError, text)
	waitGone(t, waitFile(t, pidfile))
}

func TestServerExitKillsRunningCommands(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	f := newFixture(t)
	cs, stop := start(t, mcpserver.Options{App: f.app(""), Rac: []string{os.Args[0]}, Budget: budget, Run: true})
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := fmt.Sprintf("(sleep 300 >/dev/null 2>&1 & echo $! > %s); sleep 300", pidfile)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": cmd, "session": "r1"}})
	}()
	pid := waitFile(t, pidfile)
	stop()
	waitGone(t, pid)
	<-done
}

// kill -9 of the server while a run call is under way leaves no process of
// the command: not the command, not its child, not a child that left its
// session with setsid (rac run is a child subreaper whose parent-death
// signal, SIGTERM, makes it kill everything below it).
func TestServerKilledLeavesNoProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a child subreaper and /proc")
	}
	newFixture(t)
	dir := t.TempDir()
	srv := exec.Command(os.Args[0], serveArg)
	srv.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	in, err := srv.StdinPipe()
	require.NoError(t, err)
	errf, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	defer errf.Close()
	srv.Stdout, srv.Stderr = io.Discard, errf
	require.NoError(t, srv.Start())
	t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
	cmd := `sleep 300 & echo $! > child; setsid sh -c 'echo $$ > setsid; exec sleep 300' & echo $$ > cmd; wait`
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"session":"k","cwd":` + strconv.Quote(dir) + `,"command":` + strconv.Quote(cmd) + `}}}`,
	} {
		_, err := io.WriteString(in, frame+"\n")
		require.NoError(t, err)
	}
	var pids []string
	for _, name := range []string{"cmd", "child", "setsid"} {
		pids = append(pids, waitFile(t, filepath.Join(dir, name)))
		if srv.Process.Signal(syscall.Signal(0)) != nil {
			b, _ := os.ReadFile(errf.Name())
			t.Fatalf("the server ended: %s", b)
		}
	}
	// rac run too, the command's parent: it writes the recording's end
	// after the command, into the test's store
	stat, err := os.ReadFile("/proc/" + pids[0] + "/stat")
	require.NoError(t, err)
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	pids = append(pids, fields[1])
	require.NoError(t, srv.Process.Signal(syscall.SIGKILL))
	for _, pid := range pids {
		waitGone(t, pid)
	}
}

// A client that writes its requests and closes its end at once still gets
// every answer (the SDK alone would drop those under way at the end of input).
func TestServeIOAnswersEverythingBeforeTheEndOfInput(t *testing.T) {
	f := newFixture(t)
	ref := f.record(t, "s1", true, "echo", "hello")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{"ref":"` + ref + `"}}}`,
	}, "\n") + "\n"
	var out strings.Builder
	srv := mcpserver.New(mcpserver.Options{App: f.app(""), Budget: budget})
	require.NoError(t, srv.ServeIO(context.Background(), strings.NewReader(in), &out))
	got := out.String()
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result"`, `"id":3,"result"`, `1: hello`} {
		assert.Contains(t, got, want)
	}
}

// What a result cut, its text and its structured content both say: a
// harness may show the model either one.
func TestExplainCutsAgree(t *testing.T) {
	f := newFixture(t)
	ref := f.record(t, "s1", true, "sh", "-c", `awk 'BEGIN{srand(7); for(i=1;i<=12;i++){s=""; for(j=0;j<200;j++) s=s sprintf("%c",97+int(rand()*26)); print "error: " s}; exit 2}'`)
	const small = mcpserver.MinBudget
	cs := f.connect(t, mcpserver.Options{Budget: small})
	res, text, sc := call(t, cs, small, "explain", map[string]any{"ref": ref})
	require.False(t, res.IsError, text)
	var textCuts []string
	for l := range strings.SplitSeq(text, "\n") {
		if c, ok := strings.CutPrefix(l, "rac: cut: "); ok {
			textCuts = append(textCuts, c)
		}
	}
	require.NotEmpty(t, textCuts, "the test needs a cut result:\n%s", text)
	var scCuts []string
	for _, c := range sc["cut"].([]any) {
		scCuts = append(scCuts, c.(string))
	}
	assert.Equal(t, textCuts, scCuts)
}

// A recording still running says how to see the rest in the tool's words.
func TestReadOfARunningRecordingSaysHowToSeeTheRest(t *testing.T) {
	f := newFixture(t)
	ready := filepath.Join(t.TempDir(), "ready")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		null, _ := os.Open(os.DevNull)
		defer null.Close()
		_, _ = f.app("s1").Run(ctx, app.RunRequest{Argv: []string{"sh", "-c", "echo hello; echo yes > " + ready + "; sleep 300"},
			Stdin: null, Announce: runspec.AnnounceNone, Mode: "pipe", Summary: true, SummaryHead: 1, SummaryTail: 1,
			DrainTimeout: time.Second, KillAfter: time.Second})
	}()
	defer func() { cancel(); <-done }()
	waitFile(t, ready)
	cs := f.connect(t, mcpserver.Options{Budget: budget})
	_, text, _ := call(t, cs, budget, "read", map[string]any{"ref": "s1/1"})
	assert.Contains(t, text, "is still running; this is its output so far (read it again later for the rest)")
	assert.NotContains(t, text, "--follow")
}

// A client with no harness hook gets its own process's session: empty,
// so the result says where the recordings are.
func TestAGuessedSessionSaysWhereRecordingsAre(t *testing.T) {
	f := newFixture(t)
	f.record(t, "claude-elsewhere", true, "echo", "hi")
	// The guess must not depend on the machine: a CI container's process
	// session can be outside its pid namespace (session id 0), and then
	// there is nothing to guess from. A terminal pane is the guess of a
	// person's MCP client started from tmux.
	f.env["TMUX"], f.env["TMUX_PANE"] = "/tmp/tmux-0/default,77,0", "%3"
	cs := f.connect(t, mcpserver.Options{Budget: budget})
	_, text, sc := call(t, cs, budget, "list", nil)
	assert.Contains(t, text, "0 recordings in")
	assert.Contains(t, text, "recordings are in other sessions (most recent first: claude-elsewhere)")
	assert.Contains(t, text, "all_sessions=true")
	assert.Contains(t, fmt.Sprint(sc["notes"]), "claude-elsewhere")
	res, text, _ := call(t, cs, budget, "read", map[string]any{"ref": "last"})
	assert.True(t, res.IsError, text)
	assert.Contains(t, text, "claude-elsewhere")
	// a session named: no such note
	_, text, _ = call(t, cs, budget, "list", map[string]any{"session": "claude-elsewhere"})
	assert.NotContains(t, text, "other sessions")
}

// A client that closes its input (how an MCP client over stdio shuts the
// server down) ends a run under way at once, not at its timeout, and the
// recording reads as cancelled.
func TestClosingInputCancelsARun(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	f := newFixture(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run","arguments":{"command":"echo started; echo $$ > ` + pidfile + `; exec sleep 3000","session":"c1","timeout_seconds":3600}}}`,
	}, "\n") + "\n"
	pr, pw := io.Pipe()
	var out strings.Builder
	srv := mcpserver.New(mcpserver.Options{App: f.app(""), Rac: []string{os.Args[0]}, Budget: budget, Run: true})
	done := make(chan error, 1)
	go func() { done <- srv.ServeIO(context.Background(), pr, &out) }()
	_, err := io.WriteString(pw, in)
	require.NoError(t, err)
	pid := waitFile(t, pidfile)
	require.NoError(t, pw.Close())
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("the run went on after the client closed its input")
	}
	waitGone(t, pid)
	assert.Contains(t, out.String(), `"id":2`, "the run's answer is still written")
	assert.Contains(t, out.String(), "cancelled")
	cs := f.connect(t, mcpserver.Options{Budget: budget})
	_, text, sc := call(t, cs, budget, "list", map[string]any{"session": "c1"})
	require.Len(t, sc["entries"], 1, text)
	assert.Equal(t, "cancelled", sc["entries"].([]any)[0].(map[string]any)["status"], text)
	assert.Contains(t, text, "cancelled")
	_, text, _ = call(t, cs, budget, "explain", map[string]any{"ref": "c1/1"})
	assert.Contains(t, text, "cancelled after")
}

// run's summary of a failure carries the cause, and says how to read
// around it in the tools' calls.
func TestRunCarriesTheCause(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t, mcpserver.Options{Budget: budget, Run: true})
	res, text, sc := call(t, cs, budget, "run", map[string]any{"command": `seq 1 1500; echo "src/parser.c:217:14: error: 'tok' undeclared"; seq 1502 3000; exit 2`, "session": "c1"})
	require.False(t, res.IsError, text)
	assert.Contains(t, text, "cause (1 of 1 matching lines):\n  stdout:1501: src/parser.c:217:14: error: 'tok' undeclared\n")
	assert.Contains(t, text, "rac: more: read ref=c1/0001-sh stream=stdout lines=1491:1511 (around the cause); explain ref=c1/0001-sh\nrac: ref c1/0001-sh\n")
	assert.NotContains(t, text, "rac out read", "the tools' calls, not rac's command line")
	assert.Equal(t, map[string]any{"stream": "stdout", "line": float64(1501)}, sc["result"].(map[string]any)["cause"])
	_, text, _ = call(t, cs, budget, "read", map[string]any{"ref": "c1/1", "stream": "stdout", "lines": "1491:1511"})
	assert.Contains(t, text, "1501: src/parser.c:217:14: error: 'tok' undeclared")
}

// A client that cancels a run call (notifications/cancelled) and stays
// connected ends the command too, and the recording reads cancelled.
func TestCancellingARunCall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	f := newFixture(t)
	cs := f.connect(t, mcpserver.Options{Budget: budget, Run: true})
	pidfile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"command": "echo $$ > " + pidfile + "; exec sleep 3000", "session": "k1"}})
	}()
	pid := waitFile(t, pidfile)
	cancel()
	<-done
	waitGone(t, pid)
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, text, sc := call(t, cs, budget, "list", map[string]any{"session": "k1"})
		entries, _ := sc["entries"].([]any)
		if len(entries) == 1 && entries[0].(map[string]any)["status"] != "running" {
			assert.Equal(t, "cancelled", entries[0].(map[string]any)["status"], text)
			break
		}
		require.True(t, time.Now().Before(deadline), "the cancelled run never ended: %s", text)
		time.Sleep(20 * time.Millisecond)
	}
}
