package capture

import "github.com/rac-cli/rac/internal/runspec"

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

// Choose returns the mode to run in: requested, unless it is runspec.ModeAuto (or
// empty). Passthrough comes first, for a person at a terminal running an
// interactive program; then pty, for a person at a terminal; pipe for
// everything else, agents first of all: what an agent reads must be the
// command's plain output, and an agent gives the command no terminal.
func Choose(requested runspec.Mode, in Terminal) runspec.Mode {
	if requested != runspec.ModeAuto && requested != "" {
		return requested
	}
	switch {
	case in.Agent:
		return runspec.ModePipe
	case in.StdinTerminal && in.StdoutTerminal && in.Interactive:
		return runspec.ModePassthrough
	case in.StdoutTerminal && in.Foreground:
		return runspec.ModePTY
	}
	return runspec.ModePipe
}
