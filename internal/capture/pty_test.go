package capture

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/runspec"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/terminal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestPTYHelper is rac for the terminal tests: run as a child of the test
// (RAC_CAPTURE_HELPER=1), it runs the command after "--" with Run in mode
// RAC_CAPTURE_MODE on its own stdin, stdout and stderr, records it into
// the store RAC_CAPTURE_STORE (session s), prints the outcome on stderr and
// exits with the command's status, as rac run does.
func TestPTYHelper(t *testing.T) {
	if os.Getenv("RAC_CAPTURE_HELPER") != "1" {
		return
	}
	var argv []string
	for i, a := range os.Args {
		if a == "--" {
			argv = os.Args[i+1:]
			break
		}
	}
	mode := runspec.Mode(os.Getenv("RAC_CAPTURE_MODE"))
	var rec *record.Writer
	if dir := os.Getenv("RAC_CAPTURE_STORE"); dir != "" {
		st, err := store.CreateStore(dir)
		require.NoError(t, err)
		sess, err := st.Session("s", true)
		require.NoError(t, err)
		streams, rmode := []string{record.Combined}, record.ModePTY
		if mode == runspec.ModePassthrough {
			streams, rmode = nil, record.ModePassthrough
		}
		rec, err = record.Create(record.CreateOptions{Session: sess, Argv: argv, Mode: rmode, Streams: streams})
		require.NoError(t, err)
	}
	out := Run(RunOptions{
		Argv: argv, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Mode: mode, Rec: rec, DrainTimeout: time.Second,
	})
	if rec != nil {
		require.NoError(t, rec.Finish(record.Footer{Status: out.Status, Received: out.Received, Notes: out.Notes}))
	}
	if out.OpenLine(true) {
		fmt.Fprint(os.Stderr, "\n")
	}
	fmt.Fprintf(os.Stderr, "helper: status=%s code=%d signal=%d notes=%q\n", out.Status, out.ExitCode, out.Signal, out.Notes)
	code := out.ExitCode
	if out.Status == record.StatusSignaled {
		code = 128 + int(out.Signal)
	}
	os.Exit(code)
}

// term is the outer terminal the helper runs on.
type term struct {
	ptmx *os.File
	tty  *os.File // kept open: the test reads its modes
	out  syncBuf
	done chan struct{}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newTerm(t *testing.T, rows, cols uint16) *term {
	t.Helper()
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: rows, Cols: cols}))
	tm := &term{ptmx: ptmx, tty: tty, done: make(chan struct{})}
	go func() { _, _ = io.Copy(&tm.out, ptmx); close(tm.done) }()
	t.Cleanup(func() { ptmx.Close(); tty.Close(); <-tm.done })
	return tm
}

// helperCmd is the helper running argv in mode, recording into storeDir.
func helperCmd(mode runspec.Mode, storeDir string, argv ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestPTYHelper$", "--"}, argv...)...)
	cmd.Env = append(os.Environ(), "RAC_CAPTURE_HELPER=1", "RAC_CAPTURE_MODE="+string(mode),
		"RAC_CAPTURE_STORE="+storeDir, "GORACE=atexit_sleep_ms=0")
	return cmd
}

// start runs the helper as the session leader and foreground job of the
// terminal, as pty.Start does; stdin, stdout or stderr already set stay.
func (tm *term) start(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if cmd.Stdin == nil {
		cmd.Stdin = tm.tty
	}
	if cmd.Stdout == nil {
		cmd.Stdout = tm.tty
	}
	if cmd.Stderr == nil {
		cmd.Stderr = tm.tty
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty(cmd)}
	require.NoError(t, cmd.Start())
}

func ctty(cmd *exec.Cmd) int {
	for i, f := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		if terminal.Is(f.(*os.File)) {
			return i
		}
	}
	return 0
}

