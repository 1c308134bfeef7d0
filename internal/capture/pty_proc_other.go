//go:build !linux

package capture

import "syscall"

// setDeathSignal: only Linux has a parent-death signal; the command
// outlives a rac killed by SIGKILL (in pty mode, until the pty's hangup).
func setDeathSignal(*syscall.SysProcAttr) {}

// wait waits for the command to end, reporting its stops and continues
// on events when asked. Without waitid's WNOWAIT the command is noted as
// gone only once reaped.
func (p *proc) wait(stops bool) {
	flags := 0
	if stops {
		flags = syscall.WUNTRACED | syscall.WCONTINUED
	}
	for {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(p.pid, &ws, flags, nil)
		if err == syscall.EINTR {
			continue
		}
		switch {
		case err == nil && ws.Stopped():
			p.events <- procStopped
			continue
		case err == nil && ws.Continued():
			p.events <- procContinued
			continue
		}
		p.mu.Lock()
		p.status, p.waitErr, p.reaped = ws, err, true
		p.mu.Unlock()
		return
	}
}

// handlesStop: which signals a process catches cannot be read here, so
// rac leaves Ctrl-Z to the kernel.
func handlesStop(int) bool { return true }
