//go:build linux

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The signal tests run the built rac as a shell runs a job (its own
// process group), with a command that reports each signal it gets on its
// stdout, and check that the command gets each signal exactly once, as
// without rac. RAC_SIGNAL_RUNS=20 repeats each case 20 times (3 by
// default).

// sigcountSrc reports "ready PID", then the name of every signal it gets,
// one a line; it ends when its stdin ends.
const sigcountSrc = `package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	names := map[os.Signal]string{
		syscall.SIGTERM: "TERM", syscall.SIGHUP: "HUP", syscall.SIGINT: "INT", syscall.SIGQUIT: "QUIT",
		syscall.SIGUSR1: "USR1", syscall.SIGUSR2: "USR2", syscall.SIGWINCH: "WINCH", syscall.SIGCONT: "CONT",
	}
	c := make(chan os.Signal, 64)
	for s := range names {
		signal.Notify(c, s)
	}
	fmt.Println("ready", os.Getpid())
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
	for s := range c {
		fmt.Println(names[s])
	}
}
`

var signalBins struct {
	mu            sync.Mutex
	dir           string
	rac, sigcount string
	err           error
}

// TestSignals holds every case, so the binaries are built once, into its
// temporary folder.
func TestSignals(t *testing.T) {
	ensureSignalBins(t)
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("RAC_SIGNAL_RUNS")); err == nil && n > 0 {
		runs = n
	}
	each := func(name string, f func(t *testing.T)) {
		t.Run(name, func(t *testing.T) {
			for range runs {
				f(t)
				if t.Failed() {
					return
				}
			}
		})
	}

	each("term_to_pid", func(t *testing.T) {
		j := startJob(t)
		require.NoError(t, unix.Kill(j.pid(), unix.SIGTERM))
		j.expectOnce(t, "TERM")
	})
	each("term_to_group", func(t *testing.T) {
		j := startJob(t)
		require.NoError(t, unix.Kill(-j.pid(), unix.SIGTERM))
		j.expectOnce(t, "TERM")
	})
	each("term_to_every_pid", func(t *testing.T) {
		// a stated limit (docs/guarantees.md): a sender that pauses longer than
		// run.signal_settle between its kills delivers two. A loaded
		// machine can pause this test between two kill calls for longer
		// than the default 20ms, so the case runs with a settle of a
		// second (RAC_TEST_SCALE stretches it), and holds rac to exactly
		// one TERM whenever the kills took less than half of it
		settle := testScale(time.Second)
		j := startJobEnv(t, []string{"RAC_RUN_SIGNAL_SETTLE=" + settle.String()})
		tree := append([]int{j.pid()}, descendantsOf(j.pid())...)
		require.Contains(t, tree, j.child)
		start := time.Now()
		for _, pid := range tree {
			require.NoError(t, unix.Kill(pid, unix.SIGTERM))
		}
		if took := time.Since(start); took > settle/2 {
			t.Logf("the kills took %v of a %v settle: two TERMs are allowed (the documented limit)", took, settle)
			j.expectAtMost(t, "TERM", 2)
			return
		}
		j.expectOnce(t, "TERM")
	})
	each("usr1_to_pid", func(t *testing.T) {
		j := startJob(t)
		require.NoError(t, unix.Kill(j.pid(), unix.SIGUSR1))
		j.expectOnce(t, "USR1")
	})
	t.Run("term_through_timeout", func(t *testing.T) {
		// timeout(1) signals rac, then its own group (rac's too)
		t.Parallel()
		for range runs {
			j := startJob(t, "timeout", "1")
			j.expectOnce(t, "TERM")
			if t.Failed() {
				return
			}
		}
	})
	each("stop_and_continue_the_group", func(t *testing.T) {
		j := startJob(t)
		require.NoError(t, unix.Kill(-j.pid(), unix.SIGSTOP))
		// rac is stopped with the command, as a shell's job
		var info unix.Siginfo
		require.NoError(t, unix.Waitid(unix.P_PID, j.pid(), &info, unix.WSTOPPED|unix.WNOWAIT, nil))
		waitState(t, j.child, 'T')
		require.NoError(t, unix.Kill(-j.pid(), unix.SIGCONT))
		j.expectOnce(t, "CONT")
	})
	// kill -TSTP (or -TTIN) of rac's pid alone stops the command, as it
	// would without rac, and rac with it by the same signal; SIGCONT to
	// rac resumes both. Ctrl-Z (the group) stops both the same way.
	for _, c := range []struct {
		name  string
		sig   unix.Signal
		group bool
	}{{"tstp_to_pid", unix.SIGTSTP, false}, {"ttin_to_pid", unix.SIGTTIN, false}, {"tstp_to_group", unix.SIGTSTP, true}} {
		each(c.name, func(t *testing.T) {
			j := startJob(t)
			waitCaught(t, j.pid(), c.sig)
			to := j.pid()
			if c.group {
				to = -to
			}
			require.NoError(t, unix.Kill(to, c.sig))
			var ws unix.WaitStatus
			_, err := unix.Wait4(j.pid(), &ws, unix.WUNTRACED, nil)
			require.NoError(t, err)
			require.True(t, ws.Stopped(), "rac stopped")
			require.Equal(t, c.sig, ws.StopSignal(), "rac stopped by the command's signal")
			require.Equal(t, byte('T'), procState(j.child), "the command is stopped")
			require.NoError(t, unix.Kill(to, unix.SIGCONT))
			j.expectOnce(t, "CONT")
		})
	}
	each("kill_the_group", func(t *testing.T) {
		j := startJob(t, "sh", "-c", `sleep 300 & exec "$0"`)
		tree := descendantsOf(j.pid())
		require.Len(t, tree, 3) // the witness, the command, its sleep
		fds := pidfds(t, tree)
		require.NoError(t, unix.Kill(-j.pid(), unix.SIGKILL))
		for i, fd := range fds {
			awaitExit(t, fd, tree[i])
		}
		require.Error(t, j.end(t))
	})
	each("kill_rac_alone", func(t *testing.T) {
		j := startJob(t, "sh", "-c", `exec "$0"`)
		tree := descendantsOf(j.pid())
		require.Len(t, tree, 2) // the witness and the command
		fds := pidfds(t, tree)
		require.NoError(t, unix.Kill(j.pid(), unix.SIGKILL))
		for i, fd := range fds {
			awaitExit(t, fd, tree[i])
		}
		require.Error(t, j.end(t))
	})
	each("kill_rac_alone_sleep", func(t *testing.T) {
		cmd, _ := racCommand(t, "run", "-q", "--", "sh", "-c", "echo $$; exec sleep 300")
		sleep := startPrintingPid(t, cmd)
		fd := pidfds(t, []int{sleep})[0]
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		awaitExit(t, fd, sleep)
	})

	t.Run("left_running_returns_at_once", func(t *testing.T) {
		// a background process holding the pipes does not hold rac past
		// --drain-timeout: rac returns while the sleep still runs (how
		// fast is make bench's business, not a test's)
		cmd, _ := racCommand(t, "run", "-q", "--drain-timeout", "100ms", "--", "sh", "-c", `sleep 300 & echo $!`)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		t.Cleanup(func() {
			if cmd.Process != nil {
				_ = unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
			}
		})
		fd := pidfds(t, []int{startPrintingPid(t, cmd)})[0]
		require.NoError(t, cmd.Wait())
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0)
		require.NoError(t, err)
		require.Equal(t, 0, n, "rac returned only once the process holding its pipes had ended")
	})
	each("left_running_keeps_writing", func(t *testing.T) {
		dir := t.TempDir()
		fifo, done := filepath.Join(dir, "fifo"), filepath.Join(dir, "done")
		require.NoError(t, unix.Mkfifo(fifo, 0o600))
		// the subshell writes only once rac has returned, and records
		// that its write did not kill it
		script := `(read x < "$1"; echo late; echo ok > "$2") & echo done`
		cmd, _ := racCommand(t, "run", "-q", "--drain-timeout", "50ms", "--", "sh", "-c", script, "sh", fifo, done)
		r, w, err := os.Pipe()
		require.NoError(t, err)
		defer r.Close()
		cmd.Stdout = w
		require.NoError(t, cmd.Run())
		require.NoError(t, w.Close())
		require.NoError(t, os.WriteFile(fifo, []byte("go\n"), 0o600))
		require.NoError(t, r.SetReadDeadline(time.Now().Add(testScale(20*time.Second))))
		all, err := readAll(r)
		require.NoError(t, err)
		require.Equal(t, "done\nlate\n", all)
		b, err := os.ReadFile(done)
		require.NoError(t, err)
		require.Equal(t, "ok\n", string(b))
	})
	t.Run("stdout_full", func(t *testing.T) {
		// rac's exit status: 1 when its own stdout failed and the command
		// then died of the SIGPIPE that made its writes fail (or exited 0)
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full")
		}
		defer full.Close()
		cmd, errBuf := racCommand(t, "run", "-q", "--", "seq", "1", "100000")
		cmd.Stdout = full
		err = cmd.Run()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, errBuf.String())
		require.Equal(t, 1, ee.ExitCode(), errBuf.String())
		var warnings []string
		for l := range strings.Lines(errBuf.String()) {
			if strings.Contains(l, "warning") {
				warnings = append(warnings, l)
			}
		}
		require.Equal(t, []string{"rac: warning: stdout: no space left on device\n"}, warnings)
	})
}

