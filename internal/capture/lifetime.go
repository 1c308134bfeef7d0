package capture

import (
	"io/fs"
	"os"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// child is the started command. It is started with fork and exec
// directly: os/exec would add, on every start, a probe of the kernel's
// pidfd support that forks a process of its own, a fifth of a wrapper's
// whole start-up on the machines rac is measured on.
type child struct {
	pid     int
	mu      sync.Mutex
	reaped  bool // the child is no longer signalled: its pid is being freed
	status  syscall.WaitStatus
	waitErr error // its status could not be read (SIGCHLD ignored: reaped by the kernel)
	done    chan struct{}
}

// startChild starts the command in rac's own process group, so that what
// the kernel sends the group (a terminal's Ctrl-C and Ctrl-Z, a shell's
// fg, a harness's kill of the group) reaches it as without rac. It forks
// from a goroutine locked to its OS thread, which then waits for the child
// and reaps it: on Linux the child gets SIGKILL should that thread end
// first (Pdeathsig fires when the forking thread ends), and it ends first
// only when rac dies. done is closed once the child is reaped.
func startChild(path string, argv []string, dir string, env []string, files []uintptr) (*child, error) {
	if env == nil {
		env = os.Environ()
	}
	c := &child{done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// unlocked only once the child is reaped: a goroutine that ends
		// locked takes its thread with it
		defer runtime.UnlockOSThread()
		pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
			Dir: dir, Env: env, Files: files, Sys: childSysProcAttr(),
		})
		if err != nil {
			started <- &fs.PathError{Op: "exec", Path: path, Err: err}
			return
		}
		c.pid = pid
		started <- nil
		c.wait()
		close(c.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

// reap waits for the child with wait4 and keeps how it ended.
func (c *child) reap() {
	var ws syscall.WaitStatus
	var err error
	for {
		if _, err = syscall.Wait4(c.pid, &ws, 0, nil); err != syscall.EINTR {
			break
		}
	}
	c.status, c.waitErr = ws, err
}

func (c *child) markReaped() {
	c.mu.Lock()
	c.reaped = true
	c.mu.Unlock()
}

// signal sends sig to the child itself while it has not been reaped.
func (c *child) signal(sig syscall.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.reaped {
		_ = unix.Kill(c.pid, sig)
	}
}

// signalTree sends sig to the child and to each of its descendants, by
// pid: never to rac's process group, which may hold the caller's shell or
// a "| tee". The child goes first and its pid cannot be reused meanwhile;
// a descendant's can, as with any kill by pid (the walk is best effort:
// Linux only, and a process that forks during it may be missed).
func (c *child) signalTree(sig syscall.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.reaped {
		return
	}
	tree := descendants(c.pid)
	_ = unix.Kill(c.pid, sig)
	for _, pid := range tree {
		_ = unix.Kill(pid, sig)
	}
}
