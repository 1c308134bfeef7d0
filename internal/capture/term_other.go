//go:build !linux

package capture

import "golang.org/x/sys/unix"

// The termios requests of macOS and the BSDs: set at once (TCSANOW).
const (
	ioctlSetTermios = unix.TIOCSETA
)

// isControlling reports whether the terminal fd is rac's controlling
// terminal (the one /dev/tty opens); without TIOCGSID, whether it is the
// foreground's terminal of rac's session, which it nearly always is.
func isControlling(fd int) bool {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	if err != nil {
		return false
	}
	sid, err := unix.Getsid(pgrp)
	own, oerr := unix.Getsid(0)
	return err == nil && oerr == nil && sid == own
}
