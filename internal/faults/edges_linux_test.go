//go:build linux

package faults

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Under every open-file limit from 3 to 40, rac run gives what the
// command gives without rac (output and status: at 3 a dynamically linked
// echo cannot load its C library either), recorded or not, and never
// dies of a Go runtime crash.
func TestLowFileLimit(t *testing.T) {
	sc := newScenario(t, "ulimit -n 3..40: rac run as the command alone, no runtime crash", false)
	s := newStore(t)
	run := func(n int, rac bool) (string, int, string) {
		script := fmt.Sprintf(`ulimit -n %d && exec sh -c 'echo out-%d; echo err >&2'`, n, n)
		if rac {
			script = fmt.Sprintf(`ulimit -n %d && exec "$0" run -q -- sh -c 'echo out-%d; echo err >&2'`, n, n)
		}
		c := exec.Command("sh", "-c", script, racBin)
		c.Env, c.Dir = s.env, s.dir
		var errb strings.Builder
		c.Stderr = &errb
		out, err := c.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		return string(out), code, errb.String()
	}
	for n := 3; n <= 40; n++ {
		sc.iter()
		wantOut, wantCode, _ := run(n, false)
		out, code, stderr := run(n, true)
		switch {
		case strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "goroutine "):
			sc.fail("ulimit -n %d: a runtime crash: %.500s", n, stderr)
		case out != wantOut || code != wantCode:
			sc.fail("ulimit -n %d: stdout %q, exit %d; without rac %q, exit %d; stderr %.300q", n, out, code, wantOut, wantCode, stderr)
		case strings.Contains(stderr, "too many open files"):
			sc.fail("ulimit -n %d: %.300q", n, stderr)
		}
	}
}

// kill -TSTP of rac's pid alone (pipe mode) stops the command and rac;
// kill -CONT of rac resumes both.
func TestTSTPToRac(t *testing.T) {
	sc := newScenario(t, "kill -TSTP of rac (pipe mode) stops CMD, -CONT resumes it", false)
	s := newStore(t)
	for range iterations(20, 3) {
		sc.iter()
		if err := tstpOnce(s); err != nil {
			sc.fail("%v", err)
		}
	}
}

func tstpOnce(s *racStore) error {
	c := s.command("run", "-q", "--", "sh", "-c", `echo $$; exec sleep 300`)
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	c.Stdout = w
	if err := c.Start(); err != nil {
		return err
	}
	w.Close()
	defer func() { killGroup(c.Process.Pid); _ = c.Wait() }()
	if err := r.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		return err
	}
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	if err != nil {
		return fmt.Errorf("no pid from the command: %w", err)
	}
	child, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		return err
	}
	rac := c.Process.Pid
	if err := await(func() bool { return catches(rac, syscall.SIGTSTP) }); err != nil {
		return fmt.Errorf("rac never caught SIGTSTP: %w", err)
	}
	if err := unix.Kill(rac, unix.SIGTSTP); err != nil {
		return err
	}
	if err := await(func() bool { return procState(child) == 'T' && procState(rac) == 'T' }); err != nil {
		return fmt.Errorf("after kill -TSTP of rac: command %c, rac %c: %w", procState(child), procState(rac), err)
	}
	if err := unix.Kill(rac, unix.SIGCONT); err != nil {
		return err
	}
	if err := await(func() bool { return procState(child) != 'T' && procState(rac) != 'T' }); err != nil {
		return fmt.Errorf("after kill -CONT of rac: command %c, rac %c: %w", procState(child), procState(rac), err)
	}
	return nil
}

// await polls cond for up to a minute (only a broken rac takes that long).
func await(cond func() bool) error {
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within a minute")
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// procState is the state letter of /proc/PID/stat; 0 when it is gone.
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

// catches reports whether process pid catches sig (SigCgt).
func catches(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for l := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(l, "SigCgt:"); ok {
			m, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && m&(1<<(uint(sig)-1)) != 0
		}
	}
	return false
}

