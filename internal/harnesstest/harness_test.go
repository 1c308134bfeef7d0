package harnesstest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The suite's inputs, set by scripts/harness.sh.
const (
	envOn  = "RAC_HARNESS"     // 1: run the suite
	envBin = "RAC_HARNESS_BIN" // the folder holding claude, codex and gemini (node_modules/.bin)
	envRac = "RAC_HARNESS_RAC" // the rac binary under test
)

// harnessTimeout bounds one harness process: a wedged harness fails its
// test instead of the whole suite.
const harnessTimeout = 90 * time.Second

// need skips the test unless the suite is on and the harness binary
// name is installed; it returns the binary's path.
func need(t *testing.T, name string) string {
	t.Helper()
	if os.Getenv(envOn) != "1" {
		t.Skipf("the real-harness suite runs with %s=1 (make harness)", envOn)
	}
	dir := os.Getenv(envBin)
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); dir == "" || err != nil {
		t.Skipf("SKIP: %s not installed in %s=%q (scripts/harness.sh installs it)", name, envBin, dir)
	}
	if _, err := os.Stat(os.Getenv(envRac)); err != nil {
		t.Skipf("SKIP: %s=%q is not a rac binary", envRac, os.Getenv(envRac))
	}
	return p
}

// World is one test's private machine: a home, a temporary folder, a
// working folder (a git repository with one commit) and a PATH holding
// rac and the harnesses, with nothing of the caller's environment: an
// id of the harness running the suite must not leak in.
type World struct {
	t                   *testing.T
	Root, Home, Tmp, WD string
	// Rac is rac's path on the world's PATH. Codex's login shell
	// (bash -lc) resets PATH from /etc/profile, so its scripted commands
	// name rac by this path.
	Rac string
	Env []string
}

func newWorld(t *testing.T) *World {
	t.Helper()
	root := worldRoot(t)
	w := &World{t: t, Root: root, Home: filepath.Join(root, "home"), Tmp: filepath.Join(root, "tmp"), WD: filepath.Join(root, "work")}
	bin := filepath.Join(root, "bin")
	for _, d := range []string{w.Home, w.Tmp, w.WD, bin} {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
	w.Rac = filepath.Join(bin, "rac")
	require.NoError(t, os.Symlink(os.Getenv(envRac), w.Rac))
	path := bin + ":" + os.Getenv(envBin) + ":/usr/local/bin:/usr/bin:/bin"
	w.Env = []string{
		"PATH=" + path, "HOME=" + w.Home, "TMPDIR=" + w.Tmp, "USER=" + os.Getenv("USER"),
		"LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "SHELL=/bin/bash",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1",
		// the same commit hash in every world: two worlds' git log compare
		"GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z",
	}
	require.NoError(t, os.WriteFile(filepath.Join(w.WD, "notes.txt"), []byte("alpha\nbeta\n"), 0o600))
	w.Run("git", "init", "-q")
	w.Run("git", "add", "notes.txt")
	w.Run("git", "commit", "-q", "-m", "first commit")
	return w
}

// worldRoot is a fresh folder for one test's world, outside /tmp: Codex's
// workspace-write sandbox lets a command write the working folder, /tmp
// and $TMPDIR, so a home under /tmp would be writable there as it is on
// no real machine.
func worldRoot(t *testing.T) string {
	t.Helper()
	base := os.Getenv("RAC_HARNESS_WORLDS")
	if base == "" {
		c, err := os.UserCacheDir()
		require.NoError(t, err)
		base = filepath.Join(c, "rac-harness-worlds")
	}
	require.NoError(t, os.MkdirAll(base, 0o700))
	root, err := os.MkdirTemp(base, strings.ReplaceAll(t.Name(), "/", "_")+"-")
	require.NoError(t, err)
	t.Cleanup(func() {
		if err := removeWorld(root); err != nil {
			t.Errorf("removing the world: %v", err)
		}
	})
	return root
}

// removeWorld removes a world once no gc pass works in it. A rac run in
// the world may have handed its automatic gc to a detached process that
// compresses the recording it just made; removing the world under it
// failed with "directory not empty" when that pass wrote a frame file
// into a folder being removed. Each try first waits for every store's gc
// lock (the pass holds it while it works), so a pass that started
// between a try's wait and its removal is waited for by the next try.
func removeWorld(root string) error {
	var err error
	for range 5 {
		waitGCLocks(root)
		if err = os.RemoveAll(root); err == nil {
			return nil
		}
	}
	return err
}

// waitGCLocks waits, for at most a minute, until it can take the gc lock
// of every store under root (the file gc.lock that internal/gc flocks).
func waitGCLocks(root string) {
	deadline := time.Now().Add(time.Minute)
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "gc.lock" {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = unix.Flock(int(f.Fd()), unix.LOCK_SH) // taken when no pass holds it
		}()
		select {
		case <-done:
		case <-time.After(time.Until(deadline)):
		}
		return nil
	})
}

