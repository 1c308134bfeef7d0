package capture

import (
	"os"

	"github.com/rac-cli/rac/internal/interactive"
	"golang.org/x/sys/unix"
)

// Mode is how Run connects the command to rac's streams.
type Mode string

// Capture modes. The zero Mode is pipe mode.
const (
	// ModeAuto asks Choose to pick one of the others.
	ModeAuto Mode = "auto"
	// ModePipe gives the command pipes for stdout and stderr: the
	// recording has both streams, apart. What agents get.
	ModePipe Mode = "pipe"
	// ModePTY gives the command a pseudo-terminal of the size of rac's
	// terminal in place of each of its standard streams that is that
	// terminal: it sees a terminal, as without rac, and the recording
	// holds one combined stream, full-screen spans left out.
	ModePTY Mode = "pty"
	// ModePassthrough hands the command rac's own streams untouched:
	// nothing is copied and the recording holds metadata only. For
	// programs that are all terminal (editors, pagers, REPLs).
	ModePassthrough Mode = "passthrough"
)

// Terminal holds the facts Choose decides on.
type Terminal struct {
	StdinTerminal  bool // rac's stdin is a terminal
	StdoutTerminal bool // rac's stdout is a terminal
	// Foreground: rac is in its terminal's foreground process group (not
	// a background job, not in a pipeline's background)
	Foreground bool
	Agent      bool // rac runs under a coding agent
	// Interactive: the command is a program that is all terminal (see
	// interactive.Is)
	Interactive bool
}

// Choose returns the mode to run in: requested, unless it is ModeAuto (or
// empty). Passthrough comes first, for a person at a terminal running an
// interactive program; then pty, for a person at a terminal; pipe for
// everything else, agents first of all: what an agent reads must be the
// command's plain output, and an agent gives the command no terminal.
func Choose(requested Mode, in Terminal) Mode {
	if requested != ModeAuto && requested != "" {
		return requested
	}
	switch {
	case in.Agent:
		return ModePipe
	case in.StdinTerminal && in.StdoutTerminal && in.Interactive:
		return ModePassthrough
	case in.StdoutTerminal && in.Foreground:
		return ModePTY
	}
	return ModePipe
}

// IsTerminal reports whether f is a terminal. A nil f is not.
func IsTerminal(f *os.File) bool {
	ok := false
	withFd(f, func(fd int) {
		_, err := getTermios(fd)
		ok = err == nil
	})
	return ok
}

// InForeground reports whether rac is in the foreground process group of
// the terminal f (false when f is no terminal).
func InForeground(f *os.File) bool {
	fg := false
	withFd(f, func(fd int) {
		pgrp, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		fg = err == nil && pgrp == unix.Getpgrp()
	})
	return fg
}

// withFd calls fn with f's descriptor, through SyscallConn: f.Fd would
// switch the file to blocking mode.
func withFd(f *os.File, fn func(fd int)) {
	if f == nil {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) { fn(int(fd)) })
}

// IsInteractive reports whether argv runs a program that is all terminal
// (interactive.Is, which callers that need no terminal handling call
// directly: it links no pty library). Kept for the callers of capture.
func IsInteractive(argv []string, getenv func(string) string, extra []string) bool {
	return interactive.Is(argv, getenv, extra)
}
