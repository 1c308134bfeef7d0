package capture

import (
	"os"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// process is the started command, in every mode. It is started with fork
// and exec directly (os/exec would add, on every start, a probe of the
// kernel's pidfd support that forks a process of its own, a fifth of a
// wrapper's whole start-up on the machines rac is measured on), from a
// goroutine locked to its OS thread, which then waits for the command and
// reaps it: on Linux the command gets SIGKILL should that thread end first
// (Pdeathsig fires when the forking thread ends, not the process, and the
// Go runtime may end a thread no goroutine holds), and it ends first only
// when rac dies. done is closed once the command is reaped.
type process struct {
	pid int // in rac's process group, which is never signalled as a whole
	// onStop, when set, is told of the command's stops and continues, on
	// the waiting thread; nil: they are not watched
	onStop func(stopEvent)
	done   chan struct{}

	mu      sync.Mutex
	reaped  bool // no longer signalled: its pid is being freed
	status  syscall.WaitStatus
	waitErr error // its status could not be read (SIGCHLD ignored: reaped by the kernel)
}

// stopEvent is a stop or continue of the command seen by its waiter.
type stopEvent struct {
	stopped bool           // false: continued
	sig     syscall.Signal // the signal that stopped it; 0: not known
}

// startProcess starts the command with attr; attr.Sys gets the
// parent-death signal. p.onStop is the caller's.
func startProcess(path string, argv []string, attr *syscall.ProcAttr, p *process) error {
	if attr.Env == nil {
		attr.Env = os.Environ()
	}
	if attr.Sys == nil {
		attr.Sys = &syscall.SysProcAttr{}
	}
	setDeathSignal(attr.Sys)
	p.done = make(chan struct{})
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// unlocked only once the command is reaped: a goroutine that ends
		// locked takes its thread with it
		defer runtime.UnlockOSThread()
		pid, err := syscall.ForkExec(path, argv, attr)
		if err != nil {
			started <- err
			return
		}
		p.pid = pid
		started <- nil
		p.wait()
		close(p.done)
	}()
	return <-started
}

// reap waits for the command with wait4 and keeps how it ended.
func (p *process) reap() {
	var ws syscall.WaitStatus
	var err error
	for {
		if _, err = syscall.Wait4(p.pid, &ws, 0, nil); err != syscall.EINTR {
			break
		}
	}
	p.setResult(ws, err)
}

func (p *process) setResult(ws syscall.WaitStatus, err error) {
	p.mu.Lock()
	p.status, p.waitErr, p.reaped = ws, err, true
	p.mu.Unlock()
}

func (p *process) markReaped() {
	p.mu.Lock()
	p.reaped = true
	p.mu.Unlock()
}

func (p *process) result() (syscall.WaitStatus, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status, p.waitErr
}

// signal sends sig to the command itself while it has not been reaped.
func (p *process) signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.reaped {
		_ = unix.Kill(p.pid, sig)
	}
}

// signalTree sends sig, once, to everything the command is: the command
// and each of its descendants, by pid. rac's own group is never
// signalled: it may hold the caller's shell or a "| tee".
//
// The descendants are listed before the command is signalled (its end
// would hand them to init), by pid: the command's cannot be reused while
// it is not reaped, a descendant's can, as with any kill by pid. The walk
// is best effort: Linux only (/proc), and a process that forks during it
// may be missed.
func (p *process) signalTree(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaped {
		return
	}
	tree := descendants(p.pid)
	_ = unix.Kill(p.pid, sig)
	for _, d := range tree {
		_ = unix.Kill(d.pid, sig)
	}
}
