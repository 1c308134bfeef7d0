package capture

import (
	"golang.org/x/sys/unix"
)

func setTermios(fd int, t *unix.Termios) error {
	for {
		// EINTR: SIGWINCH and SIGCHLD arrive at any time
		if err := unix.IoctlSetTermios(fd, ioctlSetTermios, t); err != unix.EINTR {
			return err
		}
	}
}

func getWinsize(fd int) (*unix.Winsize, error) { return unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ) }

func setWinsize(fd int, ws *unix.Winsize) error { return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, ws) }

// sameTerminal reports whether two descriptors are the same terminal. A
// descriptor opened through /dev/tty is the controlling terminal, whatever
// its device number says.
func sameTerminal(a, b int) bool {
	var sa, sb, st unix.Stat_t
	if unix.Fstat(a, &sa) != nil || unix.Fstat(b, &sb) != nil {
		return false
	}
	if sa.Mode&unix.S_IFMT != unix.S_IFCHR || sb.Mode&unix.S_IFMT != unix.S_IFCHR {
		return false
	}
	if sa.Rdev == sb.Rdev {
		return true
	}
	if unix.Stat("/dev/tty", &st) != nil {
		return false
	}
	return sa.Rdev == st.Rdev && isControlling(b) || sb.Rdev == st.Rdev && isControlling(a)
}
