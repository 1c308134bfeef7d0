package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"syscall"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
)

// Exit statuses of rac run that are rac's own; every other status of rac
// run is the child's.
const (
	exitTimeout       = 124
	exitRacFailed     = 125
	exitNotExecutable = 126
	exitNotFound      = 127
)

// Exit statuses of rac out.
const (
	exitOK        = 0
	exitNotFound1 = 1 // not found, expired; for grep: no match
	exitUsage     = 2 // usage errors, invalid or ambiguous references; any grep failure
)

// usageError marks a bad flag or value: 125 for rac run, 2 for rac out.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitCodeError carries a status chosen by the command itself.
type exitCodeError struct {
	code int
	err  error // nil: nothing more to print
}

func (e exitCodeError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e exitCodeError) Unwrap() error { return e.err }

// signalExit asks Main to end rac by the child's signal.
type signalExit struct{ sig syscall.Signal }

func (e signalExit) Error() string { return "killed by " + e.sig.String() }

// exitStatus is the one place errors become exit statuses. runCmd tells
// whether the error came from rac run (whose own failures are 125) or from
// another command (rac out, rac session).
func exitStatus(err error, runCmd bool) int {
	var ce exitCodeError
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ce):
		return ce.code
	case runCmd:
		return exitRacFailed
	case errors.Is(err, resolve.ErrExpired):
		return exitNotFound1
	case errors.As(err, &ue),
		errors.Is(err, resolve.ErrInvalid),
		errors.Is(err, resolve.ErrAmbiguous),
		errors.Is(err, session.ErrInvalidName):
		return exitUsage
	default:
		return exitNotFound1
	}
}

// hint is the command an error message suggests next; cmdPath is the
// command that failed (for its --help).
func hint(err error, cmdPath string) string {
	var ue usageError
	switch {
	case errors.Is(err, resolve.ErrNotFound) && strings.Contains(err.Error(), "no session \""):
		return "run 'rac out list --all-sessions' to see every session"
	case errors.Is(err, resolve.ErrNotFound) && strings.Contains(err.Error(), "has no recordings yet"):
		return "this shell may be in another session than the one that ran the command: use the SESSION/NAME that rac run printed, or run 'rac session --explain'"
	case errors.Is(err, resolve.ErrExpired):
		return expiredHint(err)
	case errors.Is(err, resolve.ErrNotFound), errors.Is(err, resolve.ErrAmbiguous):
		return "run 'rac out list' to see the recordings of this session, or 'rac out list --all-sessions'"
	case errors.Is(err, resolve.ErrInvalid):
		return "a reference is SESSION/NAME as printed by rac run, a number like 42, a name prefix, or last"
	case errors.Is(err, session.ErrInvalidName):
		return "pick a name like my-task-1"
	case errors.As(err, &ue):
		return "run '" + cmdPath + " --help' for the usage and examples"
	case errors.Is(err, record.ErrNewerFormat):
		return "install a newer rac to read it"
	}
	return ""
}

// printError writes err as one "rac:" line (control characters escaped),
// then a hint line when there is one.
func printError(w io.Writer, err error, cmdPaths ...string) {
	cmdPath := "rac"
	if len(cmdPaths) > 0 {
		cmdPath = cmdPaths[0]
	}
	var ce exitCodeError
	if errors.As(err, &ce) && ce.err == nil {
		return
	}
	fmt.Fprintf(w, "rac: %s\n", escapeControl(strings.TrimSpace(err.Error())))
	if h := hint(err, cmdPath); h != "" {
		fmt.Fprintf(w, "rac: hint: %s\n", h)
	}
}
