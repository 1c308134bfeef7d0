package hook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/store"
)

const claudeID = "0B7E6F4A-1C2D-4E5F-8A9B-0C1D2E3F4A5B"

type hookRun struct {
	notes []store.HarnessNote
	env   map[string]string
	file  string
}

func newHookRun(t *testing.T) *hookRun {
	file := filepath.Join(t.TempDir(), "env")
	return &hookRun{env: map[string]string{"CLAUDE_ENV_FILE": file}, file: file}
}

func (r *hookRun) run(stdin string) error {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.FixedZone("x", 3600))
	return ClaudeSessionHook(ClaudeHook{
		Stdin:  strings.NewReader(stdin),
		Getenv: func(k string) string { return r.env[k] },
		PPID:   4242,
		ProcStart: func(pid int) (uint64, error) {
			if pid == 99 {
				return 0, fs.ErrNotExist
			}
			return uint64(pid) * 10, nil
		},
		Parent: func(int) (int, []string, error) { return 0, nil, fs.ErrNotExist },
		Now:    func() time.Time { return at },
		Agent:  "function git { :; }\n",
		Note:   func(n store.HarnessNote) error { r.notes = append(r.notes, n); return nil },
	})
}

func TestClaudeSessionHook(t *testing.T) {
	r := newHookRun(t)
	in := `{"session_id":"` + claudeID + `","transcript_path":"/x","cwd":"/w","hook_event_name":"SessionStart","source":"startup"}`
	require.NoError(t, r.run(in))
	want := "# rac hook claude-session claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n" +
		"export RAC_SESSION=claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b\nfunction git { :; }\n"
	got, err := os.ReadFile(r.file)
	require.NoError(t, err)
	assert.Equal(t, want, string(got))
	require.Len(t, r.notes, 1)
	assert.Equal(t, store.HarnessNote{PID: 4242, Start: 42420, Harness: "claude",
		Session: "claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b", At: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}, r.notes[0])

	// a second SessionStart of the conversation (resume, compact) adds nothing
	require.NoError(t, r.run(in))
	again, err := os.ReadFile(r.file)
	require.NoError(t, err)
	assert.Equal(t, want, string(again))

	// CLAUDE_PID names the harness
	r.env["CLAUDE_PID"] = "77"
	require.NoError(t, r.run(in))
	assert.Equal(t, 77, r.notes[len(r.notes)-1].PID)
}

func TestClaudeSessionHookKeepsTheFile(t *testing.T) {
	r := newHookRun(t)
	require.NoError(t, os.WriteFile(r.file, []byte("export FOO=1"), 0o600)) // no final newline
	require.NoError(t, r.run(`{"session_id":"abc"}`))
	got, err := os.ReadFile(r.file)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), "export FOO=1\n# rac hook claude-session claude-abc-"), "%q", got)
}

// Malformed or unexpected input: nothing written, one error line (the
// caller prints it and exits 0).
func TestClaudeSessionHookBadInput(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"not json", `{"session_id":`, "stdin is not the SessionStart JSON"},
		{"empty", ``, "stdin is not the SessionStart JSON"},
		{"no id", `{"hook_event_name":"SessionStart"}`, "no session_id"},
		{"blank id", `{"session_id":"  "}`, "no session_id"},
		{"id not a string", `{"session_id":42}`, "stdin is not the SessionStart JSON"},
		{"another event", `{"session_id":"x","hook_event_name":"PreToolUse"}`, `called for "PreToolUse"`},
		{"too long", `{"session_id":"` + strings.Repeat("a", maxHookInput) + `"}`, "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newHookRun(t)
			err := r.run(tc.in)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "\n")
			assert.NoFileExists(t, r.file)
			assert.Empty(t, r.notes)
		})
	}
}

