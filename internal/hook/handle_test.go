package hook

import (
	"bytes"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/session"
)

// mapFS is an in-memory file system with absolute names.
type mapFS map[string]string

func (m mapFS) fs() fstest.MapFS {
	f := fstest.MapFS{}
	for name, data := range m {
		f[strings.TrimPrefix(name, "/")] = &fstest.MapFile{Data: []byte(data)}
	}
	return f
}

func (m mapFS) ReadFile(name string) ([]byte, error) {
	return fs.ReadFile(m.fs(), strings.TrimPrefix(path.Clean(name), "/"))
}

func (m mapFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(m.fs(), strings.TrimPrefix(path.Clean(name), "/"))
}

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func claudeIn(mode, toolInput string) string {
	return `{"session_id":"0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b","transcript_path":"/h/.claude/p/t.jsonl","cwd":"/proj","permission_mode":"` + mode +
		`","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":` + toolInput + `,"tool_use_id":"toolu_01"}`
}

func TestHandle(t *testing.T) {
	allowGit := mapFS{"/h/.claude/settings.json": `{"permissions":{"allow":["Bash(git log:*)","Bash(git status)","Bash(npm test:*)","Read"]}}`}
	denyPush := mapFS{
		"/h/.claude/settings.json":    `{"permissions":{"allow":["Bash(git:*)"]}}`,
		"/proj/.claude/settings.json": `{"permissions":{"deny":["Bash(git push:*)"]}}`,
	}
	askAll := mapFS{"/proj/.claude/settings.local.json": `{"permissions":{"ask":["Bash"],"allow":["Bash(git log:*)"]}}`}
	broken := mapFS{"/h/.claude/settings.json": `{"permissions":`, "/proj/.claude/settings.json": `{"permissions":{"allow":["Bash(git log:*)"]}}`}
	managedDeny := mapFS{
		"/h/.claude/settings.json":               `{"permissions":{"allow":["Bash(git log:*)"]}}`,
		"/etc/claude-code/managed-settings.json": `{"permissions":{"deny":["Bash(git log -p:*)"]}}`,
	}
	codexRules := mapFS{"/h/.codex/rules/default.rules": `prefix_rule(pattern=["git", "push"], decision="forbidden")`}
	codexAllowRules := mapFS{"/h/.codex/rules/default.rules": `prefix_rule(pattern=["git", "status"], decision="allow")`}
	gem := func(cmd string) string {
		return `{"session_id":"s-1","transcript_path":"/t","cwd":"/proj","hook_event_name":"BeforeTool","timestamp":"2026-12-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":` + cmd + `,"description":"d","dir_path":"sub"}}`
	}
	codexIn := func(mode, toolInput string) string {
		return `{"session_id":"th-1","turn_id":"1","transcript_path":null,"cwd":"/proj","hook_event_name":"PreToolUse","model":"m","permission_mode":"` + mode + `","tool_name":"Bash","tool_input":` + toolInput + `,"tool_use_id":"call_1"}`
	}
	tests := []struct {
		name, harness, in string
		fs                mapFS
		env               []string
		want              string // exact stdout
		note              string // prefix of the note
		err               string // part of the error
	}{
		{name: "claude bypass: every field carried over", harness: "claude",
			in:   claudeIn("bypassPermissions", `{"command":"git push","description":"Push","timeout":120000,"run_in_background":false}`),
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"rac records this command (rac run); the original was bypassPermissions mode","updatedInput":{"command":"rac run -- git push","description":"Push","run_in_background":false,"timeout":120000}}}` + "\n",
			note: "rewritten"},
		{name: "claude allow rule", harness: "claude", fs: allowGit,
			in:   claudeIn("default", `{"command":"git log -3","description":"Show log"}`),
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"rac records this command (rac run); the original was allowed by Bash(git log:*)","updatedInput":{"command":"rac run -- git log -3","description":"Show log"}}}` + "\n"},
		{name: "claude allow rule, list", harness: "claude", fs: allowGit,
			in:   claudeIn("default", `{"command":"git status && npm test"}`),
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"rac records this command (rac run); the original was allowed by Bash(git status), Bash(npm test:*)","updatedInput":{"command":"rac run -- git status && rac run -- npm test"}}}` + "\n"},
		{name: "claude allow rule does not cover the whole list", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"git log -3 && rm -rf build"}`), note: "left alone: no allow rule matches rm -rf build"},
		{name: "claude exact rule is exact", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"git status --short"}`), note: "left alone: no allow rule matches"},
		{name: "claude prefix rule needs a word boundary", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"git logx"}`), note: "left alone"},
		{name: "claude env prefix is not covered by an allow rule", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"GIT_PAGER=cat git log"}`), note: "left alone: not only simple commands"},
		{name: "claude substitution is not covered", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"git log $(rm x)"}`), note: "left alone: not only simple commands"},
		{name: "claude redirect to a file is not covered", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"git log > out.txt"}`), note: "left alone"},
		{name: "claude redirect to /dev/null is covered", harness: "claude", fs: allowGit,
			in: claudeIn("default", `{"command":"git log 2>/dev/null"}`), note: "rewritten"},
		{name: "claude no rule, default mode", harness: "claude",
			in: claudeIn("default", `{"command":"git log"}`), note: "left alone: no allow rule matches git log"},
		{name: "claude plan mode", harness: "claude", fs: allowGit,
			in: claudeIn("plan", `{"command":"git log"}`), note: "left alone: permission mode plan"},
		{name: "claude deny rule, bypass mode", harness: "claude", fs: denyPush,
			in: claudeIn("bypassPermissions", `{"command":"git push origin main"}`), note: "left alone: a deny rule Bash(git push:*) matches"},
		{name: "claude deny rule beside an allowed command", harness: "claude", fs: denyPush,
			in: claudeIn("default", `{"command":"git status && git push"}`), note: "left alone: a deny rule"},
		{name: "claude deny rule inside a substitution", harness: "claude", fs: denyPush,
			in: claudeIn("bypassPermissions", `{"command":"git status; echo $(git push)"}`), note: "left alone: a deny rule"},
		{name: "claude deny rule, other command allowed", harness: "claude", fs: denyPush,
			in: claudeIn("default", `{"command":"git fetch"}`), note: "rewritten: allowed by Bash(git:*)"},
		{name: "claude ask rule", harness: "claude", fs: askAll,
			in: claudeIn("default", `{"command":"git log"}`), note: "left alone: an ask rule Bash(*) matches"},
		{name: "claude managed deny", harness: "claude", fs: managedDeny,
			in: claudeIn("default", `{"command":"git log -p"}`), note: "left alone: a deny rule Bash(git log -p:*)"},
		{name: "claude broken settings", harness: "claude", fs: broken,
			in: claudeIn("default", `{"command":"git log"}`), note: "left alone: cannot read /h/.claude/settings.json"},
		{name: "claude CLAUDE_CONFIG_DIR", harness: "claude", env: []string{"CLAUDE_CONFIG_DIR", "/cfg"},
			fs: mapFS{"/cfg/settings.json": `{"permissions":{"allow":["Bash(git log:*)"]}}`},
			in: claudeIn("default", `{"command":"git log"}`), note: "rewritten"},
		{name: "claude CLAUDE_PROJECT_DIR", harness: "claude", env: []string{"CLAUDE_PROJECT_DIR", "/other"},
			fs: mapFS{"/other/.claude/settings.json": `{"permissions":{"allow":["Bash(git log:*)"]}}`},
			in: claudeIn("default", `{"command":"git log"}`), note: "rewritten"},
		{name: "claude nothing to wrap", harness: "claude",
			in: claudeIn("bypassPermissions", `{"command":"grep -r x . | head"}`), note: "nothing to wrap"},
		{name: "claude already wrapped", harness: "claude",
			in: claudeIn("bypassPermissions", `{"command":"rac run -- git push"}`), note: "nothing to wrap"},
		{name: "claude interactive", harness: "claude",
			in: claudeIn("bypassPermissions", `{"command":"git rebase -i HEAD~2"}`), note: "nothing to wrap"},
		{name: "claude other tool", harness: "claude",
			in: `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/x"}}`, note: "not a shell tool"},
		{name: "claude unicode and escapes survive", harness: "claude",
			in:   claudeIn("bypassPermissions", `{"command":"git commit -m \"caf\u00e9 <b> & \\\"q\\\"\"\n"}`),
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"rac records this command (rac run); the original was bypassPermissions mode","updatedInput":{"command":"rac run -- git commit -m \"café <b> & \\\"q\\\"\"\n"}}}` + "\n"},
		{name: "claude malformed JSON", harness: "claude", in: `{"tool_name":"Bash",`, err: "not a JSON object"},
		{name: "claude not an object", harness: "claude", in: `["Bash"]`, err: "not a JSON object"},
		{name: "claude null", harness: "claude", in: `null`, err: "not a JSON object"},
		{name: "claude empty input", harness: "claude", in: ``, err: "not a JSON object"},
		{name: "claude no event", harness: "claude", in: `{"tool_name":"Bash","tool_input":{"command":"git status"}}`, err: "no hook_event_name"},
		{name: "claude wrong event", harness: "claude", in: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"git status"}}`, err: "unexpected hook event"},
		{name: "claude command not a string", harness: "claude", in: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":42}}`, err: "not a string"},
		{name: "claude no command", harness: "claude", in: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`, err: "has no command"},
		{name: "claude tool_input not an object", harness: "claude", in: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"git"}`, err: "not an object"},
		{name: "claude tool_name not a string", harness: "claude", in: `{"hook_event_name":"PreToolUse","tool_name":1}`, err: "not a string"},
		{name: "unknown harness", harness: "cursor", in: claudeIn("default", `{"command":"git log"}`), err: "no hook for"},

		{name: "codex bypass", harness: "codex", in: codexIn("bypassPermissions", `{"command":"git status"}`),
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rac run -- git status"}}}` + "\n"},
		{name: "codex exec_command shape", harness: "codex",
			in:   `{"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","tool_name":"exec_command","tool_input":{"cmd":"make test","yield_time_ms":1000}}`,
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"cmd":"rac run -- make test","yield_time_ms":1000}}}` + "\n"},
		{name: "codex command vector", harness: "codex",
			in:   `{"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","tool_name":"shell","tool_input":{"command":["bash","-lc","go test ./..."],"timeout_ms":5000}}`,
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":["bash","-lc","rac run -- go test ./..."],"timeout_ms":5000}}}` + "\n"},
		{name: "codex default mode", harness: "codex", in: codexIn("default", `{"command":"git status"}`), note: "left alone: permission mode default"},
		{name: "codex forbidding rules", harness: "codex", fs: codexRules, in: codexIn("bypassPermissions", `{"command":"git status"}`),
			note: "left alone: /h/.codex/rules/default.rules"},
		{name: "codex allowing rules", harness: "codex", fs: codexAllowRules, in: codexIn("bypassPermissions", `{"command":"git status"}`), note: "rewritten"},
		{name: "codex CODEX_HOME", harness: "codex", fs: mapFS{"/ch/rules/x.rules": `prompt`}, env: []string{"CODEX_HOME", "/ch"},
			in: codexIn("bypassPermissions", `{"command":"git status"}`), note: "left alone: /ch/rules/x.rules"},
		{name: "codex project rules", harness: "codex", fs: mapFS{"/proj/.codex/rules/x.rules": `forbidden`},
			in: codexIn("bypassPermissions", `{"command":"git status"}`), note: "left alone: /proj/.codex/rules/x.rules"},
		{name: "codex apply_patch", harness: "codex", in: `{"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch"}}`, note: "not a shell tool"},
		{name: "codex malformed", harness: "codex", in: `{"hook_event_name":`, err: "not a JSON object"},

		{name: "gemini with the session id", harness: "gemini", env: []string{"GEMINI_SESSION_ID", "0B7E6F4A-1C2D-4E5F-8A9B-0C1D2E3F4A5B"},
			in:   gem(`"git status && rac out read last"`),
			want: `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"RAC_SESSION=gemini-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b rac run -- git status && RAC_SESSION=gemini-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b rac out read last","description":"d","dir_path":"sub"}}}` + "\n"},
		{name: "gemini session from the input", harness: "gemini", in: gem(`"make"`),
			want: `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"RAC_SESSION=` + session.DerivedName("gemini", "s-1") + ` rac run -- make","description":"d","dir_path":"sub"}}}` + "\n"},
		{name: "gemini nothing to wrap", harness: "gemini", in: `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls"}}`, note: "nothing to wrap"},
		{name: "gemini without a session", harness: "gemini", in: `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"go vet ./..."}}`,
			want: `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"rac run -- go vet ./..."}}}` + "\n"},
		{name: "gemini other tool", harness: "gemini", in: `{"hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"x"}}`, note: "not a shell tool"},
		{name: "gemini wrong event", harness: "gemini", in: `{"hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"git status"}}`, err: "unexpected hook event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := tt.fs
			if fsys == nil {
				fsys = mapFS{}
			}
			var out bytes.Buffer
			kv := append([]string{"HOME", "/h"}, tt.env...)
			note, err := Handle(tt.harness, strings.NewReader(tt.in), &out, Options{Wrap: defaultWrap, Getenv: env(kv...), FS: fsys})
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.NotContains(t, err.Error(), "\n")
				assert.Empty(t, out.String())
				return
			}
			require.NoError(t, err)
			if tt.want != "" || !strings.HasPrefix(tt.note, "rewritten") {
				assert.Equal(t, tt.want, out.String())
			} else {
				assert.Contains(t, out.String(), `"permissionDecision":"allow"`)
			}
			if tt.note != "" {
				assert.True(t, strings.HasPrefix(note, tt.note), "note %q, want prefix %q", note, tt.note)
			}
		})
	}
}

