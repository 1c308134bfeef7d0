package agentinit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func getenv(home string) func(string) string {
	return func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
}

func run(t *testing.T, home string, o Options) Result {
	t.Helper()
	o.Getenv = getenv(home)
	if o.Cwd == "" {
		o.Cwd = filepath.Join(home, "proj")
	}
	res, err := Run(o)
	require.NoError(t, err)
	return res
}

const otherHooks = `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(git log:*)"]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit",
        "hooks": [{"type": "command", "command": "fmt-hook"}]
      }
    ],
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo hi"
          }
        ]
      }
    ]
  }
}
`

func TestSettingsRoundTrip(t *testing.T) {
	files := map[string]string{
		"other hooks":          otherHooks,
		"no hooks":             "{\n  \"model\": \"opus\"\n}\n",
		"four spaces":          "{\n    \"a\": 1,\n    \"hooks\": {\n        \"Stop\": []\n    }\n}",
		"tabs":                 "{\n\t\"a\": [1, 2]\n}\n",
		"compact":              `{"a":1,"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
		"empty object":         "{}",
		"unicode and escapes":  "{\"name\": \"caf\u00e9 \\\"\\u00e9\\\"\", \"x\": {\"y\": [true, null, 1.5e3]}}\n",
		"our group with extra": "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"other\"}]}\n    ]\n  }\n}\n",
	}
	for _, target := range []string{"claude", "codex", "gemini"} {
		for name, text := range files {
			t.Run(target+"/"+name, func(t *testing.T) {
				home := t.TempDir()
				o := Options{Target: target, Rewrite: target == "claude"}
				file, err := Options{Target: target, Getenv: getenv(home)}.file()
				require.NoError(t, err)
				require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
				require.NoError(t, os.WriteFile(file, []byte(text), 0o644))

				res := run(t, home, o)
				assert.True(t, res.Changed)
				assert.Equal(t, file, res.Path)
				b, err := os.ReadFile(file)
				require.NoError(t, err)
				require.True(t, json.Valid(b), "%s", b)
				backup, err := os.ReadFile(res.Backup)
				require.NoError(t, err)
				assert.Equal(t, text, string(backup))
				checkInstalled(t, target, b)

				again := run(t, home, o)
				assert.False(t, again.Changed, "installed twice")

				o.Remove, o.Rewrite = true, false
				run(t, home, o)
				b, err = os.ReadFile(file)
				require.NoError(t, err)
				assert.Equal(t, text, string(b))
				st, err := os.Stat(file)
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())
			})
		}
	}
}

// checkInstalled parses the settings and finds rac's handlers.
func checkInstalled(t *testing.T, target string, b []byte) {
	t.Helper()
	var s struct {
		Hooks map[string][]group `json:"hooks"`
	}
	require.NoError(t, json.Unmarshal(b, &s))
	want := map[string][2]string{ // event: matcher, command
		"codex":  {"Bash", "rac hook codex"},
		"gemini": {"run_shell_command", "rac hook gemini"},
		"claude": {"", "rac hook claude-session"},
	}[target]
	event := map[string]string{"codex": "PreToolUse", "gemini": "BeforeTool", "claude": "SessionStart"}[target]
	groups := s.Hooks[event]
	require.NotEmpty(t, groups)
	last := groups[len(groups)-1]
	assert.Equal(t, want[0], last.Matcher)
	require.Len(t, last.Hooks, 1)
	assert.Equal(t, want[1], last.Hooks[0].Command)
	if target == "claude" {
		pre := s.Hooks["PreToolUse"]
		assert.Equal(t, handler{Type: "command", Command: "rac hook claude", Timeout: 10}, pre[len(pre)-1].Hooks[0])
	}
}

func TestSettingsMissing(t *testing.T) {
	home := t.TempDir()
	res := run(t, home, Options{Target: "claude"})
	assert.True(t, res.Changed)
	assert.Empty(t, res.Backup)
	b, err := os.ReadFile(res.Path)
	require.NoError(t, err)
	assert.Equal(t, `{
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "rac hook claude-session"
          }
        ]
      }
    ]
  }
}
`, string(b))
	st, err := os.Stat(res.Path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	res = run(t, home, Options{Target: "claude", Remove: true})
	assert.True(t, res.Deleted)
	_, err = os.Stat(res.Path)
	assert.ErrorIs(t, err, os.ErrNotExist)

	// removing from a missing file changes nothing
	res = run(t, home, Options{Target: "codex", Remove: true})
	assert.False(t, res.Changed)
}

func TestSettingsRefused(t *testing.T) {
	for name, text := range map[string]string{
		"invalid":          `{"hooks": {`,
		"comments":         "{\n  // a comment\n  \"a\": 1\n}\n",
		"array":            `[]`,
		"hooks not object": `{"hooks": []}`,
		"event not list":   `{"hooks": {"BeforeTool": {}}}`,
		"empty":            ``,
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			file := filepath.Join(home, ".gemini", "settings.json")
			require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
			require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
			for _, remove := range []bool{false, true} {
				_, err := Run(Options{Target: "gemini", Remove: remove, Getenv: getenv(home)})
				require.Error(t, err)
				assert.Contains(t, err.Error(), "nothing was changed")
				b, _ := os.ReadFile(file)
				assert.Equal(t, text, string(b))
				_, err = os.Stat(file + ".rac-backup")
				assert.ErrorIs(t, err, os.ErrNotExist)
			}
		})
	}
}

func TestPrintAndProject(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	res := run(t, home, Options{Target: "codex", Project: true, Print: true, Cwd: cwd})
	assert.Equal(t, filepath.Join(cwd, ".codex", "hooks.json"), res.Path)
	assert.Contains(t, string(res.Text), `"command": "rac hook codex"`)
	assert.Contains(t, strings.Join(res.Notes, "\n"), "trusted")
	_, err := os.Stat(res.Path)
	assert.ErrorIs(t, err, os.ErrNotExist, "--print writes nothing")

	_, err = Run(Options{Target: "codex", User: true, Project: true, Getenv: getenv(home)})
	assert.ErrorIs(t, err, ErrUsage)
	_, err = Run(Options{Target: "gemini", Rewrite: true, Getenv: getenv(home)})
	assert.ErrorIs(t, err, ErrUsage)
	_, err = Run(Options{Target: "cursor", Getenv: getenv(home)})
	assert.ErrorIs(t, err, ErrUsage)
}

func TestBlockRoundTrip(t *testing.T) {
	for name, text := range map[string]string{
		"missing":            "",
		"with newline":       "# Project\n\nRules.\n",
		"without newline":    "# Project\n\nRules.",
		"ends in blank line": "# Project\n\n",
		"unicode":            "# Проект ☕\n",
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			cwd := filepath.Join(home, "proj")
			require.NoError(t, os.MkdirAll(cwd, 0o700))
			file := filepath.Join(cwd, "AGENTS.md")
			if text != "" {
				require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
			}
			res := run(t, home, Options{Target: "agents-md", Cwd: cwd})
			assert.True(t, res.Changed)
			assert.Equal(t, file, res.Path)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(b), text))
			assert.Contains(t, string(b), "rac out explain REF")
			assert.Equal(t, 1, strings.Count(string(b), blockBegin))

			assert.False(t, run(t, home, Options{Target: "agents-md", Cwd: cwd}).Changed)

			run(t, home, Options{Target: "agents-md", Cwd: cwd, Remove: true})
			b, err = os.ReadFile(file)
			if text == "" {
				assert.ErrorIs(t, err, os.ErrNotExist)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, text, string(b))
		})
	}
}

func TestBlockUpdated(t *testing.T) {
	old := "# P\n\n" + blockBegin + "\nold text\n" + blockEnd + "\n\nMore.\n"
	got := string(editBlock([]byte(old), false))
	assert.Equal(t, "# P\n\n"+block+"\n\nMore.\n", got)
	assert.Equal(t, "# P\n\nMore.\n", string(editBlock([]byte(got), true)))
}

func TestUserFiles(t *testing.T) {
	env := map[string]string{"HOME": "/h", "CODEX_HOME": "/ch", "GEMINI_CLI_HOME": "/gh", "CLAUDE_CONFIG_DIR": "/cc"}
	for target, want := range map[string]string{
		"claude": "/cc/settings.json", "codex": "/ch/hooks.json", "gemini": "/gh/.gemini/settings.json",
		"agents-md": "/ch/AGENTS.md", "claude-md": "/cc/CLAUDE.md", "gemini-md": "/gh/.gemini/GEMINI.md",
	} {
		f, err := Options{Target: target, User: true, Getenv: func(k string) string { return env[k] }}.file()
		require.NoError(t, err)
		assert.Equal(t, want, f, target)
	}
	f, err := Options{Target: "claude", Getenv: getenv("/h")}.file()
	require.NoError(t, err)
	assert.Equal(t, "/h/.claude/settings.json", f)
}

// Program names rac in the hook command: a path as one shell word; an
// entry of rac by any path or spelling counts as installed, and --remove
// takes it out byte for byte.
func TestProgramPath(t *testing.T) {
	for _, tt := range []struct{ program, want string }{
		{"", "rac hook codex"},
		{"rac", "rac hook codex"},
		{"/opt/rac/bin/rac", "/opt/rac/bin/rac hook codex"},
		{"/home/a b/rac", "'/home/a b/rac' hook codex"},
		{"/x/it's/rac", `'/x/it'\''s/rac' hook codex`},
	} {
		t.Run(tt.want, func(t *testing.T) {
			home := t.TempDir()
			file := filepath.Join(home, ".codex", "hooks.json")
			require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
			require.NoError(t, os.WriteFile(file, []byte(otherHooks), 0o600))
			res := run(t, home, Options{Target: "codex", Program: tt.program})
			require.True(t, res.Changed)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			var s struct {
				Hooks map[string][]group `json:"hooks"`
			}
			require.NoError(t, json.Unmarshal(b, &s))
			pre := s.Hooks["PreToolUse"]
			require.Len(t, pre, 2)
			assert.Equal(t, tt.want, pre[1].Hooks[0].Command)
			assert.True(t, isOurs(pre[1].Hooks[0].Command, "codex"))
			// installed again by another spelling of rac: nothing changes
			assert.False(t, run(t, home, Options{Target: "codex", Program: "/elsewhere/rac"}).Changed)
			assert.False(t, run(t, home, Options{Target: "codex", Program: tt.program}).Changed)
			run(t, home, Options{Target: "codex", Remove: true})
			b, err = os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, otherHooks, string(b))
		})
	}
}

