package capture

import (
	"errors"
	"os"
	"runtime"
	"sync"
	"syscall"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/terminal"
	"golang.org/x/sys/unix"
)

// proc is a command started by pty or passthrough mode. It is forked by a
// goroutine that holds its OS thread until the command is reaped: the
// kernel sends the parent-death signal (Linux) when the thread that forked
// the child ends, not the process, and the Go runtime may end a thread no
// goroutine holds.
type proc struct {
	pid int
	// events are the command's stops and continues (when asked for);
	// closed once it is reaped
	events chan procEvent

	mu      sync.Mutex
	reaped  bool
	status  syscall.WaitStatus
	waitErr error
}

type procEvent int

const (
	procStopped procEvent = iota + 1
	procContinued
)

// startProc starts the command; stops tells it to report the command's
// stops and continues on events.
func startProc(path string, argv []string, attr *syscall.ProcAttr, stops bool) (*proc, error) {
	p := &proc{events: make(chan procEvent, 8)}
	setDeathSignal(attr.Sys)
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		pid, err := syscall.ForkExec(path, argv, attr)
		if err != nil {
			started <- err
			return
		}
		p.pid = pid
		started <- nil
		p.wait(stops)
		close(p.events)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return p, nil
}

func (p *proc) markReaped() {
	p.mu.Lock()
	p.reaped = true
	p.mu.Unlock()
}

// reap waits for the command with wait4 and keeps how it ended.
func (p *proc) reap() {
	var ws syscall.WaitStatus
	var err error
	for {
		if _, err = syscall.Wait4(p.pid, &ws, 0, nil); err != syscall.EINTR {
			break
		}
	}
	p.mu.Lock()
	p.status, p.waitErr = ws, err
	p.mu.Unlock()
}

// signal sends sig to the command itself while it has not been reaped.
func (p *proc) signal(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.reaped {
		_ = unix.Kill(p.pid, sig)
	}
}

// signalGroup sends sig to the command's process group (it leads one)
// while the command has not been reaped: after that the number may be
// another's.
func (p *proc) signalGroup(sig syscall.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.reaped {
		_ = unix.Kill(-p.pid, sig)
	}
}

func (p *proc) result() (syscall.WaitStatus, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status, p.waitErr
}

// outcomeOf fills in how the command ended.
func outcomeOf(out *Outcome, ws syscall.WaitStatus, waitErr error, timedOut bool) {
	switch {
	case waitErr != nil:
		out.Status = record.StatusExited
		out.ExitCode = 1
		out.Notes = append(out.Notes, "the command's exit status could not be read ("+waitErr.Error()+"); taken as 1")
	case timedOut:
		out.Status = record.StatusTimedOut
		out.ExitCode = 124
		if ws.Signaled() {
			out.Signal = ws.Signal()
		}
	case ws.Signaled():
		out.Status = record.StatusSignaled
		out.Signal = ws.Signal()
	default:
		out.Status = record.StatusExited
		out.ExitCode = ws.ExitStatus()
	}
}

// wakePipe is a pipe whose write end wakes a poll of its read end, for
// copiers that poll by themselves. Its descriptors are valid until close.
type wakePipe struct {
	r, w *os.File
	rfd  int
	wfd  int
}

func newWakePipe() (*wakePipe, error) {
	r, w, err := os.Pipe() // close-on-exec: no command inherits it
	if err != nil {
		return nil, err
	}
	p := &wakePipe{r: r, w: w, rfd: -1, wfd: -1}
	terminal.Control(r, func(fd int) { p.rfd = fd })
	terminal.Control(w, func(fd int) { p.wfd = fd })
	if p.rfd < 0 || p.wfd < 0 {
		p.close()
		return nil, errors.New("no descriptor for a pipe")
	}
	return p, nil
}

// wake makes the read end readable; the copier polling it stops.
func (p *wakePipe) wake() { _, _ = unix.Write(p.wfd, []byte{0}) }

func (p *wakePipe) close() {
	p.r.Close()
	p.w.Close()
}

// stopNotice calls RunOptions.OnStopping once, for the first signal that
// asks rac to end, in a goroutine of its own; wait waits for it.
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
