//go:build !linux

package capture

import "syscall"

// setDeathSignal: only Linux has a parent-death signal; a command whose
// rac was killed with SIGKILL keeps running, as a command whose parent
// shell died.
func setDeathSignal(*syscall.SysProcAttr) {}

// wait waits for the command to end and keeps how it ended, telling
// onStop of its stops and continues on the way when there is one. Without
// waitid's WNOWAIT the command is noted as gone only once reaped: a
// signal passed on in between could reach a process that took over the
// pid, as with os/exec before pidfds.
func (p *process) wait() {
	flags := 0
	if p.onStop != nil {
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
			p.onStop(stopEvent{stopped: true, sig: ws.StopSignal()})
			continue
		case err == nil && ws.Continued():
			p.onStop(stopEvent{})
			continue
		}
		p.setResult(ws, err)
		return
	}
}

// procEntry is a process below the command: its pid and process group.
type procEntry struct{ pid, pgrp int }

// descendants cannot be listed without /proc: --timeout signals the
// command alone.
func descendants(int) []procEntry { return nil }

// processState is unknown without /proc: a stop is taken as current.
func processState(int) byte { return 'T' }

// becomeSubreaper: only Linux has child subreapers.
func becomeSubreaper() {}

// peekStop: without WNOWAIT a stop cannot be looked at without taking
// it; the waiter reports every stop it takes.
func (p *process) peekStop() bool { return false }
