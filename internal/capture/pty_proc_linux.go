package capture

import (
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/procfs"
)

// setDeathSignal makes the kernel kill the command when rac dies (even by
// SIGKILL, which rac cannot catch to pass on).
func setDeathSignal(sys *syscall.SysProcAttr) { sys.Pdeathsig = syscall.SIGKILL }

// siginfo codes of waitid (asm-generic/siginfo.h)
const (
	cldTrapped   = 4
	cldStopped   = 5
	cldContinued = 6
)

// wait waits for the command to end, reporting its stops and continues
// on events when asked. It looks without reaping first (WNOWAIT) and
// notes the command as gone before reaping it, so that no signal reaches
// a process that took over the pid.
func (p *proc) wait(stops bool) {
	flags := unix.WEXITED | unix.WNOWAIT
	if stops {
		flags |= unix.WSTOPPED | unix.WCONTINUED
	}
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, p.pid, &info, flags, nil)
		if err == unix.EINTR {
			continue
		}
		if err == nil && stops {
			// a stop or continue is taken off (without WEXITED nothing
			// is reaped) and reported
			var ev procEvent
			var take int
			switch info.Code {
			case cldStopped, cldTrapped:
				ev, take = procStopped, unix.WSTOPPED
			case cldContinued:
				ev, take = procContinued, unix.WCONTINUED
			}
			if ev != 0 {
				var taken unix.Siginfo
				for unix.Waitid(unix.P_PID, p.pid, &taken, take|unix.WNOHANG, nil) == unix.EINTR {
				}
				p.events <- ev
				continue
			}
		}
		break
	}
	p.markReaped()
	p.reap()
}

// handlesStop reports whether process pid catches or ignores SIGTSTP, or
// whether that cannot be told: then rac leaves its Ctrl-Z to the kernel.
func handlesStop(pid int) bool {
	st, err := procfs.ReadStatus(pid)
	if err != nil {
		return true
	}
	return (st.SigIgn|st.SigCgt)&(uint64(1)<<(uint(syscall.SIGTSTP)-1)) != 0
}
