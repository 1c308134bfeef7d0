package capture

import (
	"os"

	"golang.org/x/sys/unix"
)

// SameDescription reports whether a and b (rac's stdout and stderr) lead
// to one place whose reader cannot tell the two apart, so the command's
// writes to both must keep their order: one terminal or one pipe (the same
// device and inode), or, for a regular file, one open file description
// (2>&1: one offset), not two opens of the file (>f 2>f: two offsets,
// each write lands at its own). Run with Combined then gives the command
// one pipe for both.
func SameDescription(a, b *os.File) bool {
	if a == nil || b == nil {
		return false
	}
	var sa, sb unix.Stat_t
	if fstat(a, &sa) != nil || fstat(b, &sb) != nil {
		return false
	}
	if sa.Dev != sb.Dev || sa.Ino != sb.Ino {
		return false
	}
	if sa.Mode&unix.S_IFMT != unix.S_IFREG {
		return true
	}
	fa, fb := rawFd(a), rawFd(b)
	if fa < 0 || fb < 0 {
		return false
	}
	if fa == fb {
		return true
	}
	if same, ok := kcmpFile(fa, fb); ok {
		return same
	}
	return sharesFlags(fa, fb)
}

func fstat(f *os.File, st *unix.Stat_t) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	if cerr := rc.Control(func(fd uintptr) { err = unix.Fstat(int(fd), st) }); cerr != nil {
		return cerr
	}
	return err
}

// rawFd is f's descriptor, without Fd's switch to blocking mode.
func rawFd(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		_ = rc.Control(func(u uintptr) { fd = int(u) })
	}
	return fd
}

// sharesFlags tells one description from two by its status flags, which
// belong to the description: O_NONBLOCK toggled on fa shows on fb only if
// they share one. Regular files ignore O_NONBLOCK, so the toggle changes
// nothing meanwhile; it is restored at once. Called before the command
// starts, when nothing else uses the two.
func sharesFlags(fa, fb int) bool {
	flA, err := unix.FcntlInt(uintptr(fa), unix.F_GETFL, 0)
	if err != nil {
		return false
	}
	flB0, err := unix.FcntlInt(uintptr(fb), unix.F_GETFL, 0)
	if err != nil {
		return false
	}
	if _, err := unix.FcntlInt(uintptr(fa), unix.F_SETFL, flA^unix.O_NONBLOCK); err != nil {
		return false
	}
	flB1, err := unix.FcntlInt(uintptr(fb), unix.F_GETFL, 0)
	_, _ = unix.FcntlInt(uintptr(fa), unix.F_SETFL, flA)
	return err == nil && flB1&unix.O_NONBLOCK != flB0&unix.O_NONBLOCK
}
