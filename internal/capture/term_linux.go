package capture

import "golang.org/x/sys/unix"

// The termios requests: set at once (TCSANOW), without waiting for output
// to drain (a terminal stopped with Ctrl-S would block a restore).
const (
	ioctlSetTermios = unix.TCSETS
)

// isControlling reports whether the terminal fd is rac's controlling
// terminal (the one /dev/tty opens).
func isControlling(fd int) bool {
	sid, err := unix.IoctlGetInt(fd, unix.TIOCGSID)
	own, oerr := unix.Getsid(0)
	return err == nil && oerr == nil && sid == own
}