// job is rac run -- sigcount, started as a shell starts a job.
type job struct {
	cmd   *exec.Cmd
	out   *bufio.Reader
	outF  *os.File
	in    *os.File
	child int // sigcount's pid
	seen  []string
}

// startJob starts rac run -- [argv...] sigcount in a process group of its
// own (prefix goes before rac: timeout 1) and waits for the command to
// report ready.
func startJob(t *testing.T, argv ...string) *job {
	t.Helper()
	return startJobEnv(t, nil, argv...)
}

// startJobEnv is startJob with more variables in rac's environment.
func startJobEnv(t *testing.T, env []string, argv ...string) *job {
	t.Helper()
	var prefix []string
	if len(argv) > 0 && argv[0] == "timeout" {
		prefix, argv = argv[:2], argv[2:]
	}
	args := append([]string{"run", "-q", "--"}, argv...)
	args = append(args, signalBins.sigcount)
	cmd, _ := racCommand(t, args...)
	cmd.Env = append(cmd.Env, env...)
	if prefix != nil {
		cmd.Args = append(append([]string{}, prefix...), cmd.Args...)
		cmd.Path = lookPathT(t, prefix[0])
		cmd.Args[len(prefix)] = signalBins.rac
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdout, cmd.Stdin = outW, inR
	require.NoError(t, cmd.Start())
	outW.Close()
	inR.Close()
	j := &job{cmd: cmd, out: bufio.NewReader(outR), outF: outR, in: inW}
	t.Cleanup(func() {
		_ = unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
		_ = cmd.Wait()
		outR.Close()
		inW.Close()
	})
	require.NoError(t, outR.SetReadDeadline(time.Now().Add(testScale(30*time.Second))))
	line := j.line(t)
	pid, ok := strings.CutPrefix(line, "ready ")
	require.True(t, ok, line)
	j.child, err = strconv.Atoi(pid)
	require.NoError(t, err)
	waitWitness(t, j.pid())
	return j
}

// waitWitness waits until rac has started its signal witness (a cat child
// kept in its group, started a few milliseconds after the command): only
// then does rac tell a group signal from one sent to it alone.
func waitWitness(t *testing.T, rac int) {
	t.Helper()
	deadline := time.Now().Add(testScale(10 * time.Second))
	for time.Now().Before(deadline) {
		for _, pid := range descendantsOf(rac) {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
			if err == nil && strings.TrimSpace(string(b)) == "cat" {
				return
			}
		}
		runtime.Gosched()
	}
	t.Fatalf("rac %d started no witness", rac)
}

// pid is rac's pid (under timeout, timeout's child).
func (j *job) pid() int {
	if filepath.Base(j.cmd.Path) != "timeout" {
		return j.cmd.Process.Pid
	}
	for _, pid := range descendantsOf(j.cmd.Process.Pid) {
		if pp, _ := parentPid(pid); pp == j.cmd.Process.Pid {
			return pid
		}
	}
	return -1
}

func (j *job) line(t *testing.T) string {
	t.Helper()
	l, err := j.out.ReadString('\n')
	require.NoError(t, err, "read so far: %q", j.seen)
	l = strings.TrimSuffix(l, "\n")
	j.seen = append(j.seen, l)
	return l
}

// expectOnce waits for sig to reach the command, then sends SIGWINCH to
// rac's pid alone: rac decides signals one by one, in order, so once the
// WINCH it passed on has arrived, any second copy of sig would have too.
// The command must have got sig once and the WINCH once.
func (j *job) expectOnce(t *testing.T, sig string) {
	t.Helper()
	j.expectAtMost(t, sig, 1)
}

// expectAtMost is expectOnce that allows up to n copies of sig.
func (j *job) expectAtMost(t *testing.T, sig string, n int) {
	t.Helper()
	for j.line(t) != sig {
	}
	require.NoError(t, unix.Kill(j.pid(), unix.SIGWINCH))
	for j.line(t) != "WINCH" {
	}
	count := 0
	for _, l := range j.seen {
		if l == sig {
			count++
		}
	}
	require.True(t, count >= 1 && count <= n, "%d %s, want 1 to %d; signals the command got: %q", count, sig, n, j.seen)
	err := j.end(t)
	if filepath.Base(j.cmd.Path) == "timeout" {
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee)
		require.Equal(t, 124, ee.ExitCode())
		return
	}
	require.NoError(t, err, "the command ends when its stdin ends, and rac with it")
}

