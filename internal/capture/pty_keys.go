package capture

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/terminal"
)

// Keys for a program that reads them from the pty. The command's stdin is
// rac's terminal, but a pager reads its keys from the terminal of its
// stderr (less opens ttyname(2)), which in pty mode is the pty, where no
// key arrives by itself. While the command's modes on the pty are
// non-canonical (a program reads keys one by one there), rac moves keys
// from its terminal to the pty on demand: only while a process of the
// command is blocked in read(2) on the pty, no more than it asked for,
// and once per read. Keys nobody of the command reads so stay in the
// terminal's own queue: less reads one byte at a time, so "q" quits it
// and the line typed after the q is the shell's, as without rac.

// lendWait is how long the lender waits before it looks again for a
// reader on the pty while keys wait in the terminal's queue (for a
// program reading them from the terminal itself, or for the shell).
const lendWait = 10 * time.Millisecond

// startLending starts moving keys from rac's terminal (stdin when it is
// that terminal, else /dev/tty when that is) to the pty on demand.
// Closing quit stops it; done is closed when it has.
func (r *ptyRun) startLending(stdin *os.File) (quit chan struct{}, done chan struct{}) {
	quit, done = make(chan struct{}), make(chan struct{})
	in := -1
	var opened *os.File
	if r.term >= 0 && r.seen != nil && r.slave != "" {
		terminal.Control(stdin, func(fd int) {
			if sameTerminal(fd, r.term) {
				in = fd
			}
		})
		if in < 0 {
			if f, err := os.OpenFile("/dev/tty", os.O_RDWR|syscall.O_NOCTTY, 0); err == nil {
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
	}
	if in < 0 {
		close(done)
		return quit, done
	}
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
		defer close(done)
		defer func() { <-woken; wake.close() }() // no write to a closed pipe
		if opened != nil {
			defer opened.Close()
		}
		r.lendKeys(in, wake.rfd, quit)
	}()
	return quit, done
}

// lendKeys is the lender's loop: it never reads a key no process of the
// command waits for on the pty.
func (r *ptyRun) lendKeys(in, wake int, quit chan struct{}) {
	buf := make([]byte, 4096)
	var last reader // the read last given keys: it must have slept again
	for {
		// a program reading keys restores its modes last of all, after its
		// last output (less quitting): followed here too, every lendWait
		r.followModes()
		if !r.keysWanted() {
			select {
			case <-r.modesChanged:
				continue
			case <-quit:
				return
			}
		}
		fds := []unix.PollFd{{Fd: int32(in), Events: unix.POLLIN}, {Fd: int32(wake), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, int(lendWait/time.Millisecond)); err != nil && err != unix.EINTR {
			return
		}
		if fds[1].Revents != 0 || fds[0].Revents&(unix.POLLNVAL|unix.POLLHUP) != 0 {
			return
		}
		if fds[0].Revents&unix.POLLIN == 0 {
			continue // the modes are looked at again
		}
		rd, ok := r.ptyReader()
		avail, err := unix.IoctlGetInt(in, fionread)
		if !ok || rd.pid >= 0 && rd == last || err != nil || avail <= 0 || !terminal.FdInForeground(in) {
			if !sleepUnlessWoken(wake, lendWait) {
				return
			}
			continue
		}
		n, err := unix.Read(in, buf[:min(avail, rd.count, len(buf))])
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil || n <= 0 {
			return // the terminal hung up
		}
		if _, err := r.master.Write(buf[:n]); err != nil {
			return
		}
		last = rd
	}
}

// sleepUnlessWoken waits d, or less when the wake pipe is written: false
// then.
func sleepUnlessWoken(wake int, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(wake), Events: unix.POLLIN}}
	_, _ = unix.Poll(fds, int(d/time.Millisecond))
	return fds[0].Revents == 0
}

// keysWanted: the command's modes on the pty, copied to rac's terminal,
// are non-canonical, as a program reading keys one by one sets them.
func (r *ptyRun) keysWanted() bool {
	r.modesMu.Lock()
	defer r.modesMu.Unlock()
	return r.mirrored && r.seen != nil && r.seen.Lflag&unix.ICANON == 0
}

// reader is a process of the command blocked in read(2) on the pty: its
// pid, how many bytes it asked for, and how often it had slept then (a
// read that got its keys ends; the next one has slept once more). pid -1:
// reads cannot be seen here, every key is taken as asked for.
type reader struct {
	pid    int
	count  int
	sleeps uint64
}
