// Package terminal answers what rac asks of a terminal without changing it: is
// this file a terminal, how wide is it, is rac in its foreground. ui (the
// colour and width decisions) and capture (the mode, the pty's set-up)
// ask the same question the same way here. Every call goes through
// SyscallConn, never Fd, which would put the descriptor in blocking mode.
// It must never change a terminal's settings (capture does that).
package terminal

import (
	"os"

	"golang.org/x/sys/unix"
)

// Is reports whether f is a terminal: only a terminal has
// terminal settings to give. A nil f is not.
func Is(f *os.File) bool {
	ok := false
	Control(f, func(fd int) {
		_, err := GetTermios(fd)
		ok = err == nil
	})
	return ok
}

// GetTermios returns the settings of the terminal fd.
func GetTermios(fd int) (*unix.Termios, error) { return unix.IoctlGetTermios(fd, ioctlGetTermios) }

// Width is the terminal's number of columns, 0 when unknown.
func Width(f *os.File) int {
	cols := 0
	Control(f, func(fd int) {
		if ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ); err == nil {
			cols = int(ws.Col)
		}
	})
	return cols
}

// InForeground reports whether rac is in the foreground process group of
// the terminal f (false when f is no terminal).
func InForeground(f *os.File) bool {
	fg := false
	Control(f, func(fd int) { fg = FdInForeground(fd) })
	return fg
}

// FdInForeground is InForeground for a descriptor.
func FdInForeground(fd int) bool {
	pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// Control calls fn with f's descriptor, through SyscallConn; not at all
// for a nil or closed f.
func Control(f *os.File, fn func(fd int)) {
	if f == nil {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { fn(int(fd)) }) // fails only on a closed file: then fn does not run
}