// waitFor polls the terminal's output for a match of re (bounded, so a
// broken build fails instead of hanging) and returns the first submatch.
func (tm *term) waitFor(t *testing.T, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m := rx.FindStringSubmatch(tm.out.String()); m != nil {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q on the terminal; got %q", re, tm.out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (tm *term) modes(t *testing.T) *unix.Termios {
	t.Helper()
	m, err := terminal.GetTermios(int(tm.tty.Fd()))
	require.NoError(t, err)
	return m
}

// waitExit waits for the helper (bounded: a hung one is killed and fails
// the test) and returns its exit status.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	hung := time.AfterFunc(20*time.Second, func() { _ = cmd.Process.Kill() })
	err := cmd.Wait()
	require.True(t, hung.Stop(), "the helper hung")
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	return ee.ExitCode()
}

func TestPTYTerminalSizeAndModes(t *testing.T) {
	tm := newTerm(t, 33, 101)
	before := tm.modes(t)
	cmd := helperCmd(runspec.ModePTY, "", "sh", "-c",
		`test -t 0 && test -t 1 && test -t 2 && echo all-tty; echo size=$(stty size); stty -a | grep -q -- '-icanon' || echo cooked; read line; echo line=$line`)
	tm.start(t, cmd)
	tm.waitFor(t, `size=`)
	during := tm.modes(t)
	assert.Equal(t, before, during, "rac's terminal keeps its modes while the command runs: the command reads it itself")
	_, err := tm.ptmx.Write([]byte("typed\r"))
	require.NoError(t, err)
	require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
	tm.waitFor(t, `helper: status=exited`)
	out := tm.out.String()
	assert.Contains(t, out, "all-tty")
	assert.Contains(t, out, "size=33 101")
	assert.Contains(t, out, "cooked", "the command's terminal has rac's terminal's modes")
	assert.Contains(t, out, "line=typed")
	assert.Equal(t, before, tm.modes(t), "modes restored")
}

// Keys typed while the command runs and does not read them stay in the
// terminal's input queue, for the shell after it (type-ahead): the
// command's stdin is the terminal itself, not the pty.
func TestPTYTypeAheadStaysQueued(t *testing.T) {
	tm := newTerm(t, 24, 80)
	dir := t.TempDir()
	cmd := helperCmd(runspec.ModePTY, "", "sh", "-c", `echo ready; until [ -e "$1" ]; do sleep 0.02; done; echo done`, "sh", filepath.Join(dir, "go"))
	tm.start(t, cmd)
	tm.waitFor(t, `ready`)
	_, err := tm.ptmx.Write([]byte("echo typed-ahead\r"))
	require.NoError(t, err)
	tm.waitFor(t, `echo typed-ahead`) // the terminal's own echo
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go"), nil, 0o600))
	require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
	tm.waitFor(t, `helper: status=exited`)
	n, err := unix.IoctlGetInt(int(tm.tty.Fd()), fionread)
	require.NoError(t, err)
	require.Equal(t, len("echo typed-ahead\n"), n, "the line typed ahead is still in the terminal's queue")
	buf := make([]byte, 64)
	k, err := tm.tty.Read(buf)
	require.NoError(t, err)
	assert.Equal(t, "echo typed-ahead\n", string(buf[:k]))
}

// A program that sets its modes on its output (ncurses does, on fd 1)
// sets them on the pty while its keys come from the terminal: rac copies
// them to the terminal before the output that follows, and, while they
// are non-canonical, also when the program sets them back without
// writing anything after (as less does when it quits).
func TestPTYFollowsModesOfOutput(t *testing.T) {
	tm := newTerm(t, 24, 80)
	before := tm.modes(t)
	done := filepath.Join(t.TempDir(), "done")
	cmd := helperCmd(runspec.ModePTY, "", "sh", "-c",
		`stty -icanon -echo min 1 <&2; echo raw; x=$(dd bs=1 count=1 2>/dev/null); echo "key=$x"; stty icanon echo <&2; until [ -e "$1" ]; do sleep 0.02; done`, "sh", done)
	tm.start(t, cmd)
	tm.waitFor(t, `raw`)
	during := tm.modes(t)
	assert.Zero(t, during.Lflag&unix.ICANON, "the pty's -icanon is the terminal's")
	assert.Zero(t, during.Lflag&unix.ECHO, "the pty's -echo is the terminal's")
	_, err := tm.ptmx.Write([]byte("k"))
	require.NoError(t, err)
	tm.waitFor(t, `key=k`)
	deadline := time.Now().Add(20 * time.Second)
	for tm.modes(t).Lflag&unix.ICANON == 0 {
		require.True(t, time.Now().Before(deadline), "the modes set back on the pty while the command runs on never reached the terminal")
		time.Sleep(5 * time.Millisecond)
	}
	assert.Equal(t, before, tm.modes(t), "the modes the command set back on the pty are the terminal's again")
	require.NoError(t, os.WriteFile(done, nil, 0o600))
	require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
	tm.waitFor(t, `helper: status=exited`)
	assert.NotContains(t, tm.out.String(), "kkey=k", "the key was not echoed")
	assert.Equal(t, before, tm.modes(t))
}

