// Package racrecord lets a Go program that captures a command's output
// itself (a remote runner reading a builder's response stream, a build
// system, an orchestrator that runs tools through its own API) make a
// rac recording of it: the same recording rac run and rac record make, in
// the same store, with the same locks, cap, redaction and garbage
// collection, read back with rac out read, grep, explain and list.
//
// The life of a recording:
//
//	rec, err := racrecord.Open(ctx, racrecord.Options{Argv: argv})
//	// publish rec.Ref() at once: before preparing, connecting, waiting
//	rec.Write(chunk) // raw bytes as they arrive, before any parsing
//	// then one of:
//	rec.Finish(racrecord.Exited(code)) // or TimedOut(), TransportError(why), Cancelled()
//	rec.Abandon()                      // no outcome known: reads "incomplete"
//
// The outcome is what the program states, never a guess: only Exited
// carries an exit status, and only Exited(0) reads as a success. A
// program that dies before Finish or Abandon leaves the recording
// incomplete, as a rac that was killed does.
//
// Compatibility: this is v0. Until rac tags v1, the names here may change
// between minor versions, each change said in the release notes; the
// recordings it makes are rac's on-disk format, which every later rac
// reads.
//
// It never prints: what the user should know (a fallback store, a bad
// setting) goes to Options.Warn.
package racrecord

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/wiring"
)

// Options say what a recording is of and where it goes.
type Options struct {
	// Session is the session to record into; "": the current session as
	// rac finds it (RAC_SESSION, the agent harness, the terminal).
	Session string
	// Argv is the command whose output is captured, as run (it is
	// stored redacted, like rac run's).
	Argv []string
	// Description describes the command when there is no argv to give
	// ("cargo build --remote"): stored word by word, like argv.
	Description string
	// Cwd is where the command runs; "": this program's working folder.
	Cwd string
	// Getenv is the environment rac's settings and session are read from;
	// nil: os.Getenv.
	Getenv func(string) string
	// Warn gets each line the user should know (a bad setting, a
	// fallback store), already redacted; nil: dropped.
	Warn func(msg string)
}

// ErrFinished is Write's error after Finish or Abandon.
var ErrFinished = errors.New("racrecord: the recording is finished")

// Recording is one recording being made. Its methods may be called from
// several goroutines; Write keeps the order of the calls.
type Recording struct {
	a   *app.App
	rec *app.Recording
	w   io.Writer

	mu   sync.Mutex
	done bool
}

// Open creates the recording and publishes it: from now on rac out list
// shows it running and Ref names it. Errors are rac's (the store cannot
// be written, a bad setting, a bad session name).
func Open(ctx context.Context, o Options) (*Recording, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	// a bad setting costs a warning and its default, as in rac run
	s, gcOff, err := wiring.Load(config.Options{Getenv: getenv}, true, false, func(problem error, then string) {
		warn(problem.Error() + "; " + then)
	})
	if err != nil {
		return nil, err
	}
	for _, w := range s.Warnings {
		warn(w.String())
	}
	env := app.Env{Getenv: getenv, Environ: os.Environ, Now: time.Now, Version: app.Version}
	a := app.New(env, wiring.Settings(s, o.Session, gcOff))
	a.Warn, a.Note = warn, func(string) {}
	argv := o.Argv
	if len(argv) == 0 {
		argv = strings.Fields(o.Description)
	}
	rec, err := a.CreateRecording(ctx, app.RecordingRequest{
		Argv: argv, Cwd: o.Cwd, Streams: []string{app.StreamCombined}, Mode: app.RecordCombined,
		Source: app.SourceAPI,
	})
	if err != nil {
		return nil, err
	}
	for _, w := range rec.Warnings() {
		warn(w)
	}
	w, err := rec.Stream(app.StreamCombined)
	if err != nil {
		return nil, errors.Join(err, rec.Abandon())
	}
	return &Recording{a: a, rec: rec, w: w}, nil
}

// Ref is the recording's qualified reference, SESSION/NAME: what rac out
// read takes from any shell.
func (r *Recording) Ref() string { return r.rec.Ref() }

// Write stores p, raw bytes of the command's output as they arrived. A
// failing store never fails the writer: the recording notes that it
// broke off, and Finish reports it. After Finish or Abandon it returns
// ErrFinished.
func (r *Recording) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return 0, ErrFinished
	}
	return r.w.Write(p)
}

// Outcome is how the command ended, as the program knows it: make one
// with Exited, TimedOut, TransportError or Cancelled. The zero Outcome
// states none: the recording reads "stream ended", with no exit status.
type Outcome struct {
	status string
	code   int
	reason string
}

// Exited is the outcome of a command that ended with an exit status.
func Exited(code int) Outcome { return Outcome{status: app.StatusExited, code: code} }

// TimedOut is the outcome of a command the program stopped waiting for:
// no exit status.
func TimedOut() Outcome { return Outcome{status: app.StatusTimedOut} }

// TransportError is the outcome of a command whose output stream the
// program lost (a connection dropped): no exit status; reason says why.
func TransportError(reason string) Outcome {
	return Outcome{status: app.StatusTransportError, reason: reason}
}

// Cancelled is the outcome of a command the program gave up on: no exit
// status.
func Cancelled() Outcome { return Outcome{status: app.StatusCancelled} }

// Finish writes the outcome and ends the recording. The error says the
// recording broke off (what it holds is short) or was finished already.
func (r *Recording) Finish(o Outcome) error {
	if !r.end() {
		return ErrFinished
	}
	out := app.Outcome{Status: o.status, ExitCode: o.code, From: app.FromAPI}
	if o.status == "" {
		out.Status = app.StatusStreamEnded
	}
	if o.reason != "" {
		out.Notes = []string{"transport error: " + o.reason}
	}
	err := r.rec.Finish(out)
	r.a.AutoGC(context.Background())
	return err
}

// Abandon ends the recording without an outcome: what it holds stays
// readable and it reads "incomplete", for a program that does not know
// how the command ended.
func (r *Recording) Abandon() error {
	if !r.end() {
		return ErrFinished
	}
	return r.rec.Abandon()
}

func (r *Recording) end() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.done {
		return false
	}
	r.done = true
	return true
}
