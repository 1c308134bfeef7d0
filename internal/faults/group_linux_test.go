//go:build linux

package faults

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// awaitGroupGone waits until no process of process group pgid runs any
// more, each awaited by pidfd (bounded by a minute). A SIGKILL is
// delivered at once but acted on when the process is next scheduled: on a
// busy machine a killed rac's child, caught between fork and exec, can
// hold the recording's lock for a while after the kill. rac's promise is
// about the recording once its processes are gone, so the checks start
// then. It reports whether every process ended in time.
func awaitGroupGone(pgid int) bool {
	deadline := time.Now().Add(time.Minute)
	for _, pid := range groupMembers(pgid) {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // gone already
		}
		ok := false
		for {
			left := time.Until(deadline)
			if left <= 0 {
				break
			}
			n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, int(left.Milliseconds())+1)
			if err == unix.EINTR {
				continue
			}
			ok = err == nil && n == 1
			break
		}
		unix.Close(fd)
		if !ok {
			return false
		}
	}
	return true
}

// groupMembers lists the processes whose process group is pgid, by the
// fifth field of /proc/PID/stat (counted after the name's parenthesis).
func groupMembers(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) >= 3 && string(f[2]) == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}
