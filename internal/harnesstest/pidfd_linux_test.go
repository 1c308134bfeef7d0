package harnesstest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// waitPidsGone waits (bounded) until every pid has exited, by pidfd:
// readable once the process is gone, so no polling. A pid that is
// already gone counts as gone.
func waitPidsGone(t *testing.T, pids []int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, pid := range pids {
		fd, err := unix.PidfdOpen(pid, 0)
		if errors.Is(err, unix.ESRCH) {
			continue
		}
		require.NoError(t, err, "pidfd_open %d", pid)
		ms := int(time.Until(deadline).Milliseconds())
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, max(ms, 0))
		unix.Close(fd)
		require.NoError(t, err)
		if n == 0 {
			b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
			t.Fatalf("process %d (%q) is still running %v after the harness ended", pid, strings.ReplaceAll(string(b), "\x00", " "), within)
		}
	}
}
