//go:build unix

package main

// The real-terminal suite: rac run in a tmux pane, compared with the same
// command typed without rac in a pane set up the same way. Each pane is its
// own tmux server (its own socket) running a clean bash; the test types
// with send-keys and reads the screen with capture-pane, polling for a
// marker with a deadline, never sleeping for a state. It runs only with
// RAC_TMUX=1 (make terminal): it needs tmux, less, python3 and git (and
// uses zsh, fish and tig where present), and starts a few dozen terminals.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

const (
	tmuxWidth  = 120
	tmuxHeight = 40
	// tmuxPrompt is the outer shell's PS1; a line that is exactly
	// tmuxBarePrompt is the shell waiting for a command.
	tmuxPrompt     = "rac-test$ "
	tmuxBarePrompt = "rac-test$"
	tmuxWait       = 10 * time.Second
	tmuxPoll       = 20 * time.Millisecond
)

// tmuxVariants are the two ways each check types its command: as is, and
// through rac run. Everything else about the pane is the same.
var tmuxVariants = []struct{ name, rac string }{
	{"plain", ""},
	{"rac", "rac run -- "},
}

// tmuxServers numbers the servers of this test process: each pane gets a
// socket of its own (-L rac-test-PID-N).
var tmuxServers atomic.Int64

// TestTmux is the real-terminal suite. The checks are its subtests, so
// that the rac binary they all type is built once and removed after the
// last of them (go test -run 'TestTmux/GitLog' runs one).
func TestTmux(t *testing.T) {
	if os.Getenv("RAC_TMUX") != "1" {
		t.Skip("the real-terminal suite runs with RAC_TMUX=1 (make terminal)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	for _, tool := range []string{"bash", "git", "stty", "tput"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	s := &tmuxSuite{bin: t.TempDir()}
	build := exec.Command("go", "build", "-buildvcs=false", "-o", filepath.Join(s.bin, "rac"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build rac: %s", out)

	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *tmuxSuite)
	}{
		{"GitLogPager", tmuxGitLog},
		{"GitStatusColour", tmuxGitStatus},
		{"PythonREPL", tmuxPythonREPL},
		{"NestedShell", tmuxNestedShell},
		{"TerminalSize", tmuxTerminalSize},
		{"CtrlC", tmuxCtrlC},
		{"CtrlZ", tmuxCtrlZ},
		{"GitCommitEditor", tmuxGitCommit},
		{"StdoutStderrOrder", tmuxOrder},
		{"AgentGetsPipes", tmuxAgent},
		{"TypeAhead", tmuxTypeAhead},
		{"PagerCtrlZ", tmuxPagerCtrlZ},
		{"Tig", tmuxTig},
		{"Tostop", tmuxTostop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, s)
		})
	}
}

// tmuxSuite is what the checks share: the directory holding the rac
// binary they put first on PATH.
type tmuxSuite struct{ bin string }

// tmuxPane is one tmux server with one pane running a clean bash.
type tmuxPane struct {
	t      *testing.T
	socket string
	env    []string // the server's environment, so the shell's
	files  string   // where the test has the shell write files it reads back
	marks  int
	stty   string // stty -a when the pane was new, without the size
	sttyN  int
	shell  int    // the shell's pid
	tty    string // the pane's terminal
}

// tmuxEnv is a clean environment: this machine's, without any variable an
// agent harness sets (the suite may well run under one), any rac setting,
// the pager, editor and colour settings, the shell's start-up hooks and
// the outer tmux; with the homes in home.
func tmuxEnv(s *tmuxSuite, home string) []string {
	drop := map[string]bool{}
	for _, v := range session.DefaultIDVars {
		drop[v.Var] = true
	}
	for _, v := range session.DefaultMarkerVars {
		drop[v.Var], drop[v.PIDVar] = true, true
	}
	for _, k := range []string{
		"AGENT", "AI_AGENT", "PAGER", "LESS", "LESSOPEN", "LESSCLOSE", "EDITOR", "VISUAL",
		"NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM", "COLUMNS", "LINES",
		"BASH_ENV", "ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS4", "HISTFILE", "INPUTRC",
		"PYTHONSTARTUP", "CDPATH", "LANG", "STY", "WINDOW", "ZELLIJ",
	} {
		drop[k] = true
	}
	prefixes := []string{
		"CLAUDE", "CODEX", "GEMINI", "AGENT", "AI_AGENT", "CURSOR", "COPILOT", "OPENCODE",
		"AMP_", "GOOSE", "QWEN", "CLINE", "TMUX", "RAC_", "XDG_", "GIT_", "LC_", "ZELLIJ_",
	}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		keep := !drop[k]
		for _, p := range prefixes {
			keep = keep && !strings.HasPrefix(k, p)
		}
		if keep && k != "PATH" && k != "HOME" {
			env = append(env, kv)
		}
	}
	return append(env,
		"PATH="+s.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"RAC_HOME="+filepath.Join(home, "store"),
		"RAC_SESSION=tmux",
		"PS1="+tmuxPrompt,
		"HISTFILE=", // no history written while the test removes the home
		"LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Rac Test", "GIT_AUTHOR_EMAIL=rac@example.com",
		"GIT_COMMITTER_NAME=Rac Test", "GIT_COMMITTER_EMAIL=rac@example.com",
		"GIT_AUTHOR_DATE=2020-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2020-01-02T03:04:05Z",
	)
}