// Under script(1) with its stdin at end of file, the command reads its
// stdin (script's terminal) itself, as without rac: head -c 1 gets the
// end of file, and no key (no NUL) is made up for it.
func TestPTYStdinEndUnderScript(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("script(1) is not installed")
	}
	helper := helperCmd(runspec.ModePTY, "", "head", "-c", "1")
	cmd := exec.Command("script", "-qec", "'"+strings.Join(helper.Args, "' '")+"'", "/dev/null")
	cmd.Env = helper.Env
	var out syncBuf
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	assert.Equal(t, 0, waitExit(t, cmd), out.String())
	assert.Contains(t, out.String(), "helper: status=exited code=0")
	assert.NotContains(t, out.String(), "\x00")
	assert.NotContains(t, out.String(), "^@", "no NUL reached the command")
}

// A redirected stream is the command's own; keys still reach /dev/tty.
func TestPTYRedirectedStreams(t *testing.T) {
	tm := newTerm(t, 24, 80)
	dir := t.TempDir()
	errFile, err := os.Create(filepath.Join(dir, "err"))
	require.NoError(t, err)
	defer errFile.Close()
	inFile, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer inFile.Close()
	cmd := helperCmd(runspec.ModePTY, "", "sh", "-c",
		`test -t 0 || echo stdin-redirected; test -t 2 || echo stderr-redirected; echo to-err >&2; echo prompt; read x </dev/tty; echo got=$x`)
	cmd.Stdin, cmd.Stderr = inFile, errFile
	tm.start(t, cmd)
	tm.waitFor(t, `prompt`)
	_, err = tm.ptmx.Write([]byte("hello\r"))
	require.NoError(t, err)
	require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
	tm.waitFor(t, `got=hello`)
	out := tm.out.String()
	assert.Contains(t, out, "stdin-redirected")
	assert.Contains(t, out, "stderr-redirected")
	assert.NotContains(t, out, "to-err")
	b, err := os.ReadFile(errFile.Name())
	require.NoError(t, err)
	assert.Contains(t, string(b), "to-err")
}

// A resize reaches the command from the terminal at the moment it reaches
// rac, so it may ask the pty's size (here through its stderr) before rac
// has resized the pty: rac signals it again once it has.
func TestPTYResize(t *testing.T) {
	tm := newTerm(t, 24, 80)
	cmd := helperCmd(runspec.ModePTY, "", "sh", "-c",
		`trap 'echo winch=$(stty size <&2)' WINCH; echo ready; while :; do sleep 0.02; done`)
	tm.start(t, cmd)
	tm.waitFor(t, `ready`)
	require.NoError(t, pty.Setsize(tm.ptmx, &pty.Winsize{Rows: 40, Cols: 120}))
	tm.waitFor(t, `winch=40 120`)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 128+int(syscall.SIGTERM), waitExit(t, cmd), tm.out.String())
}

// A signal sent to rac reaches the command once: rac relays it to the
// command's own session, which nothing else reaches.
func TestPTYSignalsReachTheCommandOnce(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1} {
		t.Run(unix.SignalName(sig), func(t *testing.T) {
			tm := newTerm(t, 24, 80)
			name := strings.TrimPrefix(unix.SignalName(sig), "SIG")
			cmd := helperCmd(runspec.ModePTY, "", "sh", "-c",
				`n=0; trap 'n=$((n+1)); echo got-$n' `+name+`; echo ready; while [ $n -lt 1 ]; do sleep 0.02; done; sleep 0.3; echo total=$n; exit 7`)
			tm.start(t, cmd)
			tm.waitFor(t, `ready`)
			require.NoError(t, cmd.Process.Signal(sig))
			assert.Equal(t, 7, waitExit(t, cmd), tm.out.String())
			tm.waitFor(t, `total=1`)
			assert.NotContains(t, tm.out.String(), "got-2")
		})
	}
}

