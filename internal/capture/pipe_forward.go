package capture

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// handOver ends the pumps still reading once the drain timeout has passed
// after the child's end: a process the command left behind (sleep 30 &)
// still holds the pipe. rac returns now, and must not leave that process
// to die of SIGPIPE on its next write, which it would not without rac: the
// pipe goes to a forwarder, cat(1) in a session of its own, reading it
// into rac's own stdout or stderr (the same open file, so the same place
// and offset) until the last writer is gone. What it passes on is not
// recorded. A cat, not rac: rac cannot re-execute itself in a hidden mode,
// and cat is everywhere.
//
// drained is closed once every pump has stopped. The notes name what
// held the output, as far as /proc tells.
func handOver(pumps []*pump, drained <-chan struct{}, after time.Duration, noForward bool) []string {
	type handed struct {
		p  *pump
		fd int
	}
	var hs []handed
	for _, p := range pumps {
		if fd, ok := p.detach(); ok {
			hs = append(hs, handed{p, fd})
		}
	}
	for _, p := range pumps {
		p.src.Close() // wakes a pump waiting for the pipe
	}
	<-drained
	var holders []string
	seen := map[int]bool{}
	lost := false
	for _, h := range hs {
		for _, ho := range pipeHolders(h.fd) {
			if !seen[ho.pid] {
				seen[ho.pid] = true
				holders = append(holders, fmt.Sprintf("pid %d (%s)", ho.pid, ho.name))
			}
		}
		dst := h.p.fwd
		if noForward {
			dst = nil
		}
		if err := startForwarder(h.fd, dst); err != nil {
			lost = true
		}
		unix.Close(h.fd)
	}
	if len(hs) == 0 {
		return nil
	}
	later := "its later output is not recorded"
	if lost {
		later = "it was cut off (no cat(1) to pass its later output on)"
	}
	if len(holders) == 0 {
		return []string{fmt.Sprintf("a process the command left running still held the output after %s; %s", after, later)}
	}
	if len(holders) > 1 {
		later = strings.NewReplacer("its ", "their ", "it was", "they were").Replace(later)
	}
	return []string{fmt.Sprintf("%s still held the output after %s; %s", strings.Join(holders, ", "), after, later)}
}

// detach takes the pump's pipe away from it: a duplicate of the read end
// for the forwarder, and no further read by the pump (which ends). False
// when the pipe is closed already or has reached its end.
func (p *pump) detach() (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.eof {
		return -1, false
	}
	rc, err := p.src.SyscallConn()
	if err != nil {
		return -1, false
	}
	fd := -1
	if cerr := rc.Control(func(f uintptr) { fd, err = unix.FcntlInt(f, unix.F_DUPFD_CLOEXEC, 0) }); cerr != nil || err != nil {
		return -1, false
	}
	// the forwarder reads it blocking (Go's pipes are non-blocking, and
	// the flag belongs to the description, which rac no longer reads)
	if fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err == nil {
		_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFL, fl&^unix.O_NONBLOCK)
	}
	p.detached = true
	return fd, true
}

// startForwarder starts cat with the pipe fd as its stdin and dst (nil:
// /dev/null) as its stdout, in a session of its own: no signal to rac's
// group or terminal ends it, the end of its pipe does. It is reaped in
// the background, should rac outlive it.
func startForwarder(fd int, dst *os.File) error {
	path, err := catPath()
	if err != nil {
		return err
	}
	if dst == nil {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer null.Close()
		dst = null
	}
	// through Control: Fd would switch rac's stdout to blocking mode
	rc, err := dst.SyscallConn()
	if err != nil {
		return err
	}
	pid := 0
	cerr := rc.Control(func(out uintptr) {
		pid, err = syscall.ForkExec(path, []string{"cat"}, &syscall.ProcAttr{
			Dir: "/", Env: []string{},
			Files: []uintptr{uintptr(fd), out, out},
			Sys:   &syscall.SysProcAttr{Setsid: true},
		})
	})
	if cerr != nil {
		return cerr
	}
	if err != nil {
		return err
	}
	go func() {
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				return
			}
		}
	}()
	return nil
}

// catPath finds cat(1): on PATH, else /bin/cat.
func catPath() (string, error) {
	if path, err := exec.LookPath("cat"); err == nil {
		return path, nil
	}
	if err := unix.Access("/bin/cat", unix.X_OK); err != nil {
		return "", err
	}
	return "/bin/cat", nil
}

// holder is a process that holds a pipe's write end.
type holder struct {
	pid  int
	name string
}