// pane starts a tmux server of its own, its one pane 120x40 running bash
// in dir, and waits for the prompt. The server is killed when t ends.
func (s *tmuxSuite) pane(t *testing.T, dir string) *tmuxPane {
	t.Helper()
	home := t.TempDir()
	waitGCAtCleanup(t, filepath.Join(home, "store"))
	// tmux leaves its socket behind when the server is killed: in a folder
	// of the test's, short enough for a socket's path
	sockets, err := os.MkdirTemp("", "rac-tmux-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(sockets) })
	p := &tmuxPane{
		t:      t,
		socket: fmt.Sprintf("rac-test-%d-%d", os.Getpid(), tmuxServers.Add(1)),
		env:    append(tmuxEnv(s, home), "TMUX_TMPDIR="+sockets),
		files:  t.TempDir(),
	}
	// history-limit applies to panes made after it is set: before the
	// session, in the same command list
	p.tmux("start-server", ";", "set-option", "-g", "history-limit", "50000", ";",
		"set-option", "-g", "status", "off", ";",
		"new-session", "-d", "-s", "rac", "-x", strconv.Itoa(tmuxWidth), "-y", strconv.Itoa(tmuxHeight),
		"-c", dir, "--", "bash", "--norc", "--noprofile")
	t.Cleanup(func() {
		// only this server, by its socket; then wait for the shell and
		// what it started to be gone before the temporary folders they
		// write into are removed
		var left []tmuxProc
		if p.shell > 0 {
			left = append(p.descendants(), tmuxProc{pid: p.shell})
		}
		_ = p.command("kill-server").Run()
		deadline := time.Now().Add(tmuxWait)
		for len(alive(t, left)) > 0 && time.Now().Before(deadline) {
			time.Sleep(tmuxPoll)
		}
		if l := alive(t, left); len(l) > 0 {
			t.Errorf("processes left after the tmux server was killed: %+v", l)
		}
	})
	shell, err := strconv.Atoi(p.display("#{pane_pid}"))
	require.NoError(t, err)
	p.shell = shell
	p.waitScreen("the shell's first prompt", func(l []string) bool { return bottomLine(l) == tmuxBarePrompt })
	p.tty = p.display("#{pane_tty}")
	p.waitSize(tmuxWidth, tmuxHeight)
	p.stty = p.sttyNow()
	return p
}

func (p *tmuxPane) command(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-L", p.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = p.env
	return cmd
}

// tmux runs one tmux command against this pane's server and returns its
// output.
func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	var stderr bytes.Buffer
	cmd := p.command(args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		p.t.Fatalf("tmux %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

func (p *tmuxPane) display(format string) string {
	p.t.Helper()
	return strings.TrimSpace(p.tmux("display-message", "-p", "-t", "rac", format))
}

// typeLine types text as keys and presses Enter.
func (p *tmuxPane) typeLine(text string) {
	p.t.Helper()
	if text != "" {
		p.tmux("send-keys", "-t", "rac", "-l", "--", text)
	}
	p.tmux("send-keys", "-t", "rac", "Enter")
}

// keys presses tmux key names: C-c, C-z, C-d, q.
func (p *tmuxPane) keys(keys ...string) {
	p.t.Helper()
	p.tmux(append([]string{"send-keys", "-t", "rac"}, keys...)...)
}

// screen is the visible screen, wrapped lines joined, trailing blanks cut.
func (p *tmuxPane) screen() []string {
	p.t.Helper()
	return splitLines(p.tmux("capture-pane", "-p", "-J", "-t", "rac"))
}

// history is the whole pane, scrollback and screen, wrapped lines joined;
// with colour, the SGR sequences kept.
func (p *tmuxPane) history(colour bool) []string {
	p.t.Helper()
	args := []string{"capture-pane", "-p", "-J", "-S", "-", "-t", "rac"}
	if colour {
		args = append(args, "-e")
	}
	return splitLines(p.tmux(args...))
}

func splitLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func bottomLine(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[len(lines)-1]
}

// waitScreen polls the screen until ok holds, for at most tmuxWait.
func (p *tmuxPane) waitScreen(what string, ok func([]string) bool) []string {
	p.t.Helper()
	deadline := time.Now().Add(tmuxWait)
	for {
		lines := p.screen()
		if ok(lines) {
			return lines
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s; the screen:\n%s", tmuxWait, what, strings.Join(lines, "\n"))
		}
		time.Sleep(tmuxPoll)
	}
}

// waitPromptAfter waits for the shell's bare prompt on a line below the
// last line holding text: what text was part of has ended.
func (p *tmuxPane) waitPromptAfter(text string) []string {
	p.t.Helper()
	return p.waitScreen("the prompt after "+strconv.Quote(text), func(l []string) bool {
		i := lastIndex(l, func(s string) bool { return strings.Contains(s, text) })
		return i >= 0 && slices.Index(l[i+1:], tmuxBarePrompt) >= 0
	})
}

func lastIndex(lines []string, match func(string) bool) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if match(lines[i]) {
			return i
		}
	}
	return -1
}

// markCmd is the shell command that prints marker id and the status of
// what ran before it. Its output, "=id= N", never appears in the typed
// line itself, so seeing it means the line has run.
func (p *tmuxPane) markCmd() (id, cmd string) {
	p.marks++
	id = fmt.Sprintf("m%d", p.marks)
	return id, fmt.Sprintf(`printf '=%%s= %%s\n' %s "$?"`, id)
}

// waitMark waits for marker id in the pane's history and returns the
// status it printed and the history's lines up to it.
func (p *tmuxPane) waitMark(id string) (int, []string) {
	p.t.Helper()
	re := regexp.MustCompile(`^=` + id + `= (\d+)$`)
	deadline := time.Now().Add(tmuxWait)
	for {
		lines := p.history(false)
		for i, l := range lines {
			if m := re.FindStringSubmatch(l); m != nil {
				n, err := strconv.Atoi(m[1])
				require.NoError(p.t, err)
				return n, lines[:i+1]
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for marker %s; the screen:\n%s", tmuxWait, id, strings.Join(p.screen(), "\n"))
		}
		time.Sleep(tmuxPoll)
	}
}

// run types line followed by a marker on the same command line, so
// nothing is typed ahead while line runs, and returns line's status and
// its output lines (from the history, with colour when asked).
func (p *tmuxPane) run(line string, colour bool) (int, []string) {
	p.t.Helper()
	id, mark := p.markCmd()
	p.typeLine(line + "; " + mark)
	status, upTo := p.waitMark(id)
	start := lastIndex(upTo, func(s string) bool { return strings.Contains(s, id+` "$?"`) })
	require.GreaterOrEqual(p.t, start, 0, "the typed line %q is not in the history", line)
	out := upTo[start+1 : len(upTo)-1]
	if colour {
		// the same lines, with their SGR sequences: the history only grows
		// below them
		all := p.history(true)
		require.GreaterOrEqual(p.t, len(all), len(upTo), "the coloured history is shorter")
		out = all[start+1 : len(upTo)-1]
	}
	return status, out
}

// status types the marker alone and returns $?: for a shell that is back
// at its prompt after an interactive program.
func (p *tmuxPane) status() int {
	p.t.Helper()
	id, mark := p.markCmd()
	p.typeLine(mark)
	n, _ := p.waitMark(id)
	return n
}

// clear empties the screen and the history, so that what a check waits
// for cannot be left from the one before.
func (p *tmuxPane) clear() {
	p.t.Helper()
	p.typeLine("clear")
	p.waitScreen("a clear screen", func(l []string) bool { return len(l) == 1 && l[0] == tmuxBarePrompt })
	p.tmux("clear-history", "-t", "rac")
}

// sttySize is the part of stty -a that follows the window.
var sttySize = regexp.MustCompile(`rows \d+; columns \d+;`)

// sttyNow is stty -a as the shell's commands see the terminal, without
// the window size (which TerminalSize changes on purpose).
func (p *tmuxPane) sttyNow() string {
	p.t.Helper()
	p.sttyN++
	file := filepath.Join(p.files, fmt.Sprintf("stty-%d", p.sttyN))
	status, _ := p.run("stty -a > "+shellQuote(file), false)
	require.Equal(p.t, 0, status, "stty -a failed")
	b, err := os.ReadFile(file)
	require.NoError(p.t, err)
	return sttySize.ReplaceAllString(string(b), "rows R; columns C;")
}

// checkStty compares stty -a with the pane's at its start: a command that
// leaves the terminal changed (raw mode, no echo) breaks the shell after it.
func (p *tmuxPane) checkStty(after string) {
	p.t.Helper()
	if now := p.sttyNow(); now != p.stty {
		p.t.Errorf("stty -a differs after %s:\nbefore:\n%s\nafter:\n%s", after, p.stty, now)
	}
}

// tmuxProc is one process of the machine's table.
type tmuxProc struct {
	pid, ppid int
	state     string // R, S, T (stopped), Z...
	comm      string
}

// procs reads the process table: /proc where there is one, else ps.
func procs(t *testing.T) []tmuxProc {
	t.Helper()
	var list []tmuxProc
	if runtime.GOOS == "linux" {
		dirs, err := os.ReadDir("/proc")
		require.NoError(t, err)
		for _, d := range dirs {
			pid, err := strconv.Atoi(d.Name())
			if err != nil {
				continue
			}
			b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
			if err != nil {
				continue // gone meanwhile
			}
			// pid (comm) state ppid ...: comm may hold spaces and parens
			s := string(b)
			open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
			if open < 0 || closing < open {
				continue
			}
			f := strings.Fields(s[closing+1:])
			if len(f) < 2 {
				continue
			}
			ppid, _ := strconv.Atoi(f[1])
			list = append(list, tmuxProc{pid: pid, ppid: ppid, state: f[0], comm: s[open+1 : closing]})
		}
		return list
	}
	out, err := exec.Command("ps", "-A", "-o", "pid=", "-o", "ppid=", "-o", "stat=", "-o", "comm=").Output()
	require.NoError(t, err)
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		pid, _ := strconv.Atoi(f[0])
		ppid, _ := strconv.Atoi(f[1])
		list = append(list, tmuxProc{pid: pid, ppid: ppid, state: f[2][:1], comm: filepath.Base(strings.Join(f[3:], " "))})
	}
	return list
}

// descendants are the processes below the pane's shell.
func (p *tmuxPane) descendants() []tmuxProc {
	p.t.Helper()
	all := procs(p.t)
	below := map[int]bool{p.shell: true}
	var found []tmuxProc
	for grew := true; grew; {
		grew = false
		for _, pr := range all {
			if below[pr.ppid] && !below[pr.pid] {
				below[pr.pid], grew = true, true
				found = append(found, pr)
			}
		}
	}
	return found
}

// waitProcs polls the shell's descendants until ok holds.
func (p *tmuxPane) waitProcs(what string, ok func([]tmuxProc) bool) {
	p.t.Helper()
	deadline := time.Now().Add(tmuxWait)
	for {
		ps := p.descendants()
		if ok(ps) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s; the shell's descendants: %+v; the screen:\n%s",
				tmuxWait, what, ps, strings.Join(p.screen(), "\n"))
		}
		time.Sleep(tmuxPoll)
	}
}