// rac killed by SIGKILL: its command dies of the parent-death signal. A
// process the command started in the background is left running, as
// without rac when the command is killed (the test ends it).
func TestPTYKillNineLeavesNothing(t *testing.T) {
	for name, script := range map[string]string{
		"with a background child": `sleep 300 & echo pids $$ left $!; sleep 300`,
		"deaf to a hangup":        `trap '' HUP; echo pids $$; exec sleep 300`, // only the parent-death signal ends it
	} {
		t.Run(name, func(t *testing.T) {
			tm := newTerm(t, 24, 80)
			cmd := helperCmd(runspec.ModePTY, "", "sh", "-c", script)
			tm.start(t, cmd)
			m := tm.waitFor(t, `pids (\d+)(?: left (\d+))?\r`)
			if m[2] != "" {
				left, err := strconv.Atoi(m[2])
				require.NoError(t, err)
				t.Cleanup(func() { _ = syscall.Kill(left, syscall.SIGKILL) })
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()
			pid, err := strconv.Atoi(m[1])
			require.NoError(t, err)
			deadline := time.Now().Add(10 * time.Second)
			for alive(pid) {
				require.False(t, time.Now().After(deadline), "the command (%d) still runs", pid)
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// alive: the process exists and is no zombie (no init may reap here).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func state(pid int) byte {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return 0
	}
	return s[i+2]
}

// jobShell starts an interactive bash (job control) on tm and has it run
// the helper in pty mode on sh -c script, from a file at path it sources;
// the shell is killed when the test ends.
func (tm *term) jobShell(t *testing.T, path, script string) {
	t.Helper()
	cmdline := strings.Join(helperCmd(runspec.ModePTY, "", "sh", "-c", script).Args, "' '")
	require.NoError(t, os.WriteFile(path, []byte("export RAC_CAPTURE_HELPER=1 RAC_CAPTURE_MODE=pty GORACE=atexit_sleep_ms=0\n'"+cmdline+"'\n"), 0o600))
	sh := exec.Command("bash", "--norc", "--noprofile", "-i")
	sh.Env = append(os.Environ(), "PS1=$ ")
	tm.start(t, sh)
	t.Cleanup(func() { _ = sh.Process.Kill(); _ = sh.Wait() })
	_, err := tm.ptmx.Write([]byte(". " + path + "\r"))
	require.NoError(t, err)
}

// Ctrl-Z stops the command and rac, so the shell sees a stopped job; fg
// continues both, and the command reads the terminal itself again.
func TestPTYSuspend(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash for job control")
	}
	tm := newTerm(t, 24, 80)
	dir := t.TempDir()
	script := filepath.Join(dir, "job")
	// The command waits for the test in a FIFO's open, in the shell
	// itself: a loop that forked (sleep) could be stopped by the Ctrl-Z
	// between vfork and exec, which leaves the shell waiting on its
	// stopped child in an uninterruptible sleep that never stops it, so
	// the job never stops (with rac or without).
	fifo := filepath.Join(dir, "go")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	tm.jobShell(t, script, `echo rac=$PPID; read y <`+fifo+`; echo cont""inued; read x; echo x=$x`)
	m := tm.waitFor(t, `rac=(\d+)`)
	racPid, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	_, err = tm.ptmx.Write([]byte{0x1a})
	require.NoError(t, err)
	tm.waitFor(t, `Stopped`)
	assert.Equal(t, byte('T'), state(racPid), "rac shows as stopped")
	// readline's modes, not raw: keys send signals, output is processed
	assert.NotZero(t, tm.modes(t).Lflag&unix.ISIG, "the shell has its terminal back")
	assert.NotZero(t, tm.modes(t).Oflag&unix.OPOST, "the shell has its terminal back")

	_, err = tm.ptmx.Write([]byte("fg\r"))
	require.NoError(t, err)
	// the open waits for the command's, which it reaches once continued;
	// a test that fails before lets it go at cleanup
	go func() { _ = os.WriteFile(fifo, []byte("go\n"), 0o600) }()
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_RDONLY|unix.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	tm.waitFor(t, `continued`)
	assert.NotZero(t, tm.modes(t).Lflag&unix.ISIG, "the terminal keeps the shell's modes: rac never makes it raw")
	_, err = tm.ptmx.Write([]byte("after\r"))
	require.NoError(t, err)
	tm.waitFor(t, `x=after`)
	tm.waitFor(t, `helper: status=exited code=0`)
}

// commandState is the state (/proc) of the process whose command line
// holds marker, the command under the helper; 0 when none runs.
func commandState(marker string) byte {
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), marker) || strings.Contains(string(b), "TestPTYHelper") {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		return processState(pid)
	}
	return 0
}

// Every Ctrl-Z's echo reaches the terminal before the shell's "Stopped"
// line (the terminal itself echoes the key and stops the job), twenty
// stops in a row.
func TestPTYSuspendEchoFirst(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash for job control")
	}
	const stops = 20
	tm := newTerm(t, 24, 80)
	tm.jobShell(t, filepath.Join(t.TempDir(), "job"),
		`echo ready; i=0; while [ $i -lt `+strconv.Itoa(stops)+` ]; do read x; echo got=$x; i=$((i+1)); done`)
	tm.waitFor(t, `ready`)
	for i := range stops {
		_, err := tm.ptmx.Write([]byte{0x1a})
		require.NoError(t, err)
		// the i+1st Stopped line, and what the terminal showed before it
		m := tm.waitFor(t, `(?s)^((?:.*?Stopped){`+strconv.Itoa(i)+`}.*?)Stopped`)
		require.Equal(t, i+1, strings.Count(m[1], "^Z"), "stop %d: the echo of every Ctrl-Z comes before its Stopped line; the terminal: %q", i+1, m[1])
		// rac stops only once the command has: when the shell says
		// Stopped, a key typed is the shell's, never the command's (with
		// rac stopping from the same Ctrl-Z as the command, a loaded
		// machine printed Stopped while the command's stop was pending)
		require.Equal(t, byte('T'), commandState("while [ $i -lt "+strconv.Itoa(stops)+" ]"), "stop %d: the command is stopped when the shell says so", i+1)
		_, err = tm.ptmx.Write([]byte("fg\r"))
		require.NoError(t, err)
		// fg prints the job's line once readline has given the terminal
		// its modes back: a word typed before that would be taken in
		// readline's modes (a \r that ends no line), with rac or without
		tm.waitFor(t, `(?s)^(?:.*?'--' 'sh' '-c'){`+strconv.Itoa(2*i+2)+`}`)
		word := "w" + strconv.Itoa(i)
		_, err = tm.ptmx.Write([]byte(word + "\r"))
		require.NoError(t, err)
		tm.waitFor(t, `got=`+word+`\b`)
	}
	tm.waitFor(t, `helper: status=exited code=0`)
}

