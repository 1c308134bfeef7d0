//go:build !linux

package capture

// wait waits for the child to end and keeps how it ended. Without waitid's
// WNOWAIT the child is noted as gone only once reaped: a signal forwarded
// in between could reach a process that took over the pid, as with
// os/exec before pidfds.
func (c *child) wait() {
	c.reap()
	c.markReaped()
}
