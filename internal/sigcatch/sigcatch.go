// Package sigcatch catches rac run's signals, starting as early as a Go
// program can: from this package's initialiser, which the Go runtime runs
// before most of rac's other packages (it imports only the standard
// library).
//
// Why: os/signal installs each signal with a round trip to the runtime's
// signal thread, about 0.1 ms a signal and 0.9 ms for rac run's nine
// (measured with probes on this project's 2-core machine; the largest
// single part of rac run's own start-up). Started in the background at
// init it overlaps the rest of start-up (package initialisers, settings,
// session, store, the recording), and the signals whose default action
// would end rac are in place before the command starts; SIGCONT and
// SIGWINCH, whose defaults lose nothing (continue, ignore), follow.
package sigcatch

import (
	"os"
	"os/signal"
	"syscall"
)

// Fatal are caught before the command starts, so none sent after that is
// missed: the signals that end commands in practice, a harness's or a
// terminal's stop (TERM, HUP, INT), Ctrl-\ (QUIT, which uncaught would end
// rac with a goroutine dump on the command's stderr) and a closed output
// (PIPE).
var Fatal = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGPIPE}

// Later are caught after Fatal, while the command starts. CONT and WINCH
// lose nothing while they are not yet caught (their defaults continue and
// ignore). USR1 and USR2 are ignored by Go's runtime until then: one sent
// in the command's first fraction of a millisecond is dropped (without
// rac it would reach the command, which at that moment has most often not
// installed its handler either, and die of it). Waiting for them too cost
// every command two more round trips to the runtime's signal thread
// before it starts (measured here: the command's start waited 0.07 to
// 0.44 ms for the signals in half the runs).
var Later = []os.Signal{syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGCONT, syscall.SIGWINCH}

// Signals are the signals one rac run catches, on one channel.
type Signals struct {
	C     chan os.Signal
	fatal chan struct{}
	all   chan struct{}
}

// Catch starts catching Fatal and then Later, in the background. A signal
// that was ignored when rac started (SIGHUP under nohup, SIGINT and SIGQUIT
// for a background job of a script) stays ignored, so the command inherits
// that as it would without rac.
func Catch() *Signals {
	s := &Signals{C: make(chan os.Signal, 32), fatal: make(chan struct{}), all: make(chan struct{})}
	fatal, later := notIgnored(Fatal), notIgnored(Later)
	go func() {
		signal.Notify(s.C, fatal...)
		close(s.fatal)
		signal.Notify(s.C, later...)
		close(s.all)
	}()
	return s
}

func notIgnored(sigs []os.Signal) []os.Signal {
	var out []os.Signal
	for _, sig := range sigs {
		if !signal.Ignored(sig) {
			out = append(out, sig)
		}
	}
	return out
}

// Fatal returns the channel once the signals that would end rac are caught.
func (s *Signals) Fatal() chan os.Signal {
	<-s.fatal
	return s.C
}

// All returns the channel once every signal is caught (pty mode follows
// resizes from the first moment).
func (s *Signals) All() chan os.Signal {
	<-s.all
	return s.C
}

// Stop ends the catching: the signals go back to how rac found them. It
// returns at once and the round trips happen in the background, off the
// path of rac's exit; a signal that arrives meanwhile is dropped (rac is
// about to exit, and its own re-raise of a signal resets that one first).
func (s *Signals) Stop() {
	go func() {
		<-s.all
		signal.Stop(s.C)
	}()
}

// early is what init started for a process run as "rac run ..."; Early
// hands it out once.
var early *Signals

func init() {
	if len(os.Args) > 1 && os.Args[1] == "run" {
		early = Catch()
	}
}

// Early returns the signals init started catching for "rac run", once;
// nil for any other command line (the caller then calls Catch).
func Early() *Signals {
	s := early
	early = nil
	return s
}
