package capture

import (
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/sigcatch"
)

// relayed are the signals rac passes on to the command when they reached
// rac's pid alone. Sent to the process group (by a terminal, a shell's
// kill -- -PGID, timeout(1), a harness's tree kill) they already reached the
// command from the kernel, which stays in rac's group: rac then sends
// nothing, so the command gets each signal exactly once.
//
// The stop signals are not among them: pipe and pty mode catch their own
// (pipeStops), passthrough leaves them at their default.
var relayed = []os.Signal{
	syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT,
	syscall.SIGCONT, syscall.SIGWINCH, syscall.SIGUSR1, syscall.SIGUSR2,
}

// pipeStops are the stop signals pipe and pty mode catch and pass on by
// relayed's rule, so that `kill -TSTP` (or -TTIN) of rac's pid alone
// stops the command, as it would without rac, instead of stopping rac
// while the command runs on; rac then stops because the command stopped
// (stopFollower), and SIGCONT to rac is passed on as ever. The terminal's
// Ctrl-Z reaches the group: the command stops, and rac follows it. A
// command that catches or ignores the signal keeps running, and so does
// rac, as with the command alone. SIGTTOU stays at its default: rac is
// the one writing the terminal, and a caught SIGTTOU makes the kernel
// restart a background write (TOSTOP) and signal again, without end
// while the command ignores it.
var pipeStops = []os.Signal{syscall.SIGTSTP, syscall.SIGTTIN}

// catchStops starts catching pipeStops on c, in the background (a round
// trip to the runtime's signal thread each, kept off the command's start
// as sigcatch does: one that comes first stops rac alone, as before);
// not those ignored when rac started, which the command inherits so. The
// returned channel is closed once they are caught.
func catchStops(c chan os.Signal) <-chan struct{} {
	done := make(chan struct{})
	var stops []os.Signal
	for _, sig := range pipeStops {
		if canRaiseStop && !signal.Ignored(sig) {
			stops = append(stops, sig)
		}
	}
	if len(stops) == 0 {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		signal.Notify(c, stops...)
	}()
	return done
}

// Signals are the signals Run catches (sigcatch): those pipe mode relays
// and SIGPIPE, which is also what pty mode needs (it follows SIGWINCH and
// SIGCONT itself); passthrough takes the same and leaves SIGPIPE, SIGWINCH
// and SIGCONT alone.
type Signals = sigcatch.Signals

// CatchSignals starts catching the signals Run handles, in the background
// (see sigcatch for why). Stop ends it.
func CatchSignals() *Signals { return sigcatch.Catch() }

// caughtFor is o.Signals, or signals caught now (with the stop to defer),
// once those that would end rac are in place (all of them for pty mode).
func caughtFor(o RunOptions, all bool) (chan os.Signal, func()) {
	s, stop := o.Signals, func() {}
	if s == nil {
		s = CatchSignals()
		stop = s.Stop
	}
	if all {
		return s.All(), stop
	}
	return s.Fatal(), stop
}

// relay decides, signal by signal and in the order they reached rac,
// whether rac passes one on. It runs in one goroutine: a signal is
// decided before the next is looked at.
//
// Limits: a signal to rac's pid alone reaches the command SignalSettle
// late; a sender that pauses longer than SignalSettle between its kill of
// the group and its kill of rac's pid delivers two, and two kills of
// rac's pid alone within it deliver one (as a pending signal would).
// SIGTTOU and SIGSTOP to rac's pid alone stop rac, not the command (which
// runs on until its pipe is full); SIGKILL to rac alone kills the command
// on Linux (Pdeathsig), not its own children.
type relay struct {
	wit     *asyncWitness
	w       *witness // nil: no way to tell, every signal is passed on
	settle  time.Duration
	proc    *process
	groupAt map[syscall.Signal]time.Time // when a signal last showed it reached the group
	stops   *stopFollower                // pipe and pty mode: which stop signals to look at
}

