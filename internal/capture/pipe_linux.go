package capture

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// growPipe raises the pipe's capacity (1 MiB is the unprivileged maximum)
// so a fast child needs fewer wake-ups of rac. Failure changes nothing.
func growPipe(f *os.File) {
	// Through SyscallConn, not Fd: Fd would switch the pipe to blocking
	// mode, and Close could then no longer interrupt a pending Read.
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20) })
	}
}

// fionread asks how many bytes a pipe holds (FIONREAD is TIOCINQ).
const fionread = unix.TIOCINQ

// pipeHolders lists the processes, rac aside, that hold the write end of
// the pipe fd reads: each /proc/PID/fd entry naming its inode, opened for
// writing by /proc/PID/fdinfo. Best effort: other users' processes, and
// those of another pid namespace, are not seen.
func pipeHolders(fd int) []holder {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return nil
	}
	want := "pipe:[" + strconv.FormatUint(st.Ino, 10) + "]"
	self := os.Getpid()
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []holder
	for _, pe := range procs {
		pid, err := strconv.Atoi(pe.Name())
		if err != nil || pid == self {
			continue
		}
		dir := "/proc/" + pe.Name()
		fds, err := os.ReadDir(dir + "/fd")
		if err != nil {
			continue
		}
		for _, fe := range fds {
			if l, err := os.Readlink(dir + "/fd/" + fe.Name()); err != nil || l != want || !writable(dir+"/fdinfo/"+fe.Name()) {
				continue
			}
			name, _ := os.ReadFile(dir + "/comm")
			out = append(out, holder{pid, strings.TrimSpace(string(name))})
			break
		}
	}
	return out
}

// writable reads the access mode from an fdinfo file's flags (octal).
func writable(fdinfo string) bool {
	b, err := os.ReadFile(fdinfo)
	if err != nil {
		return true // cannot tell: keep it
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			f, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err != nil || f&unix.O_ACCMODE != unix.O_RDONLY
		}
	}
	return true
}

// kcmpFile asks the kernel whether two of rac's descriptors are one open
// file description (kcmp KCMP_FILE); false ok when kcmp is not allowed
// (a seccomp filter, a kernel without CONFIG_KCMP).
func kcmpFile(fa, fb int) (same, ok bool) {
	const kcmpFile = 0
	pid := uintptr(os.Getpid())
	r, _, errno := unix.Syscall6(unix.SYS_KCMP, pid, pid, kcmpFile, uintptr(fa), uintptr(fb), 0)
	if errno != 0 {
		return false, false
	}
	return r == 0, true
}
