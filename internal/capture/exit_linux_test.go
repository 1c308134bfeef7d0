package capture

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// awaitExit waits, through a pidfd, until pid has ended (a zombie or gone)
// or timeout has passed, and reports whether it ended.
func awaitExit(t *testing.T, pid int, timeout time.Duration) bool {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if err == unix.ESRCH {
		return true
	}
	require.NoError(t, err)
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(timeout.Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		require.NoError(t, err)
		return n == 1
	}
}