func (r *relay) handle(sig syscall.Signal) {
	if sig == syscall.SIGPIPE {
		return // a write to a closed stdout: the pump sees EPIPE and handles it
	}
	if r.stops != nil && slices.Contains(pipeStops, os.Signal(sig)) && !r.stops.claim(sig) {
		return
	}
	r.w = r.wit.get()
	if r.w == nil {
		r.pass(sig)
		return
	}
	// A sender that signals both the group and a pid (timeout(1) signals
	// its child, then its group; a harness its group, then every pid)
	// reaches rac twice and the witness once: a second copy within the
	// settle time of a group signal is part of it.
	if t, ok := r.groupAt[sig]; ok && time.Since(t) < r.settle {
		if r.w.reachedGroup(sig, 0) {
			r.groupAt[sig] = time.Now()
		}
		return
	}
	if r.w.reachedGroup(sig, r.settle) {
		if r.groupAt == nil {
			r.groupAt = map[syscall.Signal]time.Time{}
		}
		r.groupAt[sig] = time.Now()
		return
	}
	r.pass(sig)
}

// pass passes sig on to the command, as a signal sent to rac alone. A
// SIGCONT is not passed on while the command has a stop rac has yet to
// follow (stopFollower.unfollowed): that stop came after the SIGCONT,
// whose copy at the witness the stop signal took with it (the kernel
// drops a pending SIGCONT when a stop signal comes), so rac could not
// tell the SIGCONT had reached the group, and passing it on would undo
// the newer stop. fg, then Ctrl-Z at once on a loaded machine, did so:
// the command ran on and rac never stopped.
func (r *relay) pass(sig syscall.Signal) {
	if sig == syscall.SIGCONT && r.stops != nil && r.stops.unfollowed() {
		return
	}
	r.proc.signal(sig)
}

// stopSelf stops rac because the command stopped, with the same signal,
// so the shell that started rac sees its job stopped (and the words
// "Stopped (tty input)" and the like match), by the signal's default
// action even where rac catches it (raiseStop). A stop signal rac ignores
// (a shell without job control) would do nothing: SIGSTOP then.
func stopSelf(sig syscall.Signal) {
	switch sig {
	case syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU:
		if !signal.Ignored(sig) {
			break
		}
		fallthrough
	default:
		sig = syscall.SIGSTOP
	}
	raiseStop(sig)
}

// asyncWitness is a witness started a moment after the command: most
// commands end before anyone signals them, and a witness costs a fork and
// an exec, so it is started only once the command has run for
// witnessDelay. A signal that reaches rac before the witness is in place
// is passed on as one sent to rac alone (a group signal in the command's
// first milliseconds can so reach it twice).
//
// Measured against a build without it (two cores, loaded, interleaved,
// CPU of rac and its children, medians): rac run -- true ends before the
// witness would start and pays nothing (5.10 against 5.15 ms of CPU, 400
// rounds); rac run -- sleep 0.02 pays 1.2 ms of CPU (8.55 against 7.32
// ms, 200 rounds) and no wall time (27.45 against 27.48 ms), the witness
// being started and ended off the command's path. No cheaper witness
// keeps the guarantee: it must be a process of its own (pending signals
// are kept per process) in rac's group with the relayed signals blocked,
// and a fork of rac without an exec cannot run Go code safely, so the
// cost is an exec of the smallest program every system has.
type asyncWitness struct {
	mu      sync.Mutex
	timer   *time.Timer
	ch      chan *witness
	started bool
	closed  bool
	once    sync.Once
	w       *witness
}

// witnessDelay is how long a command runs before rac starts its witness.
const witnessDelay = 5 * time.Millisecond

func startWitnessAsync() *asyncWitness {
	a := &asyncWitness{ch: make(chan *witness, 1)}
	a.timer = time.AfterFunc(witnessDelay, a.start)
	return a
}

func (a *asyncWitness) start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.started || a.closed {
		return
	}
	a.started = true
	go func() { a.ch <- startWitness() }()
}