func TestIsOurs(t *testing.T) {
	for cmd, want := range map[string]bool{
		"rac hook codex":                true,
		"/usr/local/bin/rac hook codex": true,
		"'/a b/rac' hook codex":         true,
		`'/a'\''b/rac' hook codex`:      true,
		"  rac  hook   codex ":          true,
		"rac hook claude":               false,
		"racx hook codex":               false,
		"'/a b/racx' hook codex":        false,
		"'/a b/rac hook codex":          false,
		"rac hook codex --x":            false,
		"sh -c 'rac hook codex'":        false,
	} {
		assert.Equal(t, want, isOurs(cmd, "codex"), cmd)
	}
}

// A settings file kept as a symlink (stow, chezmoi, home-manager) stays a
// symlink: rac writes its target, on install and on removal.
func TestSymlinkedSettingsStayLinks(t *testing.T) {
	for _, text := range []string{otherHooks, ""} {
		home := t.TempDir()
		dotfiles := filepath.Join(t.TempDir(), "dotfiles", "claude")
		require.NoError(t, os.MkdirAll(dotfiles, 0o700))
		target := filepath.Join(dotfiles, "settings.json")
		o := Options{Target: "claude", Rewrite: true}
		file, err := Options{Target: "claude", Getenv: getenv(home)}.file()
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
		if text != "" {
			require.NoError(t, os.WriteFile(target, []byte(text), 0o644))
		} else {
			require.NoError(t, os.WriteFile(target, []byte("{}\n"), 0o644))
		}
		require.NoError(t, os.Symlink(target, file))

		run(t, home, o)
		fi, err := os.Lstat(file)
		require.NoError(t, err)
		require.NotZero(t, fi.Mode()&os.ModeSymlink, "still a symlink after install")
		b, err := os.ReadFile(target)
		require.NoError(t, err)
		checkInstalled(t, "claude", b)

		o.Remove, o.Rewrite = true, false
		run(t, home, o)
		fi, err = os.Lstat(file)
		require.NoError(t, err)
		require.NotZero(t, fi.Mode()&os.ModeSymlink, "still a symlink after --remove")
		b, err = os.ReadFile(target)
		require.NoError(t, err)
		assert.NotContains(t, string(b), "rac hook")
		if text != "" {
			assert.Equal(t, text, string(b))
		} else {
			assert.JSONEq(t, "{}", string(b), "the target is left, an empty document")
		}
	}
}

