//go:build unix

package main

// The shell-init suite: rac shell-init's functions in a real bash, zsh and
// fish in tmux, with a git prompt (__git_ps1, vcs_info, fish_git_prompt)
// and completion loaded. Only what a person types records, and prints what
// git prints. It runs with RAC_TMUX=1 (make terminal) and reuses the
// real-terminal suite's panes (tmux_test.go); screens are awaited with a
// deadline, never slept for.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/ui"
)

// shellBarePrompt ends every prompt of the suite's shells; the git prompt
// comes before it.
const shellBarePrompt = "rac-test$"

func TestShellTmux(t *testing.T) {
	if os.Getenv("RAC_TMUX") != "1" {
		t.Skip("the real-terminal suite runs with RAC_TMUX=1 (make terminal)")
	}
	for _, tool := range []string{"tmux", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	s := &tmuxSuite{bin: t.TempDir()}
	build := exec.Command("go", "build", "-buildvcs=false", "-o", filepath.Join(s.bin, "rac"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build rac: %s", out)
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			if _, err := exec.LookPath(shell); err != nil {
				t.Skipf("%s is not installed (apt-get install -y zsh fish)", shell)
			}
			t.Parallel()
			shellChecks(t, s, shell)
		})
	}
}

// shellPane is a pane running shell interactively with its start-up file
// holding a git prompt, git's completion and the line docs/shell.md gives:
// eval "$(rac shell-init SHELL --session NAME)".
func shellPane(t *testing.T, s *tmuxSuite, shell, dir, store, sessionName string) *tmuxPane {
	t.Helper()
	home := t.TempDir()
	sockets, err := os.MkdirTemp("", "rac-tmux-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(sockets) })
	var env []string
	for _, kv := range tmuxEnv(s, home) {
		if !strings.HasPrefix(kv, "RAC_SESSION=") && !strings.HasPrefix(kv, "PS1=") && !strings.HasPrefix(kv, "RAC_HOME=") {
			env = append(env, kv)
		}
	}
	p := &tmuxPane{
		t:      t,
		socket: fmt.Sprintf("rac-test-%d-%d", os.Getpid(), tmuxServers.Add(1)),
		env:    append(env, "TMUX_TMPDIR="+sockets, "USER=tester", "ZDOTDIR="+home, "RAC_HOME="+waitGCAtCleanup(t, store)),
		files:  t.TempDir(),
	}
	init := "--session " + sessionName
	var argv []string
	switch shell {
	case "bash":
		rc := "GIT_PS1_SHOWDIRTYSTATE=1\n"
		for _, f := range []string{"/usr/lib/git-core/git-sh-prompt", "/usr/share/bash-completion/completions/git"} {
			if _, err := os.Stat(f); err == nil {
				rc += ". " + f + "\n"
			}
		}
		// __git_ps1 both ways: in PROMPT_COMMAND (it runs git diff with
		// stdout on the terminal) and in PS1's $(...)
		rc += `PROMPT_COMMAND='__git_ps1 "" "\$(__git_ps1 [%s])` + shellBarePrompt + ` "'` + "\n"
		rc += `eval "$(rac shell-init bash ` + init + `)"` + "\n"
		writeFile(t, filepath.Join(home, ".bashrc"), rc)
		argv = []string{"bash", "--noprofile", "--rcfile", filepath.Join(home, ".bashrc"), "-i"}
	case "zsh":
		writeFile(t, filepath.Join(home, ".zshrc"), `autoload -Uz vcs_info compinit
compinit -u -d "$ZDOTDIR/.zcompdump"
zstyle ':vcs_info:*' enable git
zstyle ':vcs_info:git:*' check-for-changes true
precmd() { vcs_info }
setopt prompt_subst
PROMPT='${vcs_info_msg_0_}`+shellBarePrompt+` '
eval "$(rac shell-init zsh `+init+`)"
`)
		argv = []string{"zsh", "-i"}
	case "fish":
		writeFile(t, filepath.Join(home, ".config", "fish", "config.fish"), `function fish_greeting; end
set -g __fish_git_prompt_showdirtystate 1
function fish_prompt; printf '%s%s ' (fish_git_prompt) '`+shellBarePrompt+`'; end
rac shell-init fish `+init+` | source
`)
		// Without this folder an interactive fish starts generating man-page
		// completions into it in the background, which outlives the test and
		// races the removal of its home (TempDir: "directory not empty").
		require.NoError(t, os.MkdirAll(filepath.Join(home, ".local", "share", "fish", "generated_completions"), 0o700))
		argv = []string{"fish", "-i"}
	}
	p.tmux(append([]string{"start-server", ";", "set-option", "-g", "history-limit", "50000", ";",
		"set-option", "-g", "status", "off", ";",
		"new-session", "-d", "-s", "rac", "-x", strconv.Itoa(tmuxWidth), "-y", strconv.Itoa(tmuxHeight),
		"-c", dir, "--"}, argv...)...)
	t.Cleanup(func() { _ = p.command("kill-server").Run() })
	p.waitScreen(shell+"'s first prompt", atPrompt)
	return p
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
}

// atPrompt: the shell waits at an empty prompt.
func atPrompt(l []string) bool { return strings.HasSuffix(bottomLine(l), shellBarePrompt) }

// shellRun types line and a marker printing its status (each shell's own
// way) and returns the status and the lines printed between them.
func shellRun(p *tmuxPane, shell, line string) (int, []string) {
	p.t.Helper()
	p.marks++
	id := fmt.Sprintf("m%d", p.marks)
	status := `"$?"`
	if shell == "fish" {
		status = `"$status"`
	}
	p.typeLine(line + "; printf '=%s= %s\\n' " + id + " " + status)
	re := regexp.MustCompile(`^=` + id + `= (\d+)$`)
	deadline := time.Now().Add(tmuxWait)
	for {
		lines := p.history(false)
		for i, l := range lines {
			if m := re.FindStringSubmatch(l); m != nil {
				start := lastIndex(lines[:i], func(s string) bool { return strings.Contains(s, id+" "+status) })
				require.GreaterOrEqual(p.t, start, 0, "the typed line %q is not in the history", line)
				n, err := strconv.Atoi(m[1])
				require.NoError(p.t, err)
				p.waitScreen("the prompt after "+id, atPrompt)
				return n, lines[start+1 : i]
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for marker %s; the screen:\n%s", tmuxWait, id, strings.Join(p.screen(), "\n"))
		}
		time.Sleep(tmuxPoll)
	}
}

// shellRecordings is the argv of every recording in the pane's store, in
// order (rac out list --all-sessions --json).
func shellRecordings(p *tmuxPane, s *tmuxSuite) []string {
	p.t.Helper()
	cmd := exec.Command(filepath.Join(s.bin, "rac"), "out", "list", "--all-sessions", "--json")
	cmd.Env = p.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(p.t, err, "rac out list: %s", stderr.String())
	var recs []struct {
		Argv []string `json:"argv"`
	}
	require.NoError(p.t, json.Unmarshal(out, &recs), "rac out list --json: %s", out)
	var argvs []string
	for _, r := range recs {
		argvs = append(argvs, strings.Join(r.Argv, " "))
	}
	return argvs
}

// complete types prefix, presses Tab and waits for want on the prompt
// line, then empties the line.
func complete(p *tmuxPane, prefix, want string) {
	p.t.Helper()
	p.tmux("send-keys", "-t", "rac", "-l", "--", prefix)
	p.keys("Tab")
	p.waitScreen("completion of "+strconv.Quote(prefix), func(l []string) bool {
		return strings.Contains(bottomLine(l), want) || strings.Contains(strings.Join(l, "\n"), shellBarePrompt+" "+want)
	})
	// A Ctrl-C that arrives while the shell still runs the completion's
	// own commands (fish: git for-each-ref) ends those, not the line: send
	// it again until the prompt is empty.
	for range 5 {
		p.keys("C-c")
		deadline := time.Now().Add(2 * time.Second)
		for time.Now().Before(deadline) {
			if atPrompt(p.screen()) {
				return
			}
			time.Sleep(tmuxPoll)
		}
	}
	p.waitScreen("an empty prompt after completing "+strconv.Quote(prefix), atPrompt)
}

func shellChecks(t *testing.T, s *tmuxSuite, shell string) {
	repo := tmuxRepo(t, s, 3)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "file.txt"), []byte("line one\nchanged\n"), 0o644))
	sessionName := "people-" + shell
	store := filepath.Join(t.TempDir(), "store")
	p := shellPane(t, s, shell, repo, store, sessionName)

	// the prompt's git calls, drawn a few times, record nothing
	for range 3 {
		_, _ = shellRun(p, shell, "true")
	}
	require.Empty(t, shellRecordings(p, s), "the prompt recorded")

	// a typed git status records once and prints exactly what git prints
	status, plain := shellRun(p, shell, "command git status")
	require.Equal(t, 0, status)
	status, typed := shellRun(p, shell, "git status")
	require.Equal(t, 0, status)
	assert.Contains(t, strings.Join(typed, "\n"), "modified:")
	assert.Equal(t, plain, typed, "git status through shell-init differs from git's own output")
	require.Equal(t, []string{"git status"}, shellRecordings(p, s))

	// Tab completions (subcommands, a branch: git for-each-ref) record nothing
	for _, c := range [][2]string{
		{"git checko", "git checkout"}, {"git rebas", "git rebase"}, {"git bran", "git branch"},
		{"git commi", "git commit"}, {"git checkout ma", "git checkout main"},
	} {
		complete(p, c[0], c[1])
	}
	assert.Equal(t, []string{"git status"}, shellRecordings(p, s), "a completion recorded")

	// $(...) holds only git's output; command git and RAC_DISABLE=1 bypass
	head := strings.TrimSpace(tmuxGit(t, s, repo, "", "rev-parse", "HEAD"))
	subst := `x=$(git rev-parse HEAD); echo "[$x]"`
	disable := "RAC_DISABLE=1 git status --short"
	if shell == "fish" {
		subst = `set x (git rev-parse HEAD); echo "[$x]"`
		disable = "env RAC_DISABLE=1 fish -ic 'git status --short'"
	}
	_, out := shellRun(p, shell, subst)
	assert.Equal(t, []string{"[" + head + "]"}, out)
	_, _ = shellRun(p, shell, "command git status --short")
	_, out = shellRun(p, shell, disable)
	assert.Contains(t, strings.Join(out, "\n"), "file.txt")
	assert.Equal(t, []string{"git status"}, shellRecordings(p, s), "$(...), command git or RAC_DISABLE=1 recorded")

	// a failing git push prints its reference, and only it
	status, out = shellRun(p, shell, "git push")
	assert.NotEqual(t, 0, status)
	assert.Regexp(t, `^rac: ref `+sessionName+`/0002-git-push$`, bottomLine(out))

	// a second terminal with the same --session reads the first one's last
	q := shellPane(t, s, shell, repo, store, sessionName)
	_, out = shellRun(q, shell, "rac out read last --stream combined")
	assert.Contains(t, strings.Join(out, "\n"), "No configured push destination", "rac out read last in a second pane")
	_, _ = shellRun(q, shell, "git log --oneline -1")
	_, out = shellRun(p, shell, "rac out read last")
	assert.Contains(t, strings.Join(out, "\n"), "commit number 3", "rac out read last back in the first pane")

	// a line typed while a wrapped git runs is the shell's after it
	t.Run("TypeAhead", func(t *testing.T) { typeAhead(t, s, shell, "git", "-") })
}

