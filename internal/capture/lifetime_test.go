package capture

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

// --timeout signals the command and each of its descendants by pid: a
// process it started in the background ends too, and rac's own group is
// left alone (this test process is in it).
func TestRunTimeoutSignalsTheTree(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("descendants are found through /proc")
	}
	outFile, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer outFile.Close()
	out := Run(RunOptions{
		Argv:   []string{"sh", "-c", "sleep 300 & echo $!; wait"},
		Stdout: outFile, Stderr: devNullOut(t), Timeout: 50 * time.Millisecond, DrainTimeout: time.Minute,
	})
	require.Equal(t, record.StatusTimedOut, out.Status)
	require.Equal(t, syscall.SIGTERM, out.Signal)
	b, err := os.ReadFile(outFile.Name())
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	// Run returned at the end of the pipes, which the sleep held: it is
	// ending (it closes its files before it is a zombie, so wait for that)
	require.True(t, awaitExit(t, pid, 10*time.Second), "the background sleep still runs (state %c)", processState(pid))
}

// The first signal that asks rac to end is reported at once, and passed on.
func TestRunOnStopping(t *testing.T) {
	sigs := CatchSignals()
	defer sigs.Stop()
	sigs.Fatal() <- syscall.SIGTERM // as if sent before the child existed
	got := make(chan syscall.Signal, 2)
	out := Run(RunOptions{
		Argv: []string{"sleep", "60"}, Stdout: devNullOut(t), Stderr: devNullOut(t),
		Signals: sigs, OnStopping: func(sig syscall.Signal) { got <- sig },
	})
	require.Equal(t, record.StatusSignaled, out.Status)
	require.Equal(t, syscall.SIGTERM, out.Signal)
	require.Equal(t, syscall.SIGTERM, <-got)
	require.Empty(t, got)
}