// startPrintingPid starts cmd (rac running a command whose first line of
// output is a pid) with stdout into a pipe, and returns that pid.
func startPrintingPid(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	cmd.Stdout = w
	require.NoError(t, cmd.Start())
	w.Close()
	require.NoError(t, r.SetReadDeadline(time.Now().Add(testScale(30*time.Second))))
	line, err := bufio.NewReader(r).ReadString('\n')
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err)
	return pid
}

// end closes the command's stdin and waits for rac.
func (j *job) end(t *testing.T) error {
	t.Helper()
	j.in.Close()
	_, _ = readAll(j.outF)
	return j.cmd.Wait()
}

// racCommand is the built rac with args, in an environment of its own;
// its stderr goes to the returned buffer.
func racCommand(t *testing.T, args ...string) (*exec.Cmd, stderrFile) {
	t.Helper()
	home := t.TempDir()
	waitGCAtCleanup(t, filepath.Join(home, "store"))
	cmd := exec.Command(signalBins.rac, args...)
	env := []string{
		"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".state"), "RAC_HOME=" + filepath.Join(home, "store"),
		"RAC_SESSION=test", "NO_COLOR=1", "LC_ALL=C", "PATH=" + os.Getenv("PATH"),
		"GORACE=" + goraceNoSleep(os.Getenv("GORACE")),
	}
	cmd.Env = env
	// a file, not a pipe: a process the command leaves running holds
	// rac's stderr, and nothing may wait for its end
	f, err := os.Create(filepath.Join(home, "stderr"))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	cmd.Stderr = f
	return cmd, stderrFile{f}
}