// typeAhead types, in a pane of shell, each of these commands and, while
// it runs, a line for the shell: git status (held by an fsmonitor hook),
// git log (its pager: "q" and the line typed at once), git clone
// --progress of a local repository (held in its upload-pack) and a
// progress bar; git is typed as git (the shell-init function, "command
// git", "rac run -- git") and the bar after bar ("-": no bar). The line
// typed ahead must run in the shell after the command, and no recording
// may hold it.
func typeAhead(t *testing.T, s *tmuxSuite, shell, git, bar string) {
	t.Helper()
	repo := tmuxRepo(t, s, 300)
	dir := t.TempDir()
	p := shellPane(t, s, shell, repo, filepath.Join(t.TempDir(), "store"), "typeahead-"+shell)
	// held is a script that runs body until the test lets it go, then then
	held := func(name, body, then string) string {
		script := filepath.Join(dir, name+".sh")
		writeFile(t, script, "#!/bin/sh\n: > "+shellQuote(filepath.Join(dir, name+".started"))+
			"\nuntil [ -e "+shellQuote(filepath.Join(dir, name+".go"))+" ]; do "+body+"sleep 0.02; done\n"+then+"\n")
		require.NoError(t, os.Chmod(script, 0o700))
		return script
	}
	typed := func(name string) {
		t.Helper()
		want := "typed-" + name
		p.waitScreen("the line "+want+" run by the shell", func([]string) bool {
			return slices.Contains(p.history(false), want)
		})
		p.waitScreen("the prompt after "+want, atPrompt)
	}
	whileHeld := func(name, line string) {
		t.Helper()
		p.typeLine(line)
		started := filepath.Join(dir, name+".started")
		p.waitScreen(name+" running", func([]string) bool { _, err := os.Stat(started); return err == nil })
		p.typeLine(`echo typed""-` + name)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".go"), nil, 0o600))
		typed(name)
	}

	whileHeld("status", git+" -c core.fsmonitor="+held("status", "", "exit 1")+" status --short")
	p.typeLine(git + " log")
	p.waitScreen("git log's pager", func(l []string) bool { return bottomLine(l) == ":" })
	p.tmux("send-keys", "-t", "rac", "-l", "--", `qecho typed""-log`)
	p.keys("Enter")
	typed("log")
	whileHeld("clone", git+" clone --progress --upload-pack="+held("clone", "", `exec git-upload-pack "$@"`)+
		" file://"+repo+" "+filepath.Join(dir, "clone"))
	if bar != "-" {
		whileHeld("bar", bar+"sh "+held("bar", `i=$((i+1)); printf '\rprogress %d' "$i"; `, `printf '\rprogress done\n'`))
	}
	if _, err := os.Stat(filepath.Join(dir, "clone", "file.txt")); err != nil {
		t.Errorf("git clone made no work tree: %v", err)
	}
	for _, r := range p.recordings(s) {
		for _, l := range p.read(s, r.Ref) {
			assert.NotContains(t, l, "typed", "the recording of %q holds the line typed ahead", r.Argv)
		}
	}
}

