//go:build linux && !race

package capture

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// readNonblock reads the pty's master side, which openPTY made
// non-blocking, without telling the Go scheduler: a raw system call keeps
// its P, where unix.Read gives the P up whenever the call is slow and
// takes it back after, which in pty mode costs the command, the copying
// thread and the kernel's tty worker their cores on a small machine.
//
// The read returns EAGAIN instead of waiting for output (the caller then
// waits in poll, an ordinary system call), so the P is held for the copy
// of what is there and for the tty layer's short waits on its own locks
// (the flip buffer's flush work, the termios and line-discipline locks)
// and on page faults in buf; a garbage collection waits out at most that.
// It must stay non-blocking: nothing may call r.master.Fd(), which would
// make it blocking (openPTY checks the flag once).
//
// Measured on 2 cores, 512 MiB through cat and a pty, a minimal copier:
// 6.5-6.7 s with this read, 7.9-9.2 s with unix.Read, with about 25%
// fewer context switches; script(1), in C, 7.8 s. A race-enabled build
// reads with unix.Read (rawread_other.go), which tells the race detector
// that buf is written.
func readNonblock(fd int, p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}