// alive are the processes of list still running (a zombie has ended).
func alive(t *testing.T, list []tmuxProc) []tmuxProc {
	t.Helper()
	now := map[int]tmuxProc{}
	for _, pr := range procs(t) {
		now[pr.pid] = pr
	}
	var left []tmuxProc
	for _, pr := range list {
		if n, ok := now[pr.pid]; ok && n.state != "Z" {
			left = append(left, n)
		}
	}
	return left
}

// resize resizes the window and waits for the pane's terminal to have
// the new size: tmux sets it after the command returns.
func (p *tmuxPane) resize(w, h int) {
	p.t.Helper()
	p.tmux("resize-window", "-t", "rac", "-x", strconv.Itoa(w), "-y", strconv.Itoa(h))
	p.waitSize(w, h)
}

// waitSize polls the size of the pane's terminal (TIOCGWINSZ), as the
// programs in it see it.
func (p *tmuxPane) waitSize(w, h int) {
	p.t.Helper()
	f, err := os.OpenFile(p.tty, os.O_RDONLY|syscall.O_NOCTTY, 0)
	require.NoError(p.t, err)
	defer f.Close()
	deadline := time.Now().Add(tmuxWait)
	for {
		ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
		require.NoError(p.t, err)
		if int(ws.Col) == w && int(ws.Row) == h {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for the pane's terminal to be %dx%d; it is %dx%d", tmuxWait, w, h, ws.Col, ws.Row)
		}
		time.Sleep(tmuxPoll)
	}
}

// running: a process named comm is below the shell, and none is stopped.
func running(comm string) func([]tmuxProc) bool {
	return func(ps []tmuxProc) bool {
		seen := false
		for _, pr := range ps {
			if pr.state == "T" || pr.state == "t" {
				return false
			}
			seen = seen || pr.comm == comm
		}
		return seen
	}
}

// stopped: the processes named one of comms are all stopped, and there
// is one.
func stopped(comms ...string) func([]tmuxProc) bool {
	return func(ps []tmuxProc) bool {
		seen := false
		for _, pr := range ps {
			if !slices.Contains(comms, pr.comm) {
				continue
			}
			if pr.state != "T" && pr.state != "t" {
				return false
			}
			seen = true
		}
		return seen
	}
}