// stderrFile is rac's stderr, read back whole.
type stderrFile struct{ f *os.File }

func (s stderrFile) String() string {
	b, _ := os.ReadFile(s.f.Name())
	return string(b)
}

func lookPathT(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("no %s: %v", name, err)
	}
	return p
}

func readAll(f *os.File) (string, error) {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := f.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return b.String(), err
			}
			return b.String(), nil
		}
	}
}

// descendantsOf lists the processes below pid by their parent pids.
func descendantsOf(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	kids := map[int][]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentPid(p); ok {
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int
	for queue := []int{pid}; len(queue) > 0; queue = queue[1:] {
		out = append(out, kids[queue[0]]...)
		queue = append(queue, kids[queue[0]]...)
	}
	return out
}

func parentPid(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0, false
	}
	pp, err := strconv.Atoi(f[1])
	return pp, err == nil
}

func procState(pid int) byte {
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

// waitState waits for pid to reach state: a stop cannot be awaited by a
// process that is not the parent, so this one looks, briefly, repeatedly.
func waitState(t *testing.T, pid int, state byte) {
	t.Helper()
	deadline := time.Now().Add(testScale(10 * time.Second))
	for procState(pid) != state {
		require.True(t, time.Now().Before(deadline), "pid %d never reached state %c", pid, state)
		time.Sleep(time.Millisecond)
	}
}

func pidfds(t *testing.T, pids []int) []int {
	t.Helper()
	var fds []int
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		require.NoError(t, err)
		t.Cleanup(func() { unix.Close(fd) })
		fds = append(fds, fd)
	}
	return fds
}

