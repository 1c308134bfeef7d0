package capture

import "golang.org/x/sys/unix"

// wait waits for the child to end and keeps how it ended. It waits without
// reaping first (WNOWAIT) and notes the child as gone before reaping it, so
// that signal never reaches a process that took over the pid.
func (c *child) wait() {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, c.pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
	c.markReaped()
	c.reap()
}
