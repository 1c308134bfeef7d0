package hook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var defaultWrap = []string{"git", "kubectl", "helm", "go", "cargo", "npm", "pnpm", "yarn", "make",
	"pytest", "python -m pytest", "mvn", "gradle", "terraform", "docker build"}

// W is the inserted text, to keep the table readable.
const W = Wrapper

func TestRewrite(t *testing.T) {
	tests := []struct {
		name, in, want string // want "": unchanged
	}{
		// plain programs
		{"git", "git status", W + "git status"},
		{"git with options", "git log --oneline -20", W + "git log --oneline -20"},
		{"git -C", "git -C sub status", W + "git -C sub status"},
		{"kubectl", "kubectl get pods -n prod", W + "kubectl get pods -n prod"},
		{"helm", "helm upgrade --install web ./chart", W + "helm upgrade --install web ./chart"},
		{"go test", "go test ./...", W + "go test ./..."},
		{"cargo", "cargo build --release", W + "cargo build --release"},
		{"npm", "npm test", W + "npm test"},
		{"pnpm", "pnpm install", W + "pnpm install"},
		{"yarn", "yarn build", W + "yarn build"},
		{"make", "make -j4 all", W + "make -j4 all"},
		{"pytest", "pytest -x tests/", W + "pytest -x tests/"},
		{"python -m pytest", "python -m pytest -k login", W + "python -m pytest -k login"},
		{"python -m other", "python -m http.server", ""},
		{"python script", "python script.py", ""},
		{"mvn", "mvn -q package", W + "mvn -q package"},
		{"gradle", "gradle build", W + "gradle build"},
		{"terraform", "terraform plan -out=tf.plan", W + "terraform plan -out=tf.plan"},
		{"docker build", "docker build -t app .", W + "docker build -t app ."},
		{"docker run", "docker run --rm alpine true", ""},
		{"docker buildx", "docker buildx build .", ""},
		{"not listed", "ls -la", ""},
		{"leading spaces", "   git status", "   " + W + "git status"},
		{"trailing newline", "git status\n", W + "git status\n"},
		// quotes, globs, unicode
		{"double quotes", `git commit -m "fix: the \"quoted\" bug"`, W + `git commit -m "fix: the \"quoted\" bug"`},
		{"single quotes", `git commit -m 'it''s done'`, W + `git commit -m 'it''s done'`},
		{"dollar quotes", `git commit -m $'line1\nline2'`, W + `git commit -m $'line1\nline2'`},
		{"glob argument", "git add *.go src/**/*.ts", W + "git add *.go src/**/*.ts"},
		{"unicode argument", "git commit -m 'café ☕ naïve'", W + "git commit -m 'café ☕ naïve'"},
		{"unicode before", "echo héllo && git status", "echo héllo && " + W + "git status"},
		{"quoted program", `"git" status`, ""},
		{"escaped program", `\git status`, ""},
		{"program from a variable", `$GIT status`, ""},
		{"glob program", `gi? status`, ""},
		{"path to program", "/usr/bin/git status", ""},
		// env prefixes
		{"env prefix", "GIT_PAGER=cat git log", "GIT_PAGER=cat " + W + "git log"},
		{"two env prefixes", "A=1 B='x y' go test ./...", "A=1 B='x y' " + W + "go test ./..."},
		{"assignment only", "FOO=bar", ""},
		{"env program", "env FOO=1 git status", ""},
		// lists and pipelines
		{"and list", "git add -A && git commit -m x", W + "git add -A && " + W + "git commit -m x"},
		{"or list", "make || echo failed", W + "make || echo failed"},
		{"semicolons", "cd sub; make test; git status", "cd sub; " + W + "make test; " + W + "git status"},
		{"newlines", "git fetch\ngit status", W + "git fetch\n" + W + "git status"},
		{"pipe", "git log | head -5", W + "git log | head -5"},
		{"pipe into grep", "git log | grep nosuch", W + "git log | grep nosuch"},
		{"pipe stderr", "make 2>&1 | tail -20", W + "make 2>&1 | tail -20"},
		{"pipe all", "make |& tee log", W + "make |& tee log"},
		{"pipe into wrapped", "cat patch | git apply", "cat patch | " + W + "git apply"},
		{"cd then go", "cd api && go test ./...", "cd api && " + W + "go test ./..."},
		{"background", "git fetch &", W + "git fetch &"},
		{"negated", "! git diff --quiet", "! " + W + "git diff --quiet"},
		// subshells and groups
		{"subshell", "(cd web && npm test)", "(cd web && " + W + "npm test)"},
		{"group", "{ git status; git log -1; }", "{ " + W + "git status; " + W + "git log -1; }"},
		{"if clause", "if git diff --quiet; then echo clean; fi", ""},
		{"for loop", "for d in a b; do make -C $d; done", ""},
		{"function", "f() { git status; }; f", ""},
		// substitutions
		{"command substitution", "echo $(git rev-parse HEAD)", ""},
		{"backquotes", "echo `git rev-parse HEAD`", ""},
		{"process substitution", "diff <(git show HEAD:a) a", ""},
		{"substitution in argument", `git commit -m "$(cat msg)"`, W + `git commit -m "$(cat msg)"`},
		{"assignment from substitution", "x=$(git status) && make", "x=$(git status) && " + W + "make"},
		// heredocs and redirections
		{"heredoc", "git commit -F - <<'EOF'\nsubject\n\nbody $(not run)\nEOF", W + "git commit -F - <<'EOF'\nsubject\n\nbody $(not run)\nEOF"},
		{"heredoc then command", "cat <<EOF > f\nx\nEOF\ngit add f", "cat <<EOF > f\nx\nEOF\n" + W + "git add f"},
		{"redirect out", "git log > /tmp/log.txt", W + "git log > /tmp/log.txt"},
		{"redirect first", ">/tmp/out git status", ">/tmp/out " + W + "git status"},
		{"redirect in", "kubectl apply -f - < deploy.yaml", W + "kubectl apply -f - < deploy.yaml"},
		{"comment", "git status # show it", W + "git status # show it"},
		{"only a comment", "# git status", ""},
		// never wrapped
		{"grep", "grep -r TODO .", ""},
		{"rg", "rg TODO", ""},
		{"diff", "diff a b", ""},
		{"test", "test -f go.mod && go build", "test -f go.mod && " + W + "go build"},
		{"bracket", "[ -f Makefile ] && make", "[ -f Makefile ] && " + W + "make"},
		{"double bracket", "[[ -f Makefile ]] && make", "[[ -f Makefile ]] && " + W + "make"},
		{"already wrapped", "rac run -- git push", ""},
		{"already wrapped, short", "rac run git push", ""},
		{"rac out", "rac out read last", ""},
		{"command git", "command git status", ""},
		{"exec git", "exec git status", ""},
		{"sudo make", "sudo make install", ""},
		{"time", "time make", ""},
		// interactive
		{"rebase -i", "git rebase -i HEAD~3", ""},
		{"add -p", "git add -p", ""},
		{"kubectl exec -it", "kubectl exec -it web -- sh", ""},
		{"kubectl edit", "kubectl edit deploy/web", ""},
		{"vim", "vim main.go", ""},
		{"interactive beside plain", "git add -p && git status", "git add -p && " + W + "git status"},
		// unparsable
		{"unclosed quote", `git commit -m "oops`, ""},
		{"unclosed paren", "(git status", ""},
		{"bad syntax", "git status &&", ""},
		{"empty", "", ""},
	}
	r := &Rewriter{Programs: ParsePrograms(defaultWrap)}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == "" {
				want = tt.in
			}
			got, changed := r.Rewrite(tt.in)
			assert.Equal(t, want, got)
			assert.Equal(t, tt.want != "", changed)
		})
	}
	assert.GreaterOrEqual(t, len(tests), 60)
}

