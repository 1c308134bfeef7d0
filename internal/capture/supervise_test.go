package capture

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

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