// get returns the witness when it is in place, waiting for one being
// started; nil when there is none (yet).
func (a *asyncWitness) get() *witness {
	a.mu.Lock()
	started := a.started
	a.mu.Unlock()
	if !started {
		return nil
	}
	a.once.Do(func() { a.w = <-a.ch })
	return a.w
}

// close ends the witness without holding rac up (when rac exits first,
// the witness reads end of file and its parent-death signal ends it), or
// keeps it from starting.
func (a *asyncWitness) close() {
	a.mu.Lock()
	a.timer.Stop()
	started := a.started
	a.closed = true // no start after close
	a.mu.Unlock()
	if started {
		go func() { a.get().close() }()
	}
}

// stopFollower is pipe and pty mode's rule for the command's stops: a stop of
// the command that still holds stops rac too, as a shell's job stops. A
// stop that no longer holds came with rac's own (SIGSTOP to the group,
// then SIGCONT): rac was stopped by the kernel already. The waiter hands
// each stop (onStop) to the supervisor, which stops rac (follow) between
// two signals.
//
// It also tells the relay which stop signals (pipeStops) to pass on
// (claim). Ctrl-Z reaches rac and the command together; rac may follow
// the command's stop before it looks at its own copy of the signal, and
// the SIGCONT that ends the stop takes the witness's copy with it: rac
// could no longer tell the signal reached the group, and would stop the
// command again after fg. So a stop by a stop signal that came before
// rac looked at any copy of it is unmatched, and the next such signal
// rac looks at is taken as that stop's own; a signal rac looks at first
// is owed the stop it makes. Only the supervisor's goroutine reads and
// writes the counts.
type stopFollower struct {
	proc    *process
	stopped chan struct{}

	mu    sync.Mutex
	queue []syscall.Signal // the signals of the stops not yet followed

	owed, unmatched map[syscall.Signal]int
}

func newStopFollower(p *process) *stopFollower {
	f := &stopFollower{
		proc: p, stopped: make(chan struct{}, 1),
		owed: map[syscall.Signal]int{}, unmatched: map[syscall.Signal]int{},
	}
	p.onStop = f.onStop
	return f
}

// onStop runs on the waiter's thread.
func (f *stopFollower) onStop(ev stopEvent) {
	if !ev.stopped || ev.sig == 0 {
		return
	}
	f.mu.Lock()
	f.queue = append(f.queue, ev.sig)
	f.mu.Unlock()
	select {
	case f.stopped <- struct{}{}:
	default: // one is waiting already: it takes the whole queue
	}
}

// follow counts the stops that came and stops rac with the last one's
// signal, if the command is still stopped.
func (f *stopFollower) follow() {
	f.mu.Lock()
	q := f.queue
	f.queue = nil
	f.mu.Unlock()
	if len(q) == 0 {
		return
	}
	for _, sig := range q {
		switch {
		case f.owed[sig] > 0:
			f.owed[sig]--
		case slices.Contains(pipeStops, os.Signal(sig)):
			f.unmatched[sig]++
		}
	}
	if processState(f.proc.pid) == 'T' {
		stopSelf(q[len(q)-1])
	}
}

// unfollowed reports whether the command is stopped by a stop rac has
// not followed yet: one the waiter has handed over (queued) or one the
// kernel has yet to report to it (peekStop). It runs on the supervisor's
// goroutine, where stops are followed, so a stop handed over is followed
// only after it returns.
func (f *stopFollower) unfollowed() bool {
	if processState(f.proc.pid) != 'T' {
		return false
	}
	f.mu.Lock()
	queued := len(f.queue) > 0
	f.mu.Unlock()
	return queued || f.proc.peekStop()
}

// claim reports whether the relay should look at stop signal sig (false:
// it belongs to a stop rac followed already).
func (f *stopFollower) claim(sig syscall.Signal) bool {
	if f.unmatched[sig] > 0 {
		f.unmatched[sig]--
		return false
	}
	f.owed[sig]++
	return true
}