// awaitExit waits until the process of the pidfd has ended.
func awaitExit(t *testing.T, fd, pid int) {
	t.Helper()
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(testScale(10*time.Second).Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		require.NoError(t, err)
		require.Equal(t, 1, n, "pid %d still runs", pid)
		return
	}
}

// ensureSignalBins builds rac and sigcount once, into the first caller's
// temporary folder.
func ensureSignalBins(t *testing.T) {
	t.Helper()
	signalBins.mu.Lock()
	defer signalBins.mu.Unlock()
	if signalBins.err == nil && signalBins.rac != "" {
		if _, err := os.Stat(signalBins.rac); err == nil {
			return // built by an earlier test whose folder still exists
		}
	}
	// the folder of the first test that builds goes with that test: each
	// top-level test builds into its own
	signalBins.dir = t.TempDir()
	signalBins.rac = filepath.Join(signalBins.dir, "rac")
	signalBins.sigcount = filepath.Join(signalBins.dir, "sigcount")
	signalBins.err = nil
	src := filepath.Join(signalBins.dir, "sigcount.go")
	if signalBins.err = os.WriteFile(src, []byte(sigcountSrc), 0o600); signalBins.err == nil {
		for _, args := range [][]string{{"-o", signalBins.rac, "."}, {"-o", signalBins.sigcount, src}} {
			cmd := exec.Command("go", append([]string{"build"}, args...)...)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				signalBins.err = errors.New(string(out))
				break
			}
		}
	}
	require.NoError(t, signalBins.err)
}

// waitCaught waits until process pid catches sig (SigCgt in its status):
// pipe mode starts catching the stop signals in the background.
func waitCaught(t *testing.T, pid int, sig unix.Signal) {
	t.Helper()
	deadline := time.Now().Add(testScale(10 * time.Second))
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		require.NoError(t, err)
		for l := range strings.Lines(string(b)) {
			if v, ok := strings.CutPrefix(l, "SigCgt:"); ok {
				mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
				require.NoError(t, err)
				if mask&(1<<(uint(sig)-1)) != 0 {
					return
				}
			}
		}
		require.True(t, time.Now().Before(deadline), "rac %d never caught %v", pid, sig)
		runtime.Gosched()
	}
}