// The recording holds the command's lines, a full-screen span replaced
// by its marker; the terminal got everything.
func TestPTYRecordingOmitsFullScreen(t *testing.T) {
	tm := newTerm(t, 24, 80)
	dir := filepath.Join(t.TempDir(), "store")
	cmd := helperCmd(runspec.ModePTY, dir, "printf", `before\n\033[?1049hSCREEN\033[?1049lafter\nlast`)
	tm.start(t, cmd)
	require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
	tm.waitFor(t, `helper: status=exited`)
	assert.Contains(t, tm.out.String(), "SCREEN")
	assert.Contains(t, tm.out.String(), "last\r\nhelper:", "rac's line starts on a line of its own")

	st, err := store.CreateStore(dir)
	require.NoError(t, err)
	defer st.Close()
	sess, err := st.Session("s", false)
	require.NoError(t, err)
	defer sess.Close()
	names, err := record.ListNames(sess)
	require.NoError(t, err)
	require.Len(t, names, 1)
	r, err := record.Open(sess, names[0])
	require.NoError(t, err)
	defer r.Close()
	var lines []string
	require.NoError(t, r.Lines(record.LineOptions{}, func(l record.Line) error {
		lines = append(lines, l.Stream+":"+strings.TrimSuffix(string(l.Text), "\r"))
		return nil
	}))
	assert.Equal(t, []string{"combined:before", "combined:" + OmittedMarker(22), "combined:after", "combined:last"}, lines)
	require.NotNil(t, r.Footer)
	assert.Equal(t, int64(len("before\r\n\x1b[?1049hSCREEN\x1b[?1049lafter\r\nlast")), r.Footer.Received[record.Combined].Bytes)
	assert.Contains(t, r.Footer.Notes, "full-screen output omitted from the recording: 22 bytes in 1 span")
}