func TestClaudeSessionHookProblems(t *testing.T) {
	in := `{"session_id":"` + claudeID + `"}`
	t.Run("no env file", func(t *testing.T) {
		r := newHookRun(t)
		delete(r.env, "CLAUDE_ENV_FILE")
		err := r.run(in)
		require.ErrorContains(t, err, "CLAUDE_ENV_FILE is not set")
		assert.Len(t, r.notes, 1, "the conversation is still noted")
	})
	t.Run("symlink", func(t *testing.T) {
		r := newHookRun(t)
		target := filepath.Join(t.TempDir(), "target")
		require.NoError(t, os.WriteFile(target, nil, 0o600))
		require.NoError(t, os.Symlink(target, r.file))
		require.ErrorContains(t, r.run(in), "CLAUDE_ENV_FILE")
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		assert.Empty(t, b)
	})
	t.Run("folder", func(t *testing.T) {
		r := newHookRun(t)
		require.NoError(t, os.Mkdir(r.file, 0o700))
		require.ErrorContains(t, r.run(in), "CLAUDE_ENV_FILE")
	})
	t.Run("harness gone", func(t *testing.T) {
		r := newHookRun(t)
		r.env["CLAUDE_PID"] = "99"
		err := r.run(in)
		require.ErrorContains(t, err, "harness pid 99 is not running")
		assert.FileExists(t, r.file)
	})
	t.Run("note fails", func(t *testing.T) {
		r := newHookRun(t)
		err := ClaudeSessionHook(ClaudeHook{
			Stdin: strings.NewReader(in), Getenv: func(k string) string { return r.env[k] }, PPID: os.Getpid(),
			Note: func(store.HarnessNote) error { return errors.New("disk\nfull") },
		})
		require.ErrorContains(t, err, "note the conversation: disk full")
	})
}

// The note goes under Claude Code's pid, the parent of the rac mcp it
// starts: CLAUDE_PID, else the nearest ancestor named claude (Claude Code
// runs a hook command through sh -c), else the hook's parent.
func TestClaudeHarnessPID(t *testing.T) {
	type proc struct {
		ppid  int
		names []string
	}
	tree := map[int]proc{
		500: {400, []string{"sh", "/usr/bin/dash", "/bin/sh"}},
		400: {300, []string{"claude", "/opt/claude/bin/claude.exe", "claude"}},
		300: {1, []string{"bash", "/usr/bin/bash", "-bash"}},
		600: {500, []string{"bash", "/usr/bin/bash", "bash"}},
		700: {300, []string{"node", "/usr/bin/node", "node"}},
		800: {1, []string{"MainThread", "/usr/lib/node_modules/.bin/claude.exe"}},
		900: {910, []string{"sh"}},
		910: {920, []string{"sh"}},
		920: {930, []string{"sh"}},
		930: {940, []string{"sh"}},
		940: {950, []string{"sh"}},
		950: {960, []string{"sh"}},
		960: {970, []string{"sh"}},
		970: {980, []string{"sh"}},
		980: {400, []string{"sh"}},
	}
	parent := func(pid int) (int, []string, error) {
		p, ok := tree[pid]
		if !ok {
			return 0, nil, fs.ErrNotExist
		}
		return p.ppid, p.names, nil
	}
	for _, tc := range []struct {
		name      string
		ppid      int
		claudePID string
		want      int
	}{
		{"the hook's parent is the sh -c shell", 500, "", 400},
		{"the hook's parent is claude", 400, "", 400},
		{"two shells", 600, "", 400},
		{"CLAUDE_PID wins", 500, "77", 77},
		{"CLAUDE_PID not a pid", 500, "x", 400},
		{"CLAUDE_PID zero", 500, "0", 400},
		{"no claude above: the parent", 700, "", 700},
		{"by its executable", 800, "", 800},
		{"parent unreadable", 4242, "", 4242},
		{"too far up", 900, "", 900},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := ClaudeHook{PPID: tc.ppid, Parent: parent, Getenv: func(k string) string {
				if k == "CLAUDE_PID" {
					return tc.claudePID
				}
				return ""
			}}
			assert.Equal(t, tc.want, h.harnessPID())
		})
	}
}

// ProcParent reads the test's own process: its parent, and go test's
// binary among its names.
func TestProcParent(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	ppid, names, err := ProcParent(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, os.Getppid(), ppid)
	exe, err := os.Executable()
	require.NoError(t, err)
	assert.Contains(t, names, exe)
	_, _, err = ProcParent(1 << 30)
	assert.Error(t, err)
}

// StoreNote writes a note HarnessSession reads back.
func TestStoreNote(t *testing.T) {
	home := filepath.Join(t.TempDir(), "store")
	env := map[string]string{"RAC_HOME": home}
	getenv := func(k string) string { return env[k] }
	n := store.HarnessNote{PID: os.Getpid(), Harness: "claude", Session: "claude-abc", At: time.Now().UTC()}
	require.NoError(t, StoreNote(getenv)(n))
	st, err := store.OpenStore(home)
	require.NoError(t, err)
	defer st.Close()
	got, ok, err := st.HarnessSession(os.Getpid(), 0)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "claude-abc", got.Session)
}
