//go:build linux

package main

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// ttyJob is rac run --mode pipe as the foreground job of a real terminal
// (a session led by rac, the pty its controlling terminal and stdin), the
// command's stdout a pipe the test reads.
type ttyJob struct {
	cmd   *exec.Cmd
	ptmx  *os.File
	in    *os.File // the command's stdin: a pipe, so a hangup does not end it by EOF
	out   *bufio.Reader
	child int
}

func startTTYJob(t *testing.T) *ttyJob {
	t.Helper()
	cmd, _ := racCommand(t, "run", "-q", "--mode", "pipe", "--", signalBins.sigcount)
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 2}
	require.NoError(t, cmd.Start())
	tty.Close()
	outW.Close()
	inR.Close()
	j := &ttyJob{cmd: cmd, ptmx: ptmx, in: inW, out: bufio.NewReader(outR)}
	t.Cleanup(func() {
		_ = unix.Kill(-cmd.Process.Pid, unix.SIGKILL)
		_ = cmd.Wait()
		ptmx.Close()
		outR.Close()
		inW.Close()
	})
	require.NoError(t, outR.SetReadDeadline(time.Now().Add(30*time.Second)))
	line := j.line(t)
	pid, ok := strings.CutPrefix(line, "ready ")
	require.True(t, ok, line)
	j.child, err = strconv.Atoi(pid)
	require.NoError(t, err)
	waitWitness(t, cmd.Process.Pid)
	return j
}

func (j *ttyJob) line(t *testing.T) string {
	t.Helper()
	l, err := j.out.ReadString('\n')
	require.NoError(t, err, "reading the command's report")
	return strings.TrimSpace(l)
}

// rest reads the command's report to its end.
func (j *ttyJob) rest(t *testing.T) []string {
	var out []string
	for {
		l, err := j.out.ReadString('\n')
		if l != "" {
			out = append(out, strings.TrimSpace(l))
		}
		if err != nil {
			return out
		}
	}
}

func count(lines []string, s string) int {
	n := 0
	for _, l := range lines {
		if l == s {
			n++
		}
	}
	return n
}

// Ctrl-C and a hangup from a real terminal reach the command once: the
// kernel signals the foreground group, which holds rac and the command,
// and rac passes nothing on.
func TestSignalsFromTerminal(t *testing.T) {
	ensureSignalBins(t)
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("RAC_SIGNAL_RUNS")); err == nil && n > 0 {
		runs = n
	}
	t.Run("ctrl_c", func(t *testing.T) {
		for range runs {
			j := startTTYJob(t)
			defer j.in.Close()
			_, err := j.ptmx.Write([]byte{0x03}) // the terminal's INTR character
			require.NoError(t, err)
			seen := []string{}
			for l := j.line(t); l != "INT"; l = j.line(t) {
				seen = append(seen, l)
			}
			// a marker after the settle time: a second INT would come first
			require.NoError(t, unix.Kill(j.cmd.Process.Pid, unix.SIGUSR2))
			for l := j.line(t); l != "USR2"; l = j.line(t) {
				seen = append(seen, l)
			}
			require.Zero(t, count(seen, "INT"), "the command got INT more than once: %q", seen)
		}
	})
	t.Run("hangup", func(t *testing.T) {
		for range runs {
			j := startTTYJob(t)
			require.NoError(t, j.ptmx.Close()) // the window closes
			seen := []string{}
			for l := j.line(t); l != "HUP"; l = j.line(t) {
				seen = append(seen, l)
			}
			require.NoError(t, unix.Kill(j.cmd.Process.Pid, unix.SIGUSR2))
			for l := j.line(t); l != "USR2"; l = j.line(t) {
				seen = append(seen, l)
			}
			require.Zero(t, count(seen, "HUP"), "the command got HUP more than once: %q", seen)
			require.NoError(t, j.in.Close())
			_ = j.rest(t)
		}
	})
}
