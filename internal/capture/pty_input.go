package capture

import (
	"bytes"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/terminal"
)

// startInput starts copying keystrokes from rac's terminal to the pty:
// from stdin when it is that terminal, else from /dev/tty when that is
// the same terminal (a prompt opening /dev/tty works with `cmd < file`).
// Closing quit stops it; done is closed when it has.
func (r *ptyRun) startInput(stdin *os.File, stdinIsTerm bool) (quit chan struct{}, done chan struct{}) {
	quit, done = make(chan struct{}), make(chan struct{})
	in := -1
	var opened *os.File
	if r.term >= 0 {
		if stdinIsTerm {
			terminal.Control(stdin, func(fd int) { in = fd })
		} else if f, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_NOCTTY, 0); err == nil {
			terminal.Control(f, func(fd int) {
				if sameTerminal(fd, r.term) {
					in, opened = fd, f
				}
			})
			if opened == nil {
				f.Close()
			}
		}
	}
	if in < 0 {
		close(done)
		return quit, done
	}
	// poll wakes on the keys or on this pipe: a blocked read would take
	// the first key typed after the command ended away from the shell
	wake, err := newWakePipe()
	if err != nil {
		if opened != nil {
			opened.Close()
		}
		close(done)
		return quit, done
	}
	woken := make(chan struct{})
	go func() {
		<-quit
		wake.wake()
		close(woken)
	}()
	go func() {
		defer r.restoreOnPanic()
		defer close(done)
		defer func() { <-woken; wake.close() }() // no write to a closed pipe
		if opened != nil {
			defer opened.Close()
		}
		r.copyIn(in, wake.rfd, quit)
	}()
	return quit, done
}

func (r *ptyRun) copyIn(in, wake int, quit chan struct{}) {
	buf := make([]byte, 4096)
	fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
	for {
		fds[0].Revents, fds[1].Revents = 0, 0
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return
		}
		if fds[1].Revents != 0 || fds[0].Revents&unix.POLLNVAL != 0 {
			return
		}
		if fds[0].Revents == 0 {
			continue
		}
		// A background rac that read the terminal would be stopped
		// (SIGTTIN) while its command runs on after bg: the keys are the
		// shell's until rac is in the foreground again.
		if !terminal.FdInForeground(in) {
			select {
			case <-r.resumed:
				continue
			case <-quit:
				return
			}
		}
		n, err := unix.Read(in, buf)
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil || n <= 0 {
			return // the terminal hung up
		}
		if !r.writeKeys(buf[:n]) {
			return
		}
	}
}

// writeKeys writes keystrokes to the pty. The pty's line discipline turns
// its suspend key (Ctrl-Z) into SIGTSTP for the command's group, which the
// kernel discards when that group is orphaned, as the group of a session
// leader whose parent (rac) is outside its session always is: so rac
// stops that group itself, when it is the pty's foreground, takes SIGTSTP
// as the default stop and rac can stop in turn (see suspend).
func (r *ptyRun) writeKeys(b []byte) bool {
	for len(b) > 0 {
		k := len(b)
		var stop *echoWatch
		if t, err := terminal.GetTermios(r.mfd); err == nil && t.Lflag&unix.ISIG != 0 {
			if c := t.Cc[unix.VSUSP]; c != vdisable {
				if i := bytes.IndexByte(b, c); i >= 0 {
					k, stop = i+1, r.watchEcho(t, c)
				}
			}
		}
		if _, err := r.master.Write(b[:k]); err != nil {
			r.unwatchEcho(stop)
			return false
		}
		if stop != nil {
			r.stopCommand(stop)
		}
		b = b[k:]
	}
	return true
}

// stopCommand stops the command's group once the terminal shows the echo
// of the suspend key: the line discipline echoes it on a kernel worker
// after rac's write, and a group stopped before that would stop rac with
// the echo unread, so "^Z" came after the shell's "Stopped" line, on the
// line typed after fg (seen in tmux, 1 run in 30).
func (r *ptyRun) stopCommand(w *echoWatch) {
	defer r.unwatchEcho(w)
	fg, err := unix.IoctlGetInt(r.mfd, unix.TIOCGPGRP)
	if err != nil || fg != r.proc.pid || handlesStop(r.proc.pid) || !canStop() {
		return
	}
	if w.seen != nil {
		t := time.NewTimer(echoWait)
		select {
		case <-w.seen:
		case <-t.C:
		}
		t.Stop()
	}
	r.proc.signalGroup(syscall.SIGSTOP)
}

// echoWait bounds stopCommand's wait for the echo: a terminal nobody
// reads (forwarding failed) or a busy kernel never holds a Ctrl-Z longer.
const echoWait = 250 * time.Millisecond

// echoWatch is what the output copier looks for in what it forwards: the
// echo of the suspend key. seen is nil when the pty does not echo it.
type echoWatch struct {
	want []byte
	prev byte // the last byte read since the watch began
	seen chan struct{}
}

// watchEcho starts looking for the echo of c, as the line discipline
// writes it under t: "^Z" with ECHOCTL, the key itself without, nothing
// without ECHO.
func (r *ptyRun) watchEcho(t *unix.Termios, c byte) *echoWatch {
	w := &echoWatch{}
	if t.Lflag&unix.ECHO == 0 {
		return w
	}
	w.want, w.seen = []byte{c}, make(chan struct{})
	if t.Lflag&unix.ECHOCTL != 0 && (c < 0x20 || c == 0x7f) && c != '\t' {
		w.want = []byte{'^', c ^ 0x40}
	}
	r.fwdMu.Lock()
	r.echo = w
	r.fwdMu.Unlock()
	return w
}

// unwatchEcho ends w's watch, if it started one (nil is no watch).
func (r *ptyRun) unwatchEcho(w *echoWatch) {
	if w == nil || w.seen == nil {
		return
	}
	r.fwdMu.Lock()
	if r.echo == w {
		r.echo = nil
	}
	r.fwdMu.Unlock()
}

// sawRead tells the watch, if any, what the copier read and forwarded;
// the caller holds fwdMu.
func (r *ptyRun) sawRead(b []byte) {
	w := r.echo
	if w == nil || len(b) == 0 {
		return
	}
	found := bytes.Contains(b, w.want) ||
		len(w.want) == 2 && w.prev == w.want[0] && b[0] == w.want[1]
	w.prev = b[len(b)-1]
	if found {
		close(w.seen)
		r.echo = nil
	}
}