// A symlink into a store nobody may write (home-manager's) is refused
// with one clear line, and nothing changes.
func TestSymlinkToReadOnlyTargetRefused(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes a read-only folder")
	}
	home := t.TempDir()
	ro := filepath.Join(t.TempDir(), "store")
	require.NoError(t, os.MkdirAll(ro, 0o700))
	target := filepath.Join(ro, "settings.json")
	require.NoError(t, os.WriteFile(target, []byte("{}\n"), 0o444))
	require.NoError(t, os.Chmod(ro, 0o555))
	t.Cleanup(func() { _ = os.Chmod(ro, 0o700) })
	file, err := Options{Target: "claude", Getenv: getenv(home)}.file()
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
	require.NoError(t, os.Symlink(target, file))
	_, err = Run(Options{Target: "claude", Getenv: getenv(home), Cwd: home})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is a symlink to "+target)
	assert.NotContains(t, err.Error(), "\n")
	fi, lerr := os.Lstat(file)
	require.NoError(t, lerr)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink)
	b, _ := os.ReadFile(target)
	assert.Equal(t, "{}\n", string(b))
}

// In a git working tree the backup is kept under the git folder, never in
// the project where it would be committed; a linked worktree's .git file
// is followed to its git folder.
func TestBackupOutOfTheProject(t *testing.T) {
	home := t.TempDir()
	cwd := filepath.Join(home, "proj")
	require.NoError(t, os.MkdirAll(filepath.Join(cwd, ".git"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(cwd, "AGENTS.md"), []byte("# Project\n"), 0o644))
	res := run(t, home, Options{Target: "agents-md", Cwd: cwd})
	assert.Equal(t, filepath.Join(cwd, ".git", "rac-backup", "AGENTS.md"), res.Backup)
	b, err := os.ReadFile(res.Backup)
	require.NoError(t, err)
	assert.Equal(t, "# Project\n", string(b))
	_, err = os.Stat(filepath.Join(cwd, "AGENTS.md.rac-backup"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	wt := filepath.Join(home, "wt")
	gitDir := filepath.Join(cwd, ".git", "worktrees", "wt")
	require.NoError(t, os.MkdirAll(gitDir, 0o700))
	require.NoError(t, os.MkdirAll(filepath.Join(wt, "sub"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gitDir+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, "sub", "CLAUDE.md"), []byte("x\n"), 0o644))
	res = run(t, home, Options{Target: "claude-md", Cwd: filepath.Join(wt, "sub")})
	assert.Equal(t, filepath.Join(gitDir, "rac-backup", "sub", "CLAUDE.md"), res.Backup)

	// outside a git tree: beside the file, as before
	plain := filepath.Join(t.TempDir(), "plain")
	require.NoError(t, os.MkdirAll(plain, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(plain, "GEMINI.md"), []byte("y\n"), 0o644))
	res = run(t, home, Options{Target: "gemini-md", Cwd: plain})
	assert.Equal(t, filepath.Join(plain, "GEMINI.md.rac-backup"), res.Backup)
}

// --remove of a file that held only rac's entry takes the folder the
// install made for it too (no empty ~/.codex), never a folder that holds
// anything else.
func TestRemoveLeavesNoEmptyFolder(t *testing.T) {
	home := t.TempDir()
	run(t, home, Options{Target: "codex"})
	dir := filepath.Join(home, ".codex")
	require.FileExists(t, filepath.Join(dir, "hooks.json"))
	res := run(t, home, Options{Target: "codex", Remove: true})
	assert.True(t, res.Deleted)
	_, err := os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist, "an empty ~/.codex is left")

	run(t, home, Options{Target: "codex"})
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.toml"), []byte("model = \"x\"\n"), 0o600))
	run(t, home, Options{Target: "codex", Remove: true})
	assert.FileExists(t, filepath.Join(dir, "config.toml"))
}