// script -qec 'rac run -- head -c 1' </dev/null: script sends an end of
// input at once, which reaches head in pty mode as its end of input
// (never as a NUL keystroke: head then waited and the recording began
// with a NUL).
func TestPTYEndOfInput(t *testing.T) {
	sc := newScenario(t, "pty: end of input under script </dev/null, no NUL", false)
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1)")
	}
	s := newStore(t)
	for range iterations(30, 5) {
		sc.iter()
		c := exec.Command(script, "-qec", racBin+" run -- head -c 1", "/dev/null")
		c.Env, c.Dir = s.env, s.dir
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		null, err := os.Open(os.DevNull)
		require.NoError(t, err)
		c.Stdin = null
		out, err := runFor(c, 20*time.Second)
		null.Close()
		if err != nil || strings.Contains(out, "^@") {
			sc.fail("script -qec 'rac run -- head -c 1' </dev/null: %v: %q", err, out)
		}
	}
	es, err := s.list("--all-sessions")
	require.NoError(t, err)
	for _, e := range es {
		r := s.rac(time.Minute, "out", "read", e.Ref, "--raw")
		if r.code != 0 || strings.Contains(r.stdout, "\x00") {
			sc.fail("%s: exit %d, %q", e.Ref, r.code, r.stdout)
		}
	}
}

// runFor runs c, killing its group after limit, and returns its output.
func runFor(c *exec.Cmd, limit time.Duration) (string, error) {
	var out strings.Builder
	c.Stdout, c.Stderr = &out, &out
	if err := c.Start(); err != nil {
		return "", err
	}
	t := time.AfterFunc(limit, func() { killGroup(c.Process.Pid) })
	err := c.Wait()
	if !t.Stop() {
		return out.String(), fmt.Errorf("it hung (killed after %v)", limit)
	}
	return out.String(), err
}

// kill -9 of rac-mcp during a run call leaves no process of the command:
// not the command, not its child, not a setsid grandchild.
func TestMCPKilledDuringRun(t *testing.T) {
	sc := newScenario(t, "mcp: kill -9 of rac-mcp during run leaves no process", false)
	for range iterations(5, 2) {
		sc.iter()
		s := newStore(t, "RAC_MCP_RUN=true")
		m := s.startMCP(t, s.env, false)
		cmd := `sleep 300 & echo $! > child; setsid sh -c 'echo $$ > setsid; exec sleep 300' & echo $$ > cmd; wait`
		m.id++
		m.send(map[string]any{"jsonrpc": "2.0", "id": m.id, "method": "tools/call",
			"params": map[string]any{"name": "run", "arguments": map[string]any{"command": cmd, "cwd": s.dir}}})
		var pids []int
		for _, name := range []string{"cmd", "child", "setsid"} {
			var pid int
			err := await(func() bool {
				b, err := os.ReadFile(filepath.Join(s.dir, name))
				if err != nil || !strings.HasSuffix(string(b), "\n") {
					return false
				}
				pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
				return err == nil
			})
			require.NoError(t, err, "%s never written: %s", name, m.errb.String())
			pids = append(pids, pid)
		}
		// rac run too, the command's parent: it writes the recording's end
		// after the command, inside the test's folder
		rac, err := parentOf(pids[0])
		require.NoError(t, err)
		pids = append(pids, rac)
		require.NoError(t, m.cmd.Process.Signal(syscall.SIGKILL))
		for i, pid := range pids {
			if err := await(func() bool { st := procState(pid); return st == 0 || st == 'Z' }); err != nil {
				sc.fail("%s (pid %d) still runs after kill -9 of rac-mcp", []string{"the command", "its child", "its setsid child", "rac run"}[i], pid)
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// parentOf is the parent pid in /proc/PID/stat.
func parentOf(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	return strconv.Atoi(f[1])
}
