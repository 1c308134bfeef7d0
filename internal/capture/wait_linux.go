package capture

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// si_code values of SIGCHLD (not in x/sys/unix)
const (
	siTrapped   = 4
	siStopped   = 5
	siContinued = 6
)

// wait waits for the child to end and keeps how it ended. It waits without
// reaping first (WNOWAIT) and notes the child as gone before reaping it, so
// that signal never reaches a process that took over the pid. A stop of
// the child on the way stops rac too, as a shell's job stops.
func (c *child) wait() {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, c.pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WCONTINUED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err == nil && (info.Code == siStopped || info.Code == siContinued || info.Code == siTrapped) {
			c.takeStop()
			continue
		}
		break
	}
	c.markReaped()
	c.reap()
}

// takeStop consumes the child's stop or continue (WNOWAIT left it to be
// reported again) and, for a stop that still holds, stops rac. A stop
// that no longer holds came with rac's own (SIGSTOP to the group, then
// SIGCONT): rac was stopped by the kernel already.
func (c *child) takeStop() {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, c.pid, &info, unix.WSTOPPED|unix.WCONTINUED|unix.WNOHANG, nil) == unix.EINTR {
	}
	if info.Signo != int32(unix.SIGCHLD) || info.Code != siStopped {
		return
	}
	if processState(c.pid) != 'T' {
		return
	}
	stopSelf(syscall.Signal(siginfoStatus(&info)))
}

// siginfoStatus is si_status of a SIGCHLD siginfo: after si_pid and
// si_uid, at the start of the union (16 bytes in on 64-bit systems, 12
// on 32-bit ones).
func siginfoStatus(info *unix.Siginfo) int32 {
	off := uintptr(12) + 8
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16 + 8
	}
	return *(*int32)(unsafe.Add(unsafe.Pointer(info), off))
}
