package app

import (
	"errors"
	"os/exec"

	"golang.org/x/sys/unix"
)

// MinOpenFiles is how many open files rac run needs to record a command:
// its standard streams, the Go runtime's poller (an epoll and an eventfd),
// the command's pipes, the store's and the session's folder handles, the
// session lock, the counter and the recording's files, and the signal
// witness's pipe (pipe mode) or the pseudo-terminal and its wake pipes (pty
// mode). Measured with ulimit -n on Linux (the fault suite's row runs 3 to
// 40): a recording of echo into one pipe (2>&1) needed 16, with stdout and
// stderr apart 19 (18: "pipe2: too many open files", the command never
// ran), a command that runs long enough for the witness 21 (20: the
// recording broken off), pty mode 20; 32 leaves room. Below it the Go
// runtime may not even start its poller (it throws, unrecoverably,
// "eventfd failed" at the first open file), so rac looks before it opens
// anything.
const MinOpenFiles = 32

// OpenFileLimit is how many files this process may have open (the soft
// RLIMIT_NOFILE, which Go's runtime has already raised to the hard one);
// ok is false when it cannot be read.
func OpenFileLimit() (limit uint64, ok bool) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return 0, false
	}
	return rl.Cur, true
}

// ErrTooFewFiles says the open-file limit is below MinOpenFiles.
var ErrTooFewFiles = errors.New("too few open files allowed")

// ExecUnrecorded replaces rac with argv, run as without rac: what rac run
// does when it cannot record at all (too few open files). It returns only
// when the command cannot be started, with the status rac run gives that
// (127 not found, 126 not executable) in an *ExecError.
func ExecUnrecorded(argv []string, environ []string) error {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return &ExecError{Status: ExitNoCommand, Err: err}
	}
	err = unix.Exec(path, argv, environ)
	return &ExecError{Status: ExitNotExecutable, Err: err}
}

// ExecError is a command ExecUnrecorded could not start.
type ExecError struct {
	Status int
	Err    error
}

func (e *ExecError) Error() string { return e.Err.Error() }
func (e *ExecError) Unwrap() error { return e.Err }
