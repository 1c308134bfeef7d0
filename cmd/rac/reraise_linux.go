package main

import (
	"os/signal"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// reraise ends rac by sig, as the child ended, so the caller sees a signal
// death ($? reads 128+N). Go's runtime keeps its own handlers (SIGQUIT
// would dump goroutines, an asynchronous SIGPIPE would be ignored), so the
// default action is restored with a raw sigaction first.
func reraise(sig syscall.Signal) int {
	signal.Reset(sig)
	var act [4]uint64 // handler SIG_DFL, no flags, empty mask: zero on every layout
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act[0])), 0, 8, 0, 0)
	var set unix.Sigset_t
	set.Val[(int(sig)-1)/64] |= 1 << ((uint(sig) - 1) % 64)
	_ = unix.PthreadSigmask(unix.SIG_UNBLOCK, &set, nil)
	_ = unix.Kill(unix.Getpid(), sig)
	// The signal is delivered on the way back from kill; if it somehow was
	// not, exit as a shell reports a signal death.
	time.Sleep(50 * time.Millisecond)
	return 128 + int(sig)
}
