package capture

import (
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/procfs"
)

// setDeathSignal: the command gets SIGKILL when rac dies (kill -9 of rac
// alone), as rac's caller would expect of the command itself. It reaches
// the command only, not its own children (they are left as if the command
// had been killed), and exec of a setuid program clears it.
func setDeathSignal(sys *syscall.SysProcAttr) { sys.Pdeathsig = syscall.SIGKILL }

// becomeSubreaper makes rac a child subreaper (RunOptions.Contain).
func becomeSubreaper() { _ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) }

// si_code values of SIGCHLD (asm-generic/siginfo.h; not in x/sys/unix)
const (
	siTrapped   = 4
	siStopped   = 5
	siContinued = 6
)

// wait waits for the command to end and keeps how it ended, telling
// onStop of its stops and continues on the way when there is one. It
// waits without reaping first (WNOWAIT) and notes the command as gone
// before reaping it, so that no signal reaches a process that took over
// the pid.
func (p *process) wait() {
	flags := unix.WEXITED | unix.WNOWAIT
	if p.onStop != nil {
		flags |= unix.WSTOPPED | unix.WCONTINUED
	}
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, p.pid, &info, flags, nil)
		if err == unix.EINTR {
			continue
		}
		if err == nil && p.onStop != nil && (info.Code == siStopped || info.Code == siTrapped || info.Code == siContinued) {
			p.onStop(p.takeStop(info.Code))
			continue
		}
		break
	}
	p.markReaped()
	p.reap()
}

// peekStop reports whether the command has a stop the waiter has yet to
// take (WNOWAIT: it is left to be reported).
func (p *process) peekStop() bool {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WSTOPPED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		return err == nil && info.Signo == int32(unix.SIGCHLD) && info.Code == siStopped
	}
}

// takeStop consumes the stop or continue that WNOWAIT left to be reported
// again (without WEXITED nothing is reaped). The stop's signal is known
// only when a stop is what was taken: a stop that no longer holds came
// with a continue (SIGSTOP to the group, then SIGCONT).
func (p *process) takeStop(code int32) stopEvent {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, p.pid, &info, unix.WSTOPPED|unix.WCONTINUED|unix.WNOHANG, nil) == unix.EINTR {
	}
	ev := stopEvent{stopped: code != siContinued}
	if ev.stopped && info.Signo == int32(unix.SIGCHLD) && info.Code == siStopped {
		ev.sig = syscall.Signal(siginfoStatus(&info))
	}
	return ev
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

// procEntry is a process below the command: its pid and process group.
type procEntry struct{ pid, pgrp int }

// descendants lists the processes below pid, parents before children, by
// the parent pid each /proc/PID/stat names.
func descendants(pid int) []procEntry {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	kids := map[int][]procEntry{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, pgrp, ok := parentOf(p); ok {
			kids[pp] = append(kids[pp], procEntry{p, pgrp})
		}
	}
	var out []procEntry
	queue := []int{pid}
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range kids[p] {
			if !seen[k.pid] {
				seen[k.pid] = true
				out = append(out, k)
				queue = append(queue, k.pid)
			}
		}
	}
	return out
}

// parentOf reads the parent pid and the process group from
// /proc/PID/stat.
func parentOf(pid int) (ppid, pgrp int, ok bool) {
	st, err := procfs.ReadStat(pid)
	return st.PPID, st.PGRP, err == nil
}

// processState is the state letter of /proc/PID/stat (R, S, T, Z...); 0
// when it cannot be read.
func processState(pid int) byte {
	st, _ := procfs.ReadStat(pid)
	return st.State
}
