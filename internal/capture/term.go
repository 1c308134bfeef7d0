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

// rawMode is t as cfmakeraw leaves it: no line editing, no echo, no
// signals from keys, no output processing (the pty already did that), so
// every byte reaches the command's pseudo-terminal as typed.
func rawMode(t unix.Termios) *unix.Termios {
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Oflag &^= unix.OPOST
	t.Lflag &^= unix.ECHO | unix.ECHONL | unix.ICANON | unix.ISIG | unix.IEXTEN
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return &t
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
