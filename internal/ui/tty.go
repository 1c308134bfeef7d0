package ui

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal asks the file's terminal for its settings: only a terminal
// has them. Through SyscallConn, not Fd, which would put the descriptor in
// blocking mode.
func isTerminal(f *os.File) bool {
	ok := false
	control(f, func(fd int) {
		_, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
		ok = err == nil
	})
	return ok
}

// terminalWidth is the terminal's number of columns, 0 when unknown.
func terminalWidth(f *os.File) int {
	cols := 0
	control(f, func(fd int) {
		if ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil {
			cols = int(ws.Col)
		}
	})
	return cols
}

func control(f *os.File, fn func(fd int)) {
	if f == nil {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { fn(int(fd)) }) // fails only on a closed file: then fn does not run
}
