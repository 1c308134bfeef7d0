//go:build darwin

package session

import (
	"errors"
	"strconv"

	"golang.org/x/sys/unix"
)

// darwinProc reads processes through sysctl: kern.proc.pid for the parent,
// terminal and start time, getsid(2) for the process session, and
// kern.procargs2 for the argv and exec-time environment of a same-user
// process (other users' fail, which counts as a boundary).
type darwinProc struct{}

func systemProc() Proc { return darwinProc{} }

func (darwinProc) Self() int { return unix.Getpid() }

func (darwinProc) BootID() (string, error) {
	if id, err := unix.Sysctl("kern.bootsessionuuid"); err == nil && id != "" {
		return id, nil
	}
	tv, err := unix.SysctlTimeval("kern.boottime")
	if err != nil {
		return "", err
	}
	return "boottime-" + strconv.FormatInt(int64(tv.Sec), 10) + "." + strconv.FormatInt(int64(tv.Usec), 10), nil
}

func (darwinProc) Stat(pid int) (ProcStat, error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return ProcStat{}, err
	}
	if int(k.Proc.P_pid) != pid {
		return ProcStat{}, errors.New("no process " + strconv.Itoa(pid))
	}
	sid, err := unix.Getsid(pid)
	if err != nil {
		sid = 0 // unknown: the process-session rule then falls through
	}
	tty := int(k.Eproc.Tdev)
	if tty == -1 { // NODEV
		tty = 0
	}
	start := uint64(k.Proc.P_starttime.Sec)*1_000_000 + uint64(k.Proc.P_starttime.Usec)
	return ProcStat{PID: pid, PPID: int(k.Eproc.Ppid), SID: sid, TTY: tty, Start: start}, nil
}

func (darwinProc) Environ(pid int) ([]byte, error) {
	_, env, err := procArgs(pid)
	return env, err
}

func (darwinProc) Cmdline(pid int) ([]byte, error) {
	argv, _, err := procArgs(pid)
	return argv, err
}

// procArgs reads kern.procargs2 of a same-user process.
func procArgs(pid int) (argv, env []byte, err error) {
	buf, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, nil, err
	}
	return parseProcArgs(buf)
}