// blockedInRead: a process named one of comms is blocked in read(2)
// (/proc/PID/syscall; Linux only, elsewhere any such process will do).
func blockedInRead(comms ...string) func([]tmuxProc) bool {
	return blockedInCall(unix.SYS_READ, comms...)
}

// blockedInOpen: a process named comm is blocked in openat(2) (libc's
// open), as blockedInRead.
func blockedInOpen(comm string) func([]tmuxProc) bool {
	return blockedInCall(unix.SYS_OPENAT, comm)
}

func blockedInCall(nr int, comms ...string) func([]tmuxProc) bool {
	return func(ps []tmuxProc) bool {
		for _, pr := range ps {
			if !slices.Contains(comms, pr.comm) {
				continue
			}
			if runtime.GOOS != "linux" {
				return true
			}
			b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pr.pid), "syscall"))
			if err == nil && strings.HasPrefix(string(b), strconv.Itoa(nr)+" ") {
				return true
			}
		}
		return false
	}
}

// tmuxRecording is the part of rac out list --json the suite reads.
type tmuxRecording struct {
	Ref         string   `json:"ref"`
	Argv        []string `json:"argv"`
	Status      string   `json:"status"`
	ExitCode    *int     `json:"exit_code"`
	Signal      *string  `json:"signal"`
	Mode        string   `json:"mode"`
	StdoutBytes int64    `json:"stdout_bytes"`
	StderrBytes int64    `json:"stderr_bytes"`
	Combined    int64    `json:"combined_bytes"`
	KeptBytes   int64    `json:"kept_bytes"`
}

// recordings is rac out list --all-sessions --json in the pane's store
// (all sessions: an agent-marked run lands in the agent's session).
func (p *tmuxPane) recordings(s *tmuxSuite) []tmuxRecording {
	p.t.Helper()
	cmd := exec.Command(filepath.Join(s.bin, "rac"), "out", "list", "--all-sessions", "--json")
	cmd.Env = p.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(p.t, err, "rac out list: %s", stderr.String())
	var recs []tmuxRecording
	require.NoError(p.t, json.Unmarshal(out, &recs), "rac out list --json: %s", out)
	return recs
}

// read is rac out read REF's stdout, its lines without the pty's \r.
func (p *tmuxPane) read(s *tmuxSuite, ref string) []string {
	p.t.Helper()
	cmd := exec.Command(filepath.Join(s.bin, "rac"), "out", "read", ref)
	cmd.Env = p.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(p.t, err, "rac out read %s: %s", ref, stderr.String())
	return splitLines(strings.ReplaceAll(string(out), "\r\n", "\n"))
}

// recording is the last recording of argv; the test fails without one.
func (p *tmuxPane) recording(s *tmuxSuite, argv ...string) tmuxRecording {
	p.t.Helper()
	recs := p.recordings(s)
	for i := len(recs) - 1; i >= 0; i-- {
		if strings.Join(recs[i].Argv, "\x00") == strings.Join(argv, "\x00") {
			return recs[i]
		}
	}
	p.t.Fatalf("no recording of %q; rac out list --json: %+v", argv, recs)
	return tmuxRecording{}
}

// shellQuote quotes s for the pane's bash.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// withoutRefLines drops the lines rac writes to stderr: the reference when
// the command ends (it fails when one comes before the command's own output
// has ended) and, for an agent, the recording's name before it starts.
func withoutRefLines(t *testing.T, lines []string) []string {
	t.Helper()
	var out []string
	var refs int
	for _, l := range lines {
		if strings.HasPrefix(l, "rac: recording ") && len(out) == 0 && refs == 0 {
			continue // the first line of an agent's run
		}
		if strings.HasPrefix(l, "rac: ") {
			refs++
			continue
		}
		if refs > 0 {
			assert.Failf(t, "rac's line before the command's output ended", "%q", lines)
		}
		out = append(out, l)
	}
	return out
}

// testLines are the test's own lines on a screen: its stty snapshots and
// markers.
var testLines = regexp.MustCompile(`stty -a > |^=m\d+= \d+$`)

// normalScreen is a screen as it should be the same with rac and without:
// rac's reference lines, the test's own lines and the words "rac run --"
// typed before the command left out.
func normalScreen(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "rac: ref ") || testLines.MatchString(l) {
			continue
		}
		out = append(out, strings.Replace(l, "rac run -- ", "", 1))
	}
	return out
}

// sgr finds the SGR sequences in capture-pane -e output.
var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// hasColour reports whether s sets a foreground colour (30-37, 90-97, 38;...).
func hasColour(s string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 38 || n >= 90 && n <= 97) {
				return true
			}
		}
	}
	return false
}

// tmuxGit runs git in dir for the test's set-up.
func tmuxGit(t *testing.T, s *tmuxSuite, dir string, stdin string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = tmuxEnv(s, t.TempDir())
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
	return string(out)
}

// tmuxRepo makes a repository on main with n commits of fixed names and
// dates (git fast-import), the last adding file.txt, checked out.
func tmuxRepo(t *testing.T, s *tmuxSuite, n int) string {
	t.Helper()
	dir := t.TempDir()
	tmuxGit(t, s, dir, "", "init", "-q", "-b", "main")
	var b strings.Builder
	for i := 1; i <= n; i++ {
		msg := fmt.Sprintf("commit number %d\n", i)
		fmt.Fprintf(&b, "commit refs/heads/main\ncommitter Rac Test <rac@example.com> %d +0000\ndata %d\n%s",
			1577836800+i*3600, len(msg), msg)
		if i == n {
			content := "line one\nline two\n"
			fmt.Fprintf(&b, "M 644 inline file.txt\ndata %d\n%s", len(content), content)
		}
		b.WriteString("\n")
	}
	tmuxGit(t, s, dir, b.String(), "fast-import", "--quiet")
	tmuxGit(t, s, dir, "", "reset", "-q", "--hard")
	return dir
}

