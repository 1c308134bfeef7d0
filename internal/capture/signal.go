package capture

import (
	"os"
	"os/signal"
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
// SIGTSTP is not among them: it keeps its default action in rac, so the
// terminal's Ctrl-Z stops rac with the command as it stops a shell's job.
var relayed = []os.Signal{
	syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT,
	syscall.SIGCONT, syscall.SIGWINCH, syscall.SIGUSR1, syscall.SIGUSR2,
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
// SIGTSTP and SIGSTOP to rac's pid alone stop rac, not the command (which
// runs on until its pipe is full); SIGKILL to rac alone kills the command
// on Linux (Pdeathsig), not its own children.
type relay struct {
	wit     *asyncWitness
	w       *witness // nil: no way to tell, every signal is passed on
	settle  time.Duration
	proc    *process
	groupAt map[syscall.Signal]time.Time // when a signal last showed it reached the group
}

func (r *relay) handle(sig syscall.Signal) {
	if sig == syscall.SIGPIPE {
		return // a write to a closed stdout: the pump sees EPIPE and handles it
	}
	r.w = r.wit.get()
	if r.w == nil {
		r.proc.signal(sig)
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
	r.proc.signal(sig)
}

// stopSelf stops rac because the command stopped, with the same signal,
// so the shell that started rac sees its job stopped (and the words
// "Stopped (tty input)" and the like match): rac leaves SIGTSTP, SIGTTIN
// and SIGTTOU at their default action. A stop signal rac ignores (a shell
// without job control) would do nothing: SIGSTOP then.
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
	_ = syscall.Kill(os.Getpid(), sig)
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

// followStop is pipe mode's onStop: a stop of the command that still
// holds stops rac too, as a shell's job stops. A stop that no longer
// holds came with rac's own (SIGSTOP to the group, then SIGCONT): rac was
// stopped by the kernel already.
func (p *process) followStop(ev stopEvent) {
	if ev.stopped && ev.sig != 0 && processState(p.pid) == 'T' {
		stopSelf(ev.sig)
	}
}