// A non-interactive bash that has the shell-init functions (an agent's
// shell snapshot copies them) runs git untouched: nothing is recorded.
// The --agent functions record every call there.
func TestShellInitNonInteractive(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	rac, err := exec.LookPath("rac") // this test binary, as testscript put it on PATH
	require.NoError(t, err)
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "RAC_HOME=" + waitGCAtCleanup(t, filepath.Join(dir, "store")),
		"USER=tester", "TMPDIR=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
	shellInit := func(args ...string) string {
		cmd := exec.Command(rac, append([]string{"shell-init"}, args...)...)
		cmd.Env = env
		out, err := cmd.Output()
		require.NoError(t, err)
		return string(out)
	}
	list := func() string {
		cmd := exec.Command(rac, "out", "list", "--all-sessions", "--json")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	bashC := func(init, line string) string {
		cmd := exec.Command("bash", "-c", init+"\n"+line)
		cmd.Env, cmd.Dir = env, dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	out := bashC(shellInit("bash"), "git --version; git init -q repo")
	assert.Regexp(t, `^git version \S+\n$`, out, "git's output alone")
	assert.NotContains(t, list(), `"git"`, "the people functions recorded in a non-interactive shell")

	// under an agent (its marker set), as the hook's functions run
	out = bashC(shellInit("bash", "--agent", "--session", "agent"), "export CLAUDECODE=1; git --version")
	assert.Regexp(t, `^rac: recording agent/0001-git \(cut\? rac out explain agent/0001-git\)\ngit version \S+\n`, out)
	assert.Contains(t, list(), `"git"`, "the --agent functions did not record")
}

// rac hook claude-session as cmd_hook.go runs it: the env file gets the
// --agent functions and the session, the store the harness note, stdout
// nothing; bad input is one warning and still no error.
func TestClaudeSessionHookCommand(t *testing.T) {
	p := newInProcess(t)
	envFile := filepath.Join(t.TempDir(), "env")
	p.env["CLAUDE_ENV_FILE"] = envFile
	p.env["CLAUDE_PID"] = strconv.Itoa(os.Getpid())
	hook := func(stdin string) (string, string) {
		s, in, out, errOut := ui.Test()
		in.WriteString(stdin)
		c := &cli{streams: s, p: s.Printer(), env: p.appEnv()}
		require.NoError(t, c.setup(newShellInitCmd(c)))
		require.NoError(t, c.runClaudeSessionHook())
		return out.String(), errOut.String()
	}
	out, errOut := hook(`{"session_id":"0B7E6F4A-1C2D-4E5F-8A9B-0C1D2E3F4A5B","hook_event_name":"SessionStart"}`)
	assert.Empty(t, out)
	assert.Empty(t, errOut)
	b, err := os.ReadFile(envFile)
	require.NoError(t, err)
	assert.Contains(t, string(b), "\nexport RAC_SESSION=claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b\n")
	assert.Contains(t, string(b), "function git {\n  if [[ ${RAC_DISABLE:-0} == 0 ]]; then\n")
	note, err := os.ReadFile(filepath.Join(p.env["RAC_HOME"], "harness", strconv.Itoa(os.Getpid())+".json"))
	require.NoError(t, err)
	assert.Contains(t, string(note), `"session":"claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"`)

	out, errOut = hook(`{"session_id":`)
	assert.Empty(t, out)
	assert.Regexp(t, `^rac: warning: hook claude-session: stdin is not the SessionStart JSON [^\n]*\n$`, errOut)
}