// 1. git log opens its pager (less) with colours and decorations, as
// without rac: the screen is the same, and q returns to the prompt.
func tmuxGitLog(t *testing.T, s *tmuxSuite) {
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("less is not installed")
	}
	repo := tmuxRepo(t, s, 300)
	screens := map[string]string{}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, repo)
			p.clear()
			p.typeLine(v.rac + "git log")
			// less's prompt, ":", on the last line: the pager is up and drawn
			lines := p.waitScreen("git log's pager", func(l []string) bool {
				return len(l) == tmuxHeight && l[tmuxHeight-1] == ":" && strings.Contains(l[0], "(HEAD -> main)")
			})
			assert.Contains(t, lines[0], "commit ")
			colour := p.tmux("capture-pane", "-p", "-e", "-t", "rac")
			assert.True(t, hasColour(colour), "no colour in the pager; capture-pane -e: %q", colour)
			screens[v.name] = colour
			// to the end first: less has then read all git wrote, and q
			// cannot kill git with SIGPIPE (status 141) midway
			p.keys("G")
			p.waitScreen("the end of the log", func(l []string) bool { return bottomLine(l) == "(END)" })
			p.keys("q")
			// git runs less with -X (LESS=FRX): the log stays on the screen
			p.waitScreen("the prompt after q", func(l []string) bool { return bottomLine(l) == tmuxBarePrompt })
			assert.Equal(t, 0, p.status(), "git log's status; the screen:\n%s", strings.Join(p.screen(), "\n"))
			if v.rac != "" {
				rec := p.recording(s, "git", "log")
				assert.Equal(t, "pty", rec.Mode, "the mode of rac run -- git log")
			}
			p.checkStty("git log")
		})
	}
	if len(screens) == 2 {
		assert.Equal(t, screens["plain"], screens["rac"], "the pager's screen (capture-pane -e) with rac differs from without")
	}
}

// 2. git status shows colour with rac as without.
func tmuxGitStatus(t *testing.T, s *tmuxSuite) {
	repo := tmuxRepo(t, s, 3)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "file.txt"), []byte("line one\nchanged\n"), 0o644))
	outs := map[string][]string{}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, repo)
			status, out := p.run(v.rac+"git -c color.ui=auto status", true)
			assert.Equal(t, 0, status)
			joined := strings.Join(out, "\n")
			assert.Contains(t, joined, "modified:")
			assert.True(t, hasColour(joined), "no colour in git status; capture-pane -e: %q", joined)
			outs[v.name] = withoutRefLines(t, out)
			p.checkStty("git status")
		})
	}
	if len(outs) == 2 {
		assert.Equal(t, outs["plain"], outs["rac"], "git status (capture-pane -e) with rac differs from without")
	}
}

// 3. python3's REPL: 1+1 gives 2 at its prompt; exit() and Ctrl-D leave
// it. Through rac it runs in passthrough mode.
func tmuxPythonREPL(t *testing.T, s *tmuxSuite) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, t.TempDir())
			p.clear()
			p.typeLine(v.rac + "python3")
			p.waitScreen("python's prompt", func(l []string) bool { return bottomLine(l) == ">>>" })
			p.typeLine("1+1")
			p.waitScreen("2 after 1+1", func(l []string) bool {
				i := slices.Index(l, ">>> 1+1")
				return i >= 0 && i+2 < len(l) && l[i+1] == "2" && l[i+2] == ">>>"
			})
			p.typeLine("exit()")
			p.waitPromptAfter(">>> exit()")
			assert.Equal(t, 0, p.status(), "python3's status after exit()")

			p.clear()
			p.typeLine(v.rac + "python3")
			p.waitScreen("python's prompt", func(l []string) bool { return bottomLine(l) == ">>>" })
			p.keys("C-d")
			p.waitPromptAfter(">>>")
			assert.Equal(t, 0, p.status(), "python3's status after Ctrl-D")
			if v.rac != "" {
				recs := p.recordings(s)
				require.Len(t, recs, 2, "%+v", recs)
				for _, r := range recs {
					assert.Equal(t, []string{"python3"}, r.Argv)
					assert.Equal(t, "passthrough", r.Mode, "the mode of rac run -- python3: %+v", r)
					assert.Equal(t, "exited", r.Status, "%+v", r)
				}
			}
			p.checkStty("python3")
		})
	}
}

// 4. A nested bash shows its own prompt, runs a command and exits.
func tmuxNestedShell(t *testing.T, s *tmuxSuite) {
	screens := map[string][]string{}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, t.TempDir())
			p.clear()
			p.typeLine("PS1='inner$ ' " + v.rac + "bash --norc")
			p.waitScreen("the inner prompt", func(l []string) bool { return bottomLine(l) == "inner$" })
			p.typeLine("echo hi")
			p.waitScreen("hi", func(l []string) bool {
				i := slices.Index(l, "inner$ echo hi")
				return i >= 0 && i+2 < len(l) && l[i+1] == "hi" && l[i+2] == "inner$"
			})
			p.typeLine("exit")
			lines := p.waitPromptAfter("inner$ exit")
			assert.Equal(t, 0, p.status(), "the inner shell's status")
			screens[v.name] = lines
			if v.rac != "" {
				assert.Equal(t, "passthrough", p.recording(s, "bash", "--norc").Mode)
			}
			p.checkStty("a nested bash")
		})
	}
	if len(screens) == 2 {
		assert.Equal(t, normalScreen(screens["plain"]), normalScreen(screens["rac"]), "the nested shell's screen with rac differs from without")
	}
}

// 5. The command sees the pane's size, before and after the pane is
// resized, and when it is resized while the command runs.
func tmuxTerminalSize(t *testing.T, s *tmuxSuite) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	size := func(w, h int) string { return fmt.Sprintf("os.terminal_size(columns=%d, lines=%d)", w, h) }
	const pySize = `python3 -c 'import os; print(os.get_terminal_size())'`
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, t.TempDir())
			check := func(w, h int) {
				t.Helper()
				status, out := p.run(v.rac+pySize, false)
				assert.Equal(t, 0, status)
				assert.Equal(t, []string{size(w, h)}, withoutRefLines(t, out), "python3 in a %dx%d pane", w, h)
				status, out = p.run(v.rac+"tput cols", false)
				assert.Equal(t, 0, status)
				assert.Equal(t, []string{strconv.Itoa(w)}, withoutRefLines(t, out), "tput cols in a %dx%d pane", w, h)
				status, out = p.run(v.rac+"tput lines", false)
				assert.Equal(t, 0, status)
				assert.Equal(t, []string{strconv.Itoa(h)}, withoutRefLines(t, out), "tput lines in a %dx%d pane", w, h)
			}
			check(tmuxWidth, tmuxHeight)
			p.resize(100, 30)
			check(100, 30)

			// resized while the command waits for a line: it must see the
			// new size when it asks after that (SIGWINCH passed on)
			p.clear()
			p.typeLine(v.rac + `python3 -c 'import os, sys; sys.stdin.readline(); print(os.get_terminal_size())'`)
			p.waitProcs("python3 waiting", func(ps []tmuxProc) bool {
				for _, pr := range ps {
					if strings.HasPrefix(pr.comm, "python") {
						return true
					}
				}
				return false
			})
			p.resize(90, 25)
			p.typeLine("")
			lines := p.waitPromptAfter("sys.stdin.readline()")
			assert.Contains(t, lines, size(90, 25), "python3 resized while running")
			assert.Equal(t, 0, p.status())
			p.checkStty("a resize")
		})
	}
}

