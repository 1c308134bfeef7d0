package capture

import (
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/terminal"
)

// cookedMax bounds what takeCooked moves: the command's pty takes it
// before the command runs, so it must fit the pty's input buffer (4 KiB)
// with room to spare. More waits in the terminal and is read raw.
const cookedMax = 1024

// takeCooked moves what rac's terminal (in, still in its own modes)
// already holds as finished input into the command's pty, before rac
// makes it raw: each complete line as it is, and each end of input (the
// EOF key, or what script(1) sends at the end of its own stdin) as the
// pty's EOF key. Made raw first, the terminal hands an end of input over
// as a NUL byte (the line discipline keeps it as one): the command took
// it for a keystroke (head -c 1 waited for a line, the recording began
// with a NUL). A line the EOF key ended without a newline gets the EOF
// key after it, as typed.
//
// In canonical mode a terminal is readable only with a finished line or
// an end of input at its head, and its input count the lines' bytes but
// not the ends of input (TIOCINQ): readable with nothing counted is an end of
// input, which a read takes as 0 bytes.
func (r *ptyRun) takeCooked(in int) {
	if in < 0 || r.orig == nil || r.orig.Lflag&unix.ICANON == 0 || !terminal.FdInForeground(in) {
		return
	}
	t, err := terminal.GetTermios(r.mfd)
	if err != nil || t.Lflag&unix.ICANON == 0 {
		return
	}
	eof := t.Cc[unix.VEOF]
	buf := make([]byte, cookedMax)
	for total := 0; ; {
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err != nil || n == 0 || fds[0].Revents&unix.POLLIN == 0 {
			return
		}
		q, err := unix.IoctlGetInt(in, unix.TIOCINQ)
		if err != nil || total+q+1 > cookedMax {
			return
		}
		n, err := unix.Read(in, buf)
		if err != nil || n < 0 {
			return
		}
		total += n + 1
		line := buf[:n]
		if (n == 0 || !endsLine(line, r.orig)) && eof != vdisable {
			line = append(line, eof)
		}
		if len(line) > 0 {
			if w, err := unix.Write(r.mfd, line); err != nil || w != len(line) {
				return
			}
		}
	}
}

// endsLine reports whether a line read in canonical mode under t ends
// with a line end (a newline, VEOL or VEOL2) rather than an end of input.
func endsLine(line []byte, t *unix.Termios) bool {
	if len(line) == 0 {
		return false
	}
	c := line[len(line)-1]
	return c == '\n' || c != vdisable && (c == t.Cc[unix.VEOL] || c == t.Cc[unix.VEOL2])
}
