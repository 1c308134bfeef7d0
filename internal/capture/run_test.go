package capture

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rac-cli/rac/internal/record"
	"github.com/stretchr/testify/require"
)

func devNullOut(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// A signal caught before the child exists reaches the child once it does:
// the child would have got it without rac.
func TestRunForwardsASignalCaughtBeforeTheChild(t *testing.T) {
	sigs := CatchSignals()
	defer sigs.Stop()
	ch := sigs.Fatal() // caught from here on
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	s := <-ch // delivered: put it back for Run
	sigs.C <- s
	out := Run(RunOptions{
		Argv: []string{"sleep", "60"}, Stdout: devNullOut(t), Stderr: devNullOut(t),
		Signals: sigs,
	})
	require.Equal(t, record.StatusSignaled, out.Status)
	require.Equal(t, syscall.SIGTERM, out.Signal)
}

func TestRunStatuses(t *testing.T) {
	dir := t.TempDir()
	noExec := filepath.Join(dir, "script")
	require.NoError(t, os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o600))
	for _, tc := range []struct {
		argv   []string
		status string
		code   int
	}{
		{[]string{"true"}, record.StatusExited, 0},
		{[]string{"sh", "-c", "exit 42"}, record.StatusExited, 42},
		{[]string{"no-such-command-for-rac"}, record.StatusFailedToStart, 127},
		{[]string{noExec}, record.StatusFailedToStart, 126},
		{[]string{dir}, record.StatusFailedToStart, 126},
	} {
		out := Run(RunOptions{Argv: tc.argv, Stdout: devNullOut(t), Stderr: devNullOut(t)})
		require.Equal(t, tc.status, out.Status, tc.argv)
		require.Equal(t, tc.code, out.ExitCode, tc.argv)
	}
	out := Run(RunOptions{Argv: []string{"sh", "-c", "kill -KILL $$"}, Stdout: devNullOut(t), Stderr: devNullOut(t)})
	require.Equal(t, record.StatusSignaled, out.Status)
	require.Equal(t, syscall.SIGKILL, out.Signal)
}

// Without a stdin the child reads /dev/null, as with os/exec.
func TestRunWithoutStdin(t *testing.T) {
	dir := t.TempDir()
	outFile, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	defer outFile.Close()
	out := Run(RunOptions{Argv: []string{"sh", "-c", "cat; echo done"}, Stdout: outFile, Stderr: devNullOut(t)})
	require.Equal(t, record.StatusExited, out.Status)
	b, err := os.ReadFile(outFile.Name())
	require.NoError(t, err)
	require.Equal(t, "done\n", string(b))
}