// 6. Ctrl-C ends the command and the shell sees 130, as without rac.
func tmuxCtrlC(t *testing.T, s *tmuxSuite) {
	// sleep alone runs in pty mode under rac; with its output into a pipe,
	// in pipe mode, where the "^C" on the screen is the terminal's own echo.
	for _, form := range []struct{ name, tail string }{{"pty", ""}, {"pipe", " | cat"}} {
		for _, v := range tmuxVariants {
			t.Run(form.name+"/"+v.name, func(t *testing.T) {
				p := s.pane(t, t.TempDir())
				p.clear()
				p.typeLine(v.rac + "sleep 100" + form.tail)
				p.waitProcs("sleep running", running("sleep"))
				p.keys("C-c")
				screen := p.waitPromptAfter("sleep 100")
				assert.Equal(t, 130, p.status(), "$? after Ctrl-C")
				p.waitProcs("no process left", func(ps []tmuxProc) bool { return len(ps) == 0 })
				// As without rac: "^C" on a line of its own, the prompt right
				// under what rac printed (no "^Crac: ref", no blank line).
				between := linesAfter(screen, "sleep 100", tmuxBarePrompt)
				want := []string{"^C"}
				if v.rac != "" {
					want = append(want, "rac: ref tmux/0001-sleep-100")
				}
				assert.Equal(t, want, between, "%q", screen)
				if v.rac != "" {
					rec := p.recording(s, "sleep", "100")
					assert.Equal(t, "signaled", rec.Status, "%+v", rec)
					if assert.NotNil(t, rec.Signal, "%+v", rec) {
						assert.Equal(t, "SIGINT", *rec.Signal)
					}
				}
				p.checkStty("Ctrl-C")
			})
		}
	}
}

// linesAfter is what the screen shows between the last line holding text
// and the first line after it that is stop.
func linesAfter(lines []string, text, stop string) []string {
	i := lastIndex(lines, func(s string) bool { return strings.Contains(s, text) })
	if i < 0 {
		return nil
	}
	rest := lines[i+1:]
	if j := slices.Index(rest, stop); j >= 0 {
		return rest[:j]
	}
	return rest
}

// 7. Ctrl-Z stops a command that reads the terminal and fg resumes it,
// with the terminal back; a command started in the background and
// brought to the foreground reads the terminal too.
func tmuxCtrlZ(t *testing.T, s *tmuxSuite) {
	const (
		readCmd = `sh -c 'read x; echo got $x'`
		bgCmd   = `sh -c 'sleep 1; read x; echo got $x'`
	)
	jobLine := regexp.MustCompile(`^\[1\] \d+$`)
	screens := map[string][]string{}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, t.TempDir())
			p.clear()
			p.typeLine(v.rac + readCmd)
			p.waitProcs("sh reading", running("sh"))
			p.keys("C-z")
			lines := p.waitScreen("the shell's Stopped line and prompt", func(l []string) bool {
				i := lastIndex(l, func(s string) bool { return strings.Contains(s, "Stopped") })
				return i >= 0 && slices.Index(l[i+1:], tmuxBarePrompt) >= 0
			})
			// the terminal's echo of Ctrl-Z is shown before the job stops
			if i := lastIndex(lines, func(s string) bool { return strings.Contains(s, "Stopped") }); assert.Positive(t, i) {
				assert.Equal(t, "^Z", lines[i-1], "the line above the shell's Stopped line (the ^Z echo must be written out before the job stops); the screen:\n%s", strings.Join(lines, "\n"))
			}
			p.checkStty("Ctrl-Z")
			p.typeLine("fg")
			p.waitProcs("sh running again", running("sh"))
			p.typeLine("word1")
			p.waitScreen("got word1", func(l []string) bool { return slices.Index(l, "got word1") >= 0 })
			lines = p.waitPromptAfter("got word1")
			assert.Equal(t, 0, p.status(), "status after fg")
			screens[v.name] = lines
			p.checkStty("Ctrl-Z and fg")

			p.clear()
			p.typeLine(v.rac + bgCmd + " &")
			p.waitScreen("the job's number", func(l []string) bool {
				return lastIndex(l, jobLine.MatchString) >= 0
			})
			p.typeLine("fg")
			p.waitScreen("fg's line", func(l []string) bool { return bottomLine(l) == v.rac+bgCmd })
			p.typeLine("word2")
			p.waitScreen("got word2", func(l []string) bool { return slices.Index(l, "got word2") >= 0 })
			p.waitPromptAfter("got word2")
			assert.Equal(t, 0, p.status(), "status after & and fg")
			p.checkStty("& and fg")
		})
	}
	if len(screens) == 2 {
		assert.Equal(t, normalScreen(screens["plain"]), normalScreen(screens["rac"]), "the screen of Ctrl-Z and fg with rac differs from without")
	}
}

