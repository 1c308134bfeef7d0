package capture

import (
	"os"
	"sync"
	"syscall"
	"time"
)

// supervisor watches the started command until it is reaped, in every
// mode: it passes on the signals that reach rac (by the mode's rule),
// follows the command's stops where the mode asks, and ends the command
// at the timeout.
//
// The timeout's rule is the same in every mode: SIGTERM to the command's
// whole tree (process.signalTree: the command, its own process group when
// it leads one, and each descendant by pid, each once), then SIGKILL to
// the tree as it is then, KillAfter later. What a user stops with
// --timeout is "the command", everything it started included (timeout(1)
// runs its command in a process group of its own and signals that
// group); rac's own group is never signalled, as it may hold the
// caller's shell.
type supervisor struct {
	proc *process
	// relay passes on a signal that reached rac, by the mode's rule
	relay func(sig syscall.Signal)
	// stopped, when set, carries the command's stops (pty and pipe mode), each
	// handled by onStopped before the next signal is looked at
	stopped   <-chan struct{}
	onStopped func()

	// contain (RunOptions.Contain): a SIGTERM to rac is passed on as
	// ever, and containGrace later everything below rac is killed
	contain bool

	timeout   time.Duration // 0: none
	killAfter time.Duration // after the timeout's SIGTERM, SIGKILL; 0: none
	timer     timerFunc     // nil: newTimer
	stopping  *stopNotice
}

// timerFunc starts a timer of d: a channel that gets one value when it
// fires, and the function that stops it. Tests fire their own.
type timerFunc func(d time.Duration) (<-chan time.Time, func())

func newTimer(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// start returns a timer of d, or a channel that never fires when d is 0.
func (s *supervisor) start(d time.Duration) (<-chan time.Time, func()) {
	if d <= 0 {
		return nil, func() {}
	}
	if s.timer != nil {
		return s.timer(d)
	}
	return newTimer(d)
}

// run supervises until the command is reaped; it reports whether the
// timeout fired.
func (s *supervisor) run(sigs <-chan os.Signal) (timedOut bool) {
	timeout, stopTimeout := s.start(s.timeout)
	defer stopTimeout()
	var killAfter, contained <-chan time.Time
	for {
		select {
		case sig := <-sigs:
			s.stopping.saw(sig.(syscall.Signal))
			s.relay(sig.(syscall.Signal))
			if s.contain && sig == syscall.SIGTERM && contained == nil {
				var stop func()
				contained, stop = s.start(containGrace)
				defer stop()
			}
		case <-contained:
			killLeft()
		case <-s.stopped:
			s.onStopped()
		case <-s.proc.done:
			return timedOut
		case <-timeout:
			timeout, timedOut = nil, true
			s.proc.signalTree(syscall.SIGTERM)
			var stopKill func()
			killAfter, stopKill = s.start(s.killAfter)
			defer stopKill()
		case <-killAfter:
			killAfter = nil
			s.proc.signalTree(syscall.SIGKILL)
		}
	}
}

// stopNotice calls RunOptions.OnStopping once, for the first signal that
// asks rac to end (SIGTERM, SIGHUP, SIGINT), in a goroutine of its own,
// so the recording says so at once, before a harness's SIGKILL can
// follow; wait waits for it.
type stopNotice struct {
	fn   func(syscall.Signal)
	once sync.Once
	wg   sync.WaitGroup
}

func (n *stopNotice) saw(sig syscall.Signal) {
	if n.fn == nil || sig != syscall.SIGTERM && sig != syscall.SIGHUP && sig != syscall.SIGINT {
		return
	}
	n.once.Do(func() {
		n.wg.Add(1)
		go func() { defer n.wg.Done(); n.fn(sig) }()
	})
}

func (n *stopNotice) wait() { n.wg.Wait() }