func TestRewriteSession(t *testing.T) {
	r := &Rewriter{Programs: ParsePrograms(defaultWrap), Session: "gemini-abc"}
	for in, want := range map[string]string{
		"git status":                    "RAC_SESSION=gemini-abc " + W + "git status",
		"rac out read last":             "RAC_SESSION=gemini-abc rac out read last",
		"RAC_SESSION=mine git push":     "RAC_SESSION=mine " + W + "git push",
		"ls && rac out grep x":          "ls && RAC_SESSION=gemini-abc rac out grep x",
		"echo $(rac out read last) | x": "echo $(rac out read last) | x",
	} {
		got, _ := r.Rewrite(in)
		assert.Equal(t, want, got, in)
	}
}

// Rac names rac in the inserted text: a plain path as it is, one that
// needs it quoted; a command rac already runs, by name or by path, is
// left alone (and, for Gemini, given the session).
func TestRewriteRacPath(t *testing.T) {
	tests := []struct {
		name, rac, session, in, want string
	}{
		{"default", "", "", "git status", "rac run -- git status"},
		{"the name", "rac", "", "git status", "rac run -- git status"},
		{"absolute path", "/opt/rac/bin/rac", "", "git status", "/opt/rac/bin/rac run -- git status"},
		{"path in a list", "/opt/rac", "", "cd x && make", "cd x && /opt/rac run -- make"},
		{"path with a space", "/home/a b/rac", "", "git status", "'/home/a b/rac' run -- git status"},
		{"path with a quote", "/x/it's/rac", "", "go vet", `'/x/it'\''s/rac' run -- go vet`},
		{"wrapped by path", "/opt/rac", "", "/opt/rac run -- git push", "/opt/rac run -- git push"},
		{"wrapped by another path", "/opt/rac", "", "./bin/rac run -- git push", "./bin/rac run -- git push"},
		{"session and path", "/opt/rac", "gemini-s", "git log", "RAC_SESSION=gemini-s /opt/rac run -- git log"},
		{"the model's rac by path", "rac", "gemini-s", "/usr/local/bin/rac out read last", "RAC_SESSION=gemini-s /usr/local/bin/rac out read last"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Rewriter{Programs: ParsePrograms(defaultWrap), Rac: tt.rac, Session: tt.session}
			got, _ := r.Rewrite(tt.in)
			assert.Equal(t, tt.want, got)
			again, _ := r.Rewrite(got)
			assert.Equal(t, got, again, "a second rewrite changed it")
		})
	}
}