// 9. git commit opens $EDITOR on the terminal (passthrough): no "not a
// terminal" warning, the commit is made, the recording is metadata only.
// The editor warns as vim does when its stdout or stdin is no terminal;
// --mode pipe shows that the check sees it.
func tmuxGitCommit(t *testing.T, s *tmuxSuite) {
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			repo := tmuxRepo(t, s, 3)
			p := s.pane(t, repo)
			editor := filepath.Join(p.files, "editor.sh")
			require.NoError(t, os.WriteFile(editor, []byte(`#!/bin/sh
[ -t 1 ] || echo "Vim: Warning: Output is not to a terminal"
[ -t 0 ] || echo "Vim: Warning: Input is not from a terminal"
printf 'commit from the editor\n' > "$1"
`), 0o755))
			p.clear()
			status, out := p.run("echo more >> file.txt; EDITOR="+shellQuote(editor)+" "+v.rac+"git commit -a", false)
			assert.Equal(t, 0, status, "git commit: %q", out)
			joined := strings.Join(p.screen(), "\n")
			assert.NotContains(t, joined, "not to a terminal")
			assert.NotContains(t, joined, "not from a terminal")
			assert.Equal(t, "commit from the editor\n", tmuxGit(t, s, repo, "", "log", "-1", "--format=%s"))
			p.checkStty("git commit")
			if v.rac == "" {
				return
			}
			rec := p.recording(s, "git", "commit", "-a")
			assert.Equal(t, "passthrough", rec.Mode, "%+v", rec)
			assert.Zero(t, rec.StdoutBytes+rec.StderrBytes+rec.Combined+rec.KeptBytes, "%+v", rec)
			readOut, readErr := filepath.Join(p.files, "read.out"), filepath.Join(p.files, "read.err")
			status, _ = p.run("rac out read last > "+shellQuote(readOut)+" 2> "+shellQuote(readErr), false)
			got, err := os.ReadFile(readOut)
			require.NoError(t, err)
			note, err := os.ReadFile(readErr)
			require.NoError(t, err)
			assert.Empty(t, string(got), "rac out read last of a passthrough run")
			assert.Contains(t, string(note), "metadata only", "rac out read last (status %d)", status)

			// the control: through pipes the editor does warn
			p.clear()
			status, out = p.run("echo again >> file.txt; EDITOR="+shellQuote(editor)+" rac run --mode pipe -- git commit -a", false)
			assert.Equal(t, 0, status, "%q", out)
			assert.Contains(t, strings.Join(out, "\n"), "Output is not to a terminal")
			p.checkStty("git commit --mode pipe")
		})
	}
}

// 10. Output written alternately to stdout and stderr keeps its order on
// the screen and in a 2>&1 file, 20 runs of 20.
func tmuxOrder(t *testing.T, s *tmuxSuite) {
	const (
		runs  = 20
		order = `sh -c 'for i in 1 2 3 4 5 6; do echo out$i; echo err$i >&2; done'`
	)
	var want []string
	for i := 1; i <= 6; i++ {
		want = append(want, fmt.Sprintf("out%d", i), fmt.Sprintf("err%d", i))
	}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, t.TempDir())
			status, out := p.run(fmt.Sprintf(`for r in $(seq %d); do echo "== run $r"; %s%s; done`, runs, v.rac, order), false)
			assert.Equal(t, 0, status)
			runsSeen := map[int][]string{}
			cur := 0
			for _, l := range out {
				if n, ok := strings.CutPrefix(l, "== run "); ok {
					cur, _ = strconv.Atoi(n)
					continue
				}
				runsSeen[cur] = append(runsSeen[cur], l)
			}
			good := 0
			for r := 1; r <= runs; r++ {
				if got := withoutRefLines(t, runsSeen[r]); assert.Equal(t, want, got, "screen, run %d", r) {
					good++
				}
			}
			assert.Equal(t, runs, good, "runs in order on the screen")

			status, _ = p.run(fmt.Sprintf(`for r in $(seq %d); do %s%s > o$r.txt 2>&1; done`, runs, v.rac, order), false)
			assert.Equal(t, 0, status)
			good = 0
			dir := p.display("#{pane_current_path}")
			for r := 1; r <= runs; r++ {
				b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("o%d.txt", r)))
				require.NoError(t, err)
				if got := withoutRefLines(t, splitLines(string(b))); assert.Equal(t, want, got, "2>&1 file, run %d", r) {
					good++
				}
			}
			assert.Equal(t, runs, good, "runs in order in the 2>&1 file")
			if v.rac != "" {
				recs := p.recordings(s)
				require.Len(t, recs, 2*runs)
				for _, r := range recs[:runs] {
					assert.Equal(t, "pty", r.Mode, "on the terminal: %+v", r)
					assert.Equal(t, want, p.read(s, r.Ref), "rac out read %s", r.Ref)
				}
				for _, r := range recs[runs:] {
					assert.Equal(t, "combined", r.Mode, "into one file: %+v", r)
				}
			}
			p.checkStty("the order runs")
		})
	}
}

// 11. An agent-marked command in the same terminal gets pipes (what an
// agent must read is plain output); without the marker, a terminal.
func tmuxAgent(t *testing.T, s *tmuxSuite) {
	const isTTY = `sh -c 'test -t 1 && echo tty || echo notty'`
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, t.TempDir())
			wantAgent := "tty"
			if v.rac != "" {
				wantAgent = "notty"
			}
			status, out := p.run("CLAUDECODE=1 "+v.rac+isTTY+" agent", false)
			assert.Equal(t, 0, status)
			assert.Equal(t, []string{wantAgent}, withoutRefLines(t, out), "with CLAUDECODE=1")
			status, out = p.run(v.rac+isTTY+" person", false)
			assert.Equal(t, 0, status)
			assert.Equal(t, []string{"tty"}, withoutRefLines(t, out), "without a marker")
			if v.rac != "" {
				script := "test -t 1 && echo tty || echo notty"
				agent := p.recording(s, "sh", "-c", script, "agent")
				assert.Contains(t, []string{"pipes", "combined"}, agent.Mode, "the agent's run: %+v", agent)
				person := p.recording(s, "sh", "-c", script, "person")
				assert.Equal(t, "pty", person.Mode, "the person's run: %+v", person)
			}
			p.checkStty("the agent runs")
		})
	}
}

// 12. A line typed while a command runs that does not read it is run by
// the shell after the command, as without rac: a person types the next
// command while git runs. In bash, zsh and fish, with git status, git log
// (its pager quit with q, the next line typed right after the q), git
// clone --progress and a progress bar (typeAhead in shell_tmux_test.go;
// TestShellTmux checks the shell-init functions the same way).
func tmuxTypeAhead(t *testing.T, s *tmuxSuite) {
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("less is not installed")
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		t.Run(shell, func(t *testing.T) {
			if _, err := exec.LookPath(shell); err != nil {
				t.Skipf("%s is not installed (apt-get install -y zsh fish)", shell)
			}
			for _, v := range []struct{ name, git, bar string }{
				{"plain", "command git", ""},
				{"rac", "rac run -- git", "rac run -- "},
			} {
				t.Run(v.name, func(t *testing.T) { typeAhead(t, s, shell, v.git, v.bar) })
			}
		})
	}
}