// Passthrough: the command has rac's own terminal and process group; the
// recording is metadata only.
func TestPassthrough(t *testing.T) {
	tm := newTerm(t, 24, 80)
	dir := filepath.Join(t.TempDir(), "store")
	cmd := helperCmd(runspec.ModePassthrough, dir, "sh", "-c",
		`echo tty=$(tty); echo pgrp=$(cut -d' ' -f5 /proc/$$/stat) rac=$PPID; stty -a | grep -q -- '-icanon' || echo cooked`)
	tm.start(t, cmd)
	require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
	tm.waitFor(t, `helper: status=exited`)
	out := tm.out.String()
	assert.Contains(t, out, "tty="+tm.tty.Name())
	assert.Contains(t, out, "cooked")
	m := regexp.MustCompile(`pgrp=(\d+) rac=(\d+)`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	assert.Equal(t, m[2], m[1], "same process group as rac")

	st, err := store.CreateStore(dir)
	require.NoError(t, err)
	defer st.Close()
	sess, err := st.Session("s", false)
	require.NoError(t, err)
	defer sess.Close()
	names, err := record.ListNames(sess)
	require.NoError(t, err)
	require.Len(t, names, 1)
	r, err := record.Open(sess, names[0])
	require.NoError(t, err)
	defer r.Close()
	assert.True(t, r.MetadataOnly())
	assert.Equal(t, record.ModePassthrough, r.Meta.Mode)
	assert.Equal(t, record.StatusExited, r.Status)
	n := 0
	require.NoError(t, r.Lines(record.LineOptions{}, func(record.Line) error { n++; return nil }))
	assert.Zero(t, n)
}

// Forced with no terminal at all, the output still goes through a pty.
func TestPTYWithoutTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	var tee bytes.Buffer
	out := Run(RunOptions{
		Argv: []string{"sh", "-c", `test -t 1 && test -t 2 && echo both-tty; printf open`}, Stdout: f, Stderr: f,
		Mode: runspec.ModePTY, Tee: func(string) io.Writer { return &tee },
	})
	require.Equal(t, record.StatusExited, out.Status, out.Notes)
	b, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Equal(t, "both-tty\r\nopen", string(b))
	assert.Equal(t, "both-tty\r\nopen", tee.String())
	assert.Equal(t, record.Counts{Bytes: 14, Lines: 2}, out.Received[record.Combined])
	assert.True(t, out.OpenLine(true))
	assert.True(t, out.OpenLine(false), "stderr is on the pty")

	out = Run(RunOptions{Argv: []string{"sh", "-c", "exit 3"}, Stdout: f, Stderr: f, Mode: runspec.ModePTY})
	assert.Equal(t, 3, out.ExitCode)
	out = Run(RunOptions{Argv: []string{"no-such-command-for-rac"}, Stdout: f, Stderr: f, Mode: runspec.ModePTY})
	assert.Equal(t, record.StatusFailedToStart, out.Status)
	assert.Equal(t, 127, out.ExitCode)
	out = Run(RunOptions{Argv: []string{"sleep", "10"}, Stdout: f, Stderr: f, Mode: runspec.ModePTY, Timeout: 50 * time.Millisecond})
	assert.Equal(t, record.StatusTimedOut, out.Status)
	assert.Equal(t, syscall.SIGTERM, out.Signal)
}

