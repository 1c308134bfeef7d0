package sigcatch

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Once Fatal returns, each of Fatal arrives on the channel (not one of
// Later: a USR1 sent then could be dropped); once All returns, Later's do
// too. Stop hands them back.
func TestCatch(t *testing.T) {
	s := Catch()
	defer s.Stop()
	ch := s.Fatal()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
	require.Equal(t, syscall.SIGTERM, <-ch)
	ch = s.All()
	for _, sig := range []syscall.Signal{syscall.SIGUSR1, syscall.SIGWINCH, syscall.SIGQUIT} {
		require.NoError(t, syscall.Kill(os.Getpid(), sig))
		require.Equal(t, sig, <-ch)
	}
}

// Only a process run as "rac run" starts catching at init: a test binary's
// arguments are not that.
func TestEarlyOnlyForRun(t *testing.T) {
	require.NotEqual(t, "run", os.Args[1])
	require.Nil(t, Early())
}