// 13. Ctrl-Z in git log's pager, then fg: less draws its page again at
// once, without a key, and the screen right after fg is the one without
// rac.
func tmuxPagerCtrlZ(t *testing.T, s *tmuxSuite) {
	if _, err := exec.LookPath("less"); err != nil {
		t.Skip("less is not installed")
	}
	repo := tmuxRepo(t, s, 300)
	pager := func(l []string) bool {
		return len(l) == tmuxHeight && l[tmuxHeight-1] == ":" && strings.Contains(l[0], "(HEAD -> main)")
	}
	screens := map[string]string{}
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, repo)
			p.clear()
			p.typeLine(v.rac + "git log")
			p.waitScreen("git log's pager", pager)
			// less acts on a Ctrl-Z at once only while it waits for a key:
			// one that comes while it still works is left until the next
			// key (so it would not stop, nor draw its page after fg)
			p.waitProcs("less waiting for a key", blockedInRead("less", "pager"))
			p.keys("C-z")
			// not the prompt: less, stopping, clears its bottom line, which
			// can be the line bash has just drawn the prompt on (with rac or
			// without); fg is read all the same
			p.waitScreen("the shell's Stopped line", func(l []string) bool {
				return lastIndex(l, func(s string) bool { return strings.Contains(s, "Stopped") }) >= 0
			})
			p.waitProcs("git and less stopped", stopped("git", "less", "pager", "rac"))
			p.typeLine("fg")
			// no key is pressed: the page comes back by itself
			p.waitScreen("the pager's page again after fg", func(l []string) bool {
				return pager(l) && lastIndex(l, func(s string) bool { return strings.Contains(s, "Stopped") }) < 0
			})
			screens[v.name] = p.tmux("capture-pane", "-p", "-e", "-t", "rac")
			p.keys("G")
			p.waitScreen("the end of the log", func(l []string) bool { return bottomLine(l) == "(END)" })
			p.keys("q")
			p.waitScreen("the prompt after q", func(l []string) bool { return bottomLine(l) == tmuxBarePrompt })
			assert.Equal(t, 0, p.status(), "git log's status after Ctrl-Z, fg and q")
			p.checkStty("Ctrl-Z and fg in the pager")
		})
	}
	if len(screens) == 2 {
		assert.Equal(t, screens["plain"], screens["rac"], "the pager's screen right after fg (capture-pane -e) with rac differs from without")
	}
}

// 15. With stty tostop, a job sent to the background with bg stops when
// it writes to the terminal, and fg shows what it wrote. With rac the
// command's write goes to its pty: rac's write of it to the terminal is
// what stops, rac alone (the command may have ended meanwhile).
func tmuxTostop(t *testing.T, s *tmuxSuite) {
	for _, v := range tmuxVariants {
		t.Run(v.name, func(t *testing.T) {
			dir := t.TempDir()
			p := s.pane(t, dir)
			p.clear()
			// the command waits in a FIFO's open, in the shell itself: one
			// that forked (sleep) could be stopped between vfork and exec,
			// and the shell waiting on it would never stop (with rac or
			// without)
			fifo := filepath.Join(dir, "go")
			require.NoError(t, unix.Mkfifo(fifo, 0o600))
			p.typeLine("stty tostop")
			p.typeLine(v.rac + `sh -c 'read x < go; echo after""-tostop'`)
			p.waitProcs("sh waiting", blockedInOpen("sh"))
			p.keys("C-z")
			p.waitProcs("the job stopped", stopped("sh", "rac"))
			p.typeLine("bg")
			p.waitProcs("the job running in the background", running("sh"))
			require.NoError(t, os.WriteFile(fifo, []byte("go\n"), 0o600))
			writer := "sh"
			if v.rac != "" {
				writer = "rac"
			}
			p.waitProcs("the job stopped by its output", stopped(writer))
			p.typeLine("")
			p.waitScreen("the shell's second Stopped line", func(l []string) bool {
				n := 0
				for _, s := range l {
					if strings.Contains(s, "Stopped") {
						n++
					}
				}
				return n == 2
			})
			p.typeLine("fg")
			p.waitPromptAfter("after-tostop")
			assert.Equal(t, 0, p.status(), "the job's status after fg")
			p.typeLine("stty -tostop")
			p.checkStty("tostop")
		})
	}
}

// 14. tig (ncurses: it sets its modes on fd 1, reads keys from fd 0)
// draws the same screen without rac, through rac run (passthrough: tig is
// a full-screen program) and forced into pty mode (rac copies the modes
// tig sets on the pty to the terminal), and moves on a key.
func tmuxTig(t *testing.T, s *tmuxSuite) {
	if _, err := exec.LookPath("tig"); err != nil {
		t.Skip("tig is not installed (apt-get install -y tig)")
	}
	repo := tmuxRepo(t, s, 300)
	atCommit := func(n int) func([]string) bool {
		return func(l []string) bool {
			return len(l) > 2 && strings.Contains(l[len(l)-1], fmt.Sprintf("- commit %d of 300", n))
		}
	}
	screens := map[string]string{}
	for _, v := range []struct{ name, rac, mode string }{
		{"plain", "", ""}, {"rac", "rac run -- ", "passthrough"}, {"pty", "rac run --mode pty -- ", "pty"},
	} {
		t.Run(v.name, func(t *testing.T) {
			p := s.pane(t, repo)
			p.clear()
			p.typeLine(v.rac + "tig")
			p.waitScreen("tig's main view", atCommit(1))
			screens[v.name] = p.tmux("capture-pane", "-p", "-e", "-t", "rac")
			p.keys("j")
			p.waitScreen("tig on the second commit", atCommit(2))
			p.keys("q")
			p.waitScreen("the prompt after q", func(l []string) bool { return bottomLine(l) == tmuxBarePrompt })
			assert.Equal(t, 0, p.status(), "tig's status")
			if v.rac != "" {
				assert.Equal(t, v.mode, p.recording(s, "tig").Mode)
			}
			p.checkStty("tig")
		})
	}
	for _, name := range []string{"rac", "pty"} {
		if screens["plain"] != "" && screens[name] != "" {
			assert.Equal(t, screens["plain"], screens[name], "tig's screen (capture-pane -e), %s against without rac", name)
		}
	}
}
