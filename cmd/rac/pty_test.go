package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// racInPTY starts rac (this test binary, under the name rac) as the
// foreground job of a fresh pseudo-terminal, as a shell would run it.
// syncBuffer is the terminal's output, written by the copier goroutine
// and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func racInPTY(t *testing.T, args ...string) (*exec.Cmd, *os.File, *syncBuffer, <-chan struct{}) {
	t.Helper()
	bin := t.TempDir()
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(self, filepath.Join(bin, "rac")))
	cmd := exec.Command(filepath.Join(bin, "rac"), args...)
	if len(args) > 0 && args[0] == "sh" {
		cmd = exec.Command("sh", args[1:]...) // a shell at the terminal runs rac from $RACBIN
	}
	cmd.Env = append(withoutAgentVars(os.Environ()), "RAC_HOME="+waitGCAtCleanup(t, filepath.Join(t.TempDir(), "store")), "RAC_SESSION=pty", "HOME="+t.TempDir(),
		"GORACE="+goraceNoSleep(os.Getenv("GORACE")), "RACBIN="+bin, "TMPF="+filepath.Join(t.TempDir(), "f"))
	ptmx, err := pty.Start(cmd) // a new session whose controlling terminal is the pty: rac is its foreground job
	require.NoError(t, err)
	out := &syncBuffer{}
	done := make(chan struct{})
	go func() { _, _ = io.Copy(out, ptmx); close(done) }()
	return cmd, ptmx, out, done
}

// withoutAgentVars drops what an agent harness running the tests put in
// the environment: under it every run would announce as for an agent.
func withoutAgentVars(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if isAgentVar(k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// waitFor polls the terminal output for text (bounded, so a broken build
// fails instead of hanging).
func waitFor(t *testing.T, out *syncBuffer, text string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), text) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q on the terminal; got %q", text, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// In a terminal's foreground job, Ctrl-C reaches the child once, from the
// terminal: rac does not forward a second copy, and exits like the child.
func TestPTYCtrlCOnce(t *testing.T) {
	cmd, ptmx, out, done := racInPTY(t, "run", "--", "sh", "-c",
		`n=0; trap 'n=$((n+1)); echo "got-int-$n"' INT; echo ready; while [ $n -lt 1 ]; do sleep 0.05; done; sleep 0.5; echo "total=$n"; exit 5`)
	defer ptmx.Close()
	waitFor(t, out, "ready")
	// Ctrl-C reaches rac and the command together (the pty carries output
	// only, the command stays in the terminal's foreground job); rac tells
	// that from a signal to it alone once its witness is in place, a few
	// milliseconds after the start (longer on a loaded machine): the
	// guarantee's stated limit
	waitWitness(t, cmd.Process.Pid)
	_, err := ptmx.Write([]byte{3}) // Ctrl-C
	require.NoError(t, err)
	err = cmd.Wait()
	<-done
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	require.Equal(t, 5, ee.Sys().(syscall.WaitStatus).ExitStatus(), out.String())
	require.Contains(t, out.String(), "total=1")
	require.NotContains(t, out.String(), "got-int-2")
	require.Contains(t, out.String(), "rac: ref pty/0001-sh")
}

// A child killed by Ctrl-C: rac dies of SIGINT too, as the shell expects.
func TestPTYCtrlCSignalDeath(t *testing.T) {
	cmd, ptmx, out, done := racInPTY(t, "run", "--", "sh", "-c", `echo ready; exec sleep 30`)
	defer ptmx.Close()
	waitFor(t, out, "ready")
	_, err := ptmx.Write([]byte{3})
	require.NoError(t, err)
	err = cmd.Wait()
	<-done
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	ws := ee.Sys().(syscall.WaitStatus)
	require.True(t, ws.Signaled(), "rac should die of the signal: %v / %q", ws, out.String())
	require.Equal(t, syscall.SIGINT, ws.Signal())
}

// A program that needs a terminal still has one through rac.
func TestPTYChildSeesTerminal(t *testing.T) {
	cmd, ptmx, out, done := racInPTY(t, "run", "--", "sh", "-c", `[ -t 0 ] && echo stdin-is-tty; tty >/dev/null && echo has-tty`)
	defer ptmx.Close()
	require.NoError(t, cmd.Wait())
	<-done
	require.Contains(t, out.String(), "stdin-is-tty")
	require.Contains(t, out.String(), "has-tty")
}

// run.announce auto at a terminal: a person sees the reference only after
// a failure, whichever of stdout and stderr is the terminal; off a
// terminal (the scripts) rac prints both lines.
func TestAnnounceAtTerminal(t *testing.T) {
	for _, c := range []struct {
		name, script string
		quiet        bool
	}{
		{"both on the terminal", `rac run -- echo quiet`, true},
		{"stderr to a file", `rac run -- echo quiet 2>"$TMPF"; cat "$TMPF"`, true},
		{"stdout into a pipe", `rac run -- echo quiet | cat`, true},
		{"a failure", `rac run -- sh -c 'echo quiet; exit 3'`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd, ptmx, out, done := racInPTY(t, "sh", "-c", `PATH="$RACBIN:$PATH"; `+c.script+`; echo END`)
			defer ptmx.Close()
			<-done
			_ = cmd.Wait()
			got := out.String()
			require.Contains(t, got, "quiet")
			require.Contains(t, got, "END")
			if c.quiet {
				require.NotContains(t, got, "rac:", "a successful run at a terminal prints what the command prints")
			} else {
				require.Contains(t, got, "rac: ref pty/0001-sh")
				require.NotContains(t, got, "rac: recording")
			}
		})
	}
}