func TestHandleTooLarge(t *testing.T) {
	in := `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + strings.Repeat("x", maxInput) + `"}}`
	var out bytes.Buffer
	_, err := Handle("claude", strings.NewReader(in), &out, Options{})
	require.Error(t, err)
	assert.Empty(t, out.String())
}

func TestClaudeHiddenRules(t *testing.T) {
	fsys := mapFS{
		"/proc/40/cmdline": "sh\x00-c\x00rac hook claude\x00",
		"/proc/40/stat":    "40 (sh) S 30 1 1 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 6000 3133440 382\n",
		"/proc/30/cmdline": "/opt/claude/bin/claude.exe\x00-p\x00hi\x00--disallowedTools\x00Bash(git push:*)\x00",
		"/proc/30/stat":    "30 (claude (x)) S 1 1 1 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 5000 3133440 382\n",
	}
	assert.Equal(t, "--disallowedTools", claudeHiddenRules(ancestorArgs(fsys, 40)))
	var out bytes.Buffer
	note, err := Handle("claude", strings.NewReader(claudeIn("bypassPermissions", `{"command":"git push"}`)), &out,
		Options{Wrap: defaultWrap, FS: fsys, PPID: 40})
	require.NoError(t, err)
	assert.Empty(t, out.String())
	assert.Contains(t, note, "--disallowedTools")

	fsys["/proc/30/cmdline"] = "claude\x00-p\x00hi\x00"
	assert.Empty(t, claudeHiddenRules(ancestorArgs(fsys, 40)))
}

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		p, text       string
		strict, loose bool
	}{
		{"git log:*", "git log", true, true},
		{"git log:*", "git log -3", true, true},
		{"git log:*", "git logx", false, true},
		{"git status", "git status", true, true},
		{"git status", "git status -s", false, true},
		{"*", "anything", true, true},
		{"git * main", "git push origin main", true, true},
		{"git * main", "git push origin dev", false, true},
		{"npm run *", "npm run build", true, true},
		{"git push:*", "git status", false, false},
		{"git push:*", "echo x; git push", false, true},
	} {
		assert.Equal(t, tt.strict, matchStrict(tt.p, tt.text), "strict %q %q", tt.p, tt.text)
		assert.Equal(t, tt.loose, matchLoose(tt.p, tt.text), "loose %q %q", tt.p, tt.text)
	}
}
