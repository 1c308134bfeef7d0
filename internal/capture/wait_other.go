//go:build !linux

package capture

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// wait waits for the child to end and keeps how it ended. Without waitid's
// WNOWAIT the child is noted as gone only once reaped: a signal forwarded
// in between could reach a process that took over the pid, as with
// os/exec before pidfds. A stop of the child on the way stops rac too, as
// a shell's job stops.
func (c *child) wait() {
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(c.pid, &ws, unix.WUNTRACED|unix.WCONTINUED, nil)
		if err == syscall.EINTR {
			continue
		}
		if err == nil && ws.Stopped() {
			stopSelf(ws.StopSignal())
			continue
		}
		if err == nil && ws.Continued() {
			continue
		}
		c.status, c.waitErr = ws, err
		break
	}
	c.markReaped()
}
