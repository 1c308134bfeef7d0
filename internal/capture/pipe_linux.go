package capture

import (
	"os"

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
