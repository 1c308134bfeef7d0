package sigcatch

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Once Fatal returns, a signal that would end rac arrives on the channel;
// once All returns, SIGWINCH does too. Stop hands them back.
func TestCatch(t *testing.T) {
	s := Catch()
	defer s.Stop()
	ch := s.Fatal()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGUSR1))
	require.Equal(t, syscall.SIGUSR1, <-ch)
	ch = s.All()
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGWINCH))
	require.Equal(t, syscall.SIGWINCH, <-ch)
}

// Only a process run as "rac run" starts catching at init: a test binary's
// arguments are not that.
func TestEarlyOnlyForRun(t *testing.T) {
	require.NotEqual(t, "run", os.Args[1])
	require.Nil(t, Early())
}