// Codex's login shell resets PATH, so Codex gets the absolute path
// whatever Rac says; Claude Code and Gemini CLI get Rac.
func TestHandleRacName(t *testing.T) {
	const exe = "/opt/rac/bin/rac"
	for _, tt := range []struct {
		name, harness, rac, exe, in, want string
	}{
		{"codex, rac on PATH", "codex", "rac", exe, codexCall("git status"), exe + " run -- git status"},
		{"codex, rac not on PATH", "codex", exe, exe, codexCall("git status"), exe + " run -- git status"},
		{"codex, no executable", "codex", "rac", "", codexCall("git status"), "rac run -- git status"},
		{"claude, rac on PATH", "claude", "rac", exe, claudeIn("bypassPermissions", `{"command":"git status"}`), "rac run -- git status"},
		{"claude, rac not on PATH", "claude", exe, exe, claudeIn("bypassPermissions", `{"command":"git status"}`), exe + " run -- git status"},
		{"gemini, rac on PATH", "gemini", "rac", exe, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"make"}}`, "rac run -- make"},
		{"gemini, rac not on PATH", "gemini", exe, exe, `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"make"}}`, exe + " run -- make"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			_, err := Handle(tt.harness, strings.NewReader(tt.in), &out, Options{
				Wrap: defaultWrap, Getenv: env("HOME", "/h"), FS: mapFS{}, Rac: tt.rac, Exe: tt.exe,
			})
			require.NoError(t, err)
			var ans struct {
				Out struct {
					Updated map[string]any `json:"updatedInput"`
					Gemini  map[string]any `json:"tool_input"`
				} `json:"hookSpecificOutput"`
			}
			require.NoError(t, json.Unmarshal(out.Bytes(), &ans), out.String())
			got := ans.Out.Updated["command"]
			if tt.harness == "gemini" {
				got = ans.Out.Gemini["command"]
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func codexCall(cmd string) string {
	return `{"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","cwd":"/proj","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`
}