// A process the command left behind holding the pty is cut off after the
// drain timeout.
func TestPTYDrainTimeout(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	start := time.Now()
	out := Run(RunOptions{
		Argv:   []string{"sh", "-c", `trap '' HUP; sleep 30 & echo left; echo pid=$!`},
		Stdout: f, Stderr: f, Mode: runspec.ModePTY, DrainTimeout: 200 * time.Millisecond,
	})
	assert.Less(t, time.Since(start), 10*time.Second)
	require.Equal(t, record.StatusExited, out.Status)
	require.Len(t, out.Notes, 1)
	assert.Contains(t, out.Notes[0], "drain timed out after 200ms")
	b, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	assert.Contains(t, string(b), "left\r\n")
	if m := regexp.MustCompile(`pid=(\d+)`).FindSubmatch(b); m != nil {
		pid, _ := strconv.Atoi(string(m[1]))
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// The store gets what the command printed while it still runs: pty mode
// gathers the tty layer's small pieces for the store, but only until the
// pty is quiet, so a command that prints and then waits is recorded up to
// its wait (rac out read shows it) before it goes on.
func TestPTYStoresWhileRunning(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "go")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	f, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	defer f.Close()
	var tee syncBuf
	done := make(chan Outcome, 1)
	go func() {
		done <- Run(RunOptions{
			Argv:   []string{"sh", "-c", `echo early; read x <"$1"; echo "late $x"`, "sh", fifo},
			Stdout: f, Stderr: f, Mode: runspec.ModePTY, Tee: func(string) io.Writer { return &tee },
		})
	}()
	deadline := time.Now().Add(20 * time.Second)
	for tee.String() != "early\r\n" {
		require.True(t, time.Now().Before(deadline), "the store got %q while the command waited", tee.String())
		time.Sleep(5 * time.Millisecond)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = w.WriteString("on\n")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	out := <-done
	require.Equal(t, record.StatusExited, out.Status, out.Notes)
	assert.Equal(t, "early\r\nlate on\r\n", tee.String())
}

// An end of input already in rac's terminal when rac starts (script(1)
// sends one as soon as its own stdin ends: script -qec 'rac run ...'
// </dev/null) reaches the command as its end of input, after the lines
// before it, and never as a NUL keystroke: a terminal made raw hands it
// over as a NUL byte (head -c 1 waited for a line and the recording began
// with a NUL when rac made it raw and forwarded the keys).
func TestPTYEndOfInputBeforeRaw(t *testing.T) {
	for name, c := range map[string]struct {
		typed string
		argv  []string
		want  []string // the command's own lines, in the recording
	}{
		"alone":       {"\x04", []string{"head", "-c", "1"}, nil},
		"after lines": {"one\ntwo\n\x04", []string{"sh", "-c", "cat; echo END"}, []string{"one", "two", "END"}},
		"ends a line": {"abc\x04\x04", []string{"sh", "-c", "cat; echo; echo END"}, []string{"abc", "END"}},
	} {
		t.Run(name, func(t *testing.T) {
			tm := newTerm(t, 24, 80)
			_, err := tm.ptmx.WriteString(c.typed)
			require.NoError(t, err)
			dir := filepath.Join(t.TempDir(), "store")
			cmd := helperCmd(runspec.ModePTY, dir, c.argv...)
			tm.start(t, cmd)
			require.Equal(t, 0, waitExit(t, cmd), tm.out.String())
			tm.waitFor(t, `helper: status=exited`)
			assert.NotContains(t, tm.out.String(), "^@")

			lines := recordedLines(t, dir)
			for _, l := range lines {
				assert.NotContains(t, l, "\x00")
			}
			for _, w := range c.want {
				assert.Contains(t, lines, w)
			}
		})
	}
}

// recordedLines are the lines of the one recording in dir's session s,
// without their carriage returns.
func recordedLines(t *testing.T, dir string) []string {
	t.Helper()
	st, err := store.CreateStore(dir)
	require.NoError(t, err)
	defer st.Close()
	sess, err := st.Session("s", false)
	require.NoError(t, err)
	defer sess.Close()
	names, err := record.ListNames(sess)
	require.NoError(t, err)
	require.Len(t, names, 1)
	r, err := record.Open(sess, names[0])
	require.NoError(t, err)
	defer r.Close()
	var lines []string
	require.NoError(t, r.Lines(record.LineOptions{}, func(l record.Line) error {
		lines = append(lines, strings.TrimSuffix(string(l.Text), "\r"))
		return nil
	}))
	return lines
}
