package app

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
)

func TestExitStatus(t *testing.T) {
	wrapped := func(err error) error { return fmt.Errorf("rac out read: %w", err) }
	for _, tc := range []struct {
		name     string
		err      error
		out, run int // rac out's status, rac run's
	}{
		{"ok", nil, 0, 0},
		{"chosen by the command", wrapped(ExitCode{Code: 3}), 3, 3},
		{"not found", &resolve.NotFoundError{Session: "s"}, 1, 125},
		{"expired", wrapped(&resolve.ExpiredError{Session: "s"}), 1, 125},
		{"usage", Usagef("bad flag"), 2, 125},
		{"invalid reference", wrapped(resolve.ErrInvalid), 2, 125},
		{"ambiguous reference", resolve.ErrAmbiguous, 2, 125},
		{"invalid session name", session.ErrInvalidName, 2, 125},
		{"any other failure", errors.New("disk full"), 1, 125},
	} {
		assert.Equal(t, tc.out, ExitStatus(tc.err, false), "rac out: %s", tc.name)
		assert.Equal(t, tc.run, ExitStatus(tc.err, true), "rac run: %s", tc.name)
	}
}

func TestExitCodeError(t *testing.T) {
	inner := errors.New("no match")
	assert.Equal(t, "exit 2", ExitCode{Code: 2}.Error())
	assert.Equal(t, "no match", ExitCode{Code: 2, Err: inner}.Error())
	assert.ErrorIs(t, ExitCode{Code: 2, Err: inner}, inner)
	assert.Equal(t, "killed by interrupt", SignalExit{Sig: syscall.SIGINT}.Error())
}

func TestRunExit(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  RunResult
		want error
	}{
		{"exit 0", RunResult{Outcome: Outcome{Status: StatusExited}}, nil},
		{"the child's status", RunResult{Outcome: Outcome{Status: StatusExited, ExitCode: 3}}, ExitCode{Code: 3}},
		{"not found", RunResult{Outcome: Outcome{Status: StatusFailedToStart, ExitCode: ExitNoCommand}}, ExitCode{Code: 127}},
		{"signal", RunResult{Outcome: Outcome{Status: StatusSignaled, Signal: "SIGTERM"}}, SignalExit{Sig: syscall.SIGTERM}},
		{"a signal without a name", RunResult{Outcome: Outcome{Status: StatusSignaled, sig: syscall.Signal(40)}}, SignalExit{Sig: syscall.Signal(40)}},
		{"timeout", RunResult{Outcome: Outcome{Status: StatusTimedOut, ExitCode: -1}}, ExitCode{Code: 124}},
		{"output lost, child exited 0", RunResult{Outcome: Outcome{Status: StatusExited}, ForwardFailed: true}, ExitCode{Code: 1}},
		{"output lost, child died of rac's SIGPIPE", RunResult{Outcome: Outcome{Status: StatusSignaled, Signal: "SIGPIPE"}, ForwardFailed: true},
			ExitCode{Code: 1}},
		{"output lost, child failed anyway", RunResult{Outcome: Outcome{Status: StatusExited, ExitCode: 2}, ForwardFailed: true}, ExitCode{Code: 2}},
		{"output lost, child killed", RunResult{Outcome: Outcome{Status: StatusSignaled, Signal: "SIGKILL"}, ForwardFailed: true},
			SignalExit{Sig: syscall.SIGKILL}},
	} {
		assert.Equal(t, tc.want, RunExit(tc.res), tc.name)
	}
}

func TestGrepExit(t *testing.T) {
	failed := errors.New("read: damaged")
	assert.NoError(t, GrepExit(2, nil), "a match")
	assert.Equal(t, ExitCode{Code: 1}, GrepExit(0, nil), "no match: 1, nothing printed")
	assert.Equal(t, ExitCode{Code: 2, Err: failed}, GrepExit(1, failed), "an error is 2, and printed")
	assert.Equal(t, ExitCode{Code: 2, Err: Usagef("x")}, GrepExit(0, Usagef("x")))
	chosen := ExitCode{Code: 3}
	assert.Equal(t, chosen, GrepExit(0, chosen), "a status already chosen stays")
	assert.Equal(t, 2, ExitStatus(GrepExit(0, &resolve.NotFoundError{Session: "s"}), false), "not found is 2 for grep")
}

func TestDoctorExit(t *testing.T) {
	assert.NoError(t, DoctorExit([]Check{{Status: CheckOK}, {Status: CheckWarn}}))
	assert.Equal(t, ExitCode{Code: 1}, DoctorExit([]Check{{Status: CheckOK}, {Status: CheckFail}}))
}

func TestRemoveExit(t *testing.T) {
	kept := gc.NewResult(false)
	kept.Kept = []gc.Kept{{Ref: "s/0001-make", Why: "running"}}
	failed := gc.NewResult(false)
	failed.Errors = []string{"remove s/0002-x: permission denied"}
	for _, tc := range []struct {
		name string
		res  RemoveResult
		want error
	}{
		{"all removed", RemoveResult{Results: []*gc.Result{gc.NewResult(false)}}, nil},
		{"one not found", RemoveResult{RefErrors: []error{&resolve.NotFoundError{Session: "s"}}}, ExitCode{Code: 1}},
		{"invalid wins", RemoveResult{RefErrors: []error{&resolve.NotFoundError{Session: "s"}, resolve.ErrInvalid}}, ExitCode{Code: 2}},
		{"running, kept", RemoveResult{Results: []*gc.Result{gc.NewResult(false), kept}}, ExitCode{Code: 1}},
		{"not removed", RemoveResult{Results: []*gc.Result{failed}}, ExitCode{Code: 1}},
		{"a store failed", RemoveResult{Errors: []error{errors.New("locked")}}, ExitCode{Code: 1}},
	} {
		assert.Equal(t, tc.want, RemoveExit(tc.res), tc.name)
	}
}
