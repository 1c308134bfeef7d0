package app

import (
	"errors"
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
)

// Exit statuses of rac run that are rac's own; every other status of rac
// run is the child's. capture sets 126 and 127 in the outcome of a command
// that failed to start; they are named here so that every status rac
// documents is in one place.
const (
	ExitTimeout       = 124
	ExitRacFailed     = 125
	ExitNotExecutable = 126
	ExitNoCommand     = 127
)

// Exit statuses of rac out (and of the other commands but rac run).
const (
	ExitOK       = 0
	ExitNotFound = 1 // not found, expired; for grep: no match
	ExitUsage    = 2 // usage errors, invalid or ambiguous references; any grep failure
)

// ExitCode carries a status chosen by the command itself.
type ExitCode struct {
	Code int
	Err  error // nil: nothing more to print
}

func (e ExitCode) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}
func (e ExitCode) Unwrap() error { return e.Err }

// SignalExit asks the front end to end rac by the child's signal (which
// only the process itself can do: cmd/rac re-raises it).
type SignalExit struct{ Sig syscall.Signal }

func (e SignalExit) Error() string { return "killed by " + e.Sig.String() }

// ExitStatus is the one place errors become exit statuses. runCmd tells
// whether the error came from rac run (whose own failures are 125) or from
// another command (rac out, rac session).
func ExitStatus(err error, runCmd bool) int {
	var ce ExitCode
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ce):
		return ce.Code
	case runCmd:
		return ExitRacFailed
	case errors.Is(err, resolve.ErrExpired):
		return ExitNotFound
	case IsUsage(err),
		errors.Is(err, resolve.ErrInvalid),
		errors.Is(err, resolve.ErrAmbiguous),
		errors.Is(err, session.ErrInvalidName):
		return ExitUsage
	default:
		return ExitNotFound
	}
}

// RunExit is rac run's exit status as an error (nil for 0): the command's
// own, except that a failed write to rac's own stdout or stderr (disk
// full, EIO) is 1 when the command then died of the SIGPIPE rac gave it,
// or still exited 0 (its output did not all arrive).
func RunExit(res RunResult) error {
	out := res.Outcome
	if res.ForwardFailed && (out.Status == StatusExited && out.ExitCode == 0 ||
		out.Status == StatusSignaled && out.Signal == "SIGPIPE") {
		return ExitCode{Code: 1}
	}
	switch out.Status {
	case StatusFailedToStart:
		return ExitCode{Code: out.ExitCode}
	case StatusSignaled, StatusCancelled:
		sig := out.sig
		if sig == 0 {
			sig = unix.SignalNum(out.Signal)
		}
		return SignalExit{Sig: sig}
	case StatusTimedOut:
		return ExitCode{Code: ExitTimeout}
	}
	if out.ExitCode == 0 {
		return nil
	}
	return ExitCode{Code: out.ExitCode}
}

// DoctorExit is rac doctor's status: 1 when a check failed, else 0.
func DoctorExit(checks []Check) error {
	for _, ch := range checks {
		if ch.Status == CheckFail {
			return ExitCode{Code: ExitNotFound}
		}
	}
	return nil
}

// RemoveExit is the status of rac out rm and purge: 2 when a reference
// was invalid or ambiguous (and so nothing was removed), else 1 when a
// reference was not found or expired, a recording is running or could
// not be removed, else 0.
func RemoveExit(res RemoveResult) error {
	status := ExitOK
	for _, err := range res.RefErrors {
		status = max(status, ExitStatus(err, false))
	}
	if len(res.Errors) > 0 {
		status = max(status, ExitNotFound)
	}
	for _, r := range res.Results {
		if len(r.Kept) > 0 || len(r.Errors) > 0 {
			status = max(status, ExitNotFound)
		}
	}
	if status == ExitOK {
		return nil
	}
	return ExitCode{Code: status}
}

// GrepExit is rac out grep's status for the search's hits and error: 1
// for no match (nothing printed), and 2 for any error, never 1, which
// would read as no match.
func GrepExit(hits int, err error) error {
	var ce ExitCode
	switch {
	case err == nil && hits == 0:
		return ExitCode{Code: ExitNotFound}
	case err == nil, errors.As(err, &ce):
		return err
	}
	return ExitCode{Code: ExitUsage, Err: err}
}