// Run runs a helper command in the working folder (not under a harness).
func (w *World) Run(name string, args ...string) string {
	w.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = w.WD, w.Env
	out, err := cmd.CombinedOutput()
	require.NoError(w.t, err, "%s %v: %s", name, args, out)
	return string(out)
}

// Harness is one harness process's outcome.
type Harness struct {
	Stdout, Stderr string
	Err            error
	// PID is the harness process's pid (the hooks note sessions under it).
	PID int
}

// start starts a harness in its own process group (so the test can
// signal it like a terminal's Ctrl-C, and nothing of it outlives the
// test); env adds to the world's environment.
func (w *World) start(ctx context.Context, bin string, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	w.t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = w.WD
	cmd.Env = append(append([]string(nil), w.Env...), env...)
	cmd.Stdin = nil // /dev/null
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	require.NoError(w.t, cmd.Start())
	w.t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	return cmd, &stdout, &stderr
}

// harness runs a harness to its end.
func (w *World) harness(bin string, env []string, args ...string) Harness {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), harnessTimeout)
	defer cancel()
	cmd, stdout, stderr := w.start(ctx, bin, env, args...)
	err := cmd.Wait()
	h := Harness{Stdout: stdout.String(), Stderr: stderr.String(), Err: err, PID: cmd.Process.Pid}
	w.t.Logf("%s %s: err=%v\nstdout (end): %s\nstderr: %s", filepath.Base(bin), strings.Join(args, " "), err, tail(h.Stdout, 400), tail(h.Stderr, 3000))
	return h
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// startLine matches rac's start line and captures the reference.
var startLine = regexp.MustCompile(`rac: recording ([a-z0-9][a-z0-9._-]*)/([0-9]+-[a-z0-9._-]*)`)

// refOf is the qualified reference of a tool result's start line.
func refOf(t *testing.T, out string) (session, name string) {
	t.Helper()
	m := startLine.FindStringSubmatch(out)
	require.NotNil(t, m, "no 'rac: recording' line in the tool result:\n%s", out)
	return m[1], m[2]
}

// pidPipe is a FIFO a scripted command writes its pids into ("echo $$
// $PPID > FIFO"): the test learns them the moment the command runs,
// without polling. A FIFO can be opened for writing on a read-only mount.
type pidPipe struct {
	Path string
	got  chan []int
}

func newPidPipe(t *testing.T, dir string) *pidPipe {
	t.Helper()
	p := &pidPipe{Path: filepath.Join(dir, "pids.fifo"), got: make(chan []int, 1)}
	require.NoError(t, unix.Mkfifo(p.Path, 0o600))
	go func() {
		b, err := os.ReadFile(p.Path) // blocks until the command opens it, ends when it closes it
		if err != nil {
			close(p.got)
			return
		}
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				pids = append(pids, n)
			}
		}
		p.got <- pids
	}()
	t.Cleanup(func() {
		// unblocks the reader when the command never ran
		if f, err := os.OpenFile(p.Path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	return p
}

// wait returns the pids, or fails the test when the command has not
// written them within d.
func (p *pidPipe) wait(t *testing.T, d time.Duration) []int {
	t.Helper()
	select {
	case pids := <-p.got:
		require.NotEmpty(t, pids, "the command wrote no pids")
		return pids
	case <-time.After(d):
		t.Fatalf("the command did not start within %v", d)
		return nil
	}
}

// withoutRacLines is a tool result without rac's own start and end
// lines; what is left is what the model gets without rac. When nothing
// is left it is the harness's text for an empty result.
func withoutRacLines(out string) string {
	var kept []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "rac: recording ") && !strings.HasPrefix(l, "rac: ref ") {
			kept = append(kept, l)
		}
	}
	s := strings.Join(kept, "\n")
	if strings.TrimSpace(s) == "" {
		return "(Bash completed with no output)"
	}
	return s
}
