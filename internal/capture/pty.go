package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/terminal"
	"golang.org/x/sys/unix"
)

// Pty mode runs the command on a pseudo-terminal of the size of rac's
// terminal, in place of each of its standard streams that is rac's
// terminal (a redirected one is passed on as it is). The command leads a
// session of its own with the pty as its controlling terminal, so /dev/tty
// prompts work and keystrokes always reach it. rac's terminal is raw
// meanwhile: rac copies keystrokes in and output out (to the terminal, and
// through the bounded stage to the recording: one combined stream, with
// full-screen spans left out), passes on size changes and the signals
// sent to rac, and follows the command's stops (Ctrl-Z) with its own.
//
// The terminal is restored on every way out rac can catch: the command's
// end, a signal, a panic of Run. A rac killed by SIGKILL leaves it raw
// (`stty sane` or `reset` mends it); its command gets SIGKILL (Linux's
// parent-death signal) and the rest of its session SIGHUP from the pty's
// hangup.

// ptyRelayed are the catchable signals passed on to the command's process
// group: it leads a session of its own, so nothing sent to rac's process
// group reaches it, and keys on rac's raw terminal send no signals (the
// pty's own line discipline turns them into signals for the command).
var ptyRelayed = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}

// minDrain is the least time rac waits for the pty's last bytes after the
// command ended: the kernel may still be moving them to the master side.
const minDrain = 50 * time.Millisecond

// ptyRun is one command running in pty mode.
type ptyRun struct {
	o       RunOptions
	proc    *process
	stopped chan struct{} // the command's stops, from its waiter

	term   int           // rac's terminal (modes, size), -1: none
	orig   *unix.Termios // its modes before rac changed them
	rawMu  sync.Mutex
	raw    bool // rac's terminal is raw now
	master *os.File
	mfd    int       // master's descriptor, valid while master is open
	wake   *wakePipe // ends the output copier

	stopping stopNotice

	resumed chan struct{} // rac is back in the foreground (for the input copier)

	// output counts, written by the output copier
	bytes, nl int64
	last      byte
	fwdLast   byte // last byte forwarded
	fwded     bool
	// fwdMu is held from each read of the pty to the end of forwarding
	// what it read: suspend takes it to know the terminal shows all the
	// command wrote before it stopped (the ^Z echo above "Stopped").
	fwdMu sync.Mutex
	echo  *echoWatch // the suspend key's echo awaited, under fwdMu
	notes []string
}

func runPTY(o RunOptions) Outcome {
	out := newOutcome()
	path, err := lookPath(o.Argv[0])
	if err != nil {
		return failedToStart(out, err, startErrCode(err))
	}
	r := &ptyRun{o: o, term: -1, resumed: make(chan struct{}, 1), stopped: make(chan struct{}, 8), stopping: stopNotice{fn: o.OnStopping}}
	onPTY, fwd := r.connect()
	sigs, stop := caughtFor(r.o, true)
	defer stop()

	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return failedToStart(out, err, 126)
	}
	defer devNull.Close()
	tty, err := r.openPTY()
	if err != nil {
		return failedToStart(out, fmt.Errorf("open a pseudo-terminal: %w", err), 126)
	}
	defer r.master.Close()
	defer r.wake.close()
	// Raw before the command starts: what it prints first is drawn raw,
	// and no keystroke is turned into a signal for rac's own group. What
	// the terminal holds finished already goes first, as it was typed.
	if onPTY[0] {
		terminal.Control(o.Stdin, func(fd int) { r.takeCooked(fd) })
	}
	r.makeRaw()
	defer r.restore()
	err = r.start(path, tty, devNull, onPTY)
	tty.Close() // the command holds it now: its last close ends the output
	if err != nil {
		r.restore()
		return startFailed(out, o.Argv[0], path, err)
	}
	timedOut := r.run(sigs, fwd, onPTY[0])
	r.counts(&out, onPTY[2])
	ws, werr := r.proc.result()
	outcomeOf(&out, ws, werr, timedOut)
	return out
}

// connect finds rac's terminal (stdout's, stderr's or stdin's) and
// decides which of the command's fds 0-2 get the pty: those that are that
// terminal. fwd is where the pty's output is forwarded (nil: nowhere).
func (r *ptyRun) connect() (onPTY [3]bool, fwd *os.File) {
	std := [3]*os.File{r.o.Stdin, r.o.Stdout, r.o.Stderr}
	fds := [3]int{-1, -1, -1}
	for i, f := range std {
		terminal.Control(f, func(fd int) { fds[i] = fd })
	}
	for _, i := range []int{1, 2, 0} {
		if terminal.Is(std[i]) {
			r.term = fds[i]
			break
		}
	}
	for i, f := range std {
		onPTY[i] = r.term >= 0 && terminal.Is(f) && sameTerminal(fds[i], r.term)
	}
	if r.term < 0 {
		// forced without a terminal: the output goes through the pty
		onPTY[1], onPTY[2] = true, true
	}
	fwd = r.o.Stdout
	if !onPTY[1] && onPTY[2] {
		fwd = r.o.Stderr
	}
	if r.o.NoForward {
		fwd = nil
	}
	return onPTY, fwd
}

// start starts the command as the leader of a session of its own, with
// the pty as its controlling terminal on the fds onPTY names; the others
// are rac's own, or /dev/null in place of a missing one.
func (r *ptyRun) start(path string, tty, devNull *os.File, onPTY [3]bool) error {
	var files [3]uintptr
	ctty := -1
	for i, f := range [3]*os.File{r.o.Stdin, r.o.Stdout, r.o.Stderr} {
		switch {
		case onPTY[i]:
			files[i] = tty.Fd()
			if ctty < 0 {
				ctty = i
			}
		case f == nil:
			files[i] = devNull.Fd()
		default:
			files[i] = f.Fd()
		}
	}
	r.proc = &process{leader: true, onStop: func(ev stopEvent) {
		if ev.stopped {
			r.stopped <- struct{}{}
		}
	}}
	return startProcess(path, r.o.Argv, &syscall.ProcAttr{
		Dir: r.o.Dir, Env: r.o.Env, Files: files[:],
		Sys: &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty},
	}, r.proc)
}

// run copies the output out and the keys in while the supervisor watches
// the command, then drains the output once it has ended and gives the
// terminal back; it reports whether the timeout ended the command.
func (r *ptyRun) run(sigs chan os.Signal, fwd *os.File, stdinOnPTY bool) bool {
	filter, st := r.storeChain()
	outDone := make(chan struct{})
	go func() {
		defer r.restoreOnPanic()
		defer close(outDone)
		r.copyOut(st, fwd)
	}()
	quit, inDone := r.startInput(r.o.Stdin, stdinOnPTY)

	sup := &supervisor{
		proc: r.proc, relay: r.relay, stopped: r.stopped, onStopped: r.suspend,
		timeout: r.o.Timeout, killAfter: r.o.KillAfter, timer: r.o.timer, stopping: &r.stopping, contain: r.o.Contain,
	}
	timedOut := sup.run(sigs)

	r.drain(outDone)
	close(quit)
	<-inDone
	if st != nil {
		if err := st.close(); err != nil {
			r.notes = append(r.notes, fmt.Sprintf("storing the output failed: %v", err))
		}
		if n := filter.note(); n != "" {
			r.notes = append(r.notes, n)
		}
	}
	r.restore()
	r.stopping.wait()
	return timedOut
}

// counts puts what the output copier counted and forwarded into out.
func (r *ptyRun) counts(out *Outcome, stderrOnPTY bool) {
	c := record.Counts{Bytes: r.bytes, Lines: r.nl}
	if r.bytes > 0 && r.last != '\n' {
		c.Lines++
	}
	out.Received[record.Combined] = c
	out.Notes = append(out.Notes, r.notes...)
	if r.fwded {
		open := r.fwdLast != '\n'
		out.lastOpen[record.Combined], out.lastWrote = open, record.Combined
		if stderrOnPTY {
			out.lastOpen[record.Stderr] = open // rac's stderr is that terminal
		}
	}
}

// openPTY opens the pseudo-terminal with the modes and size of rac's
// terminal (the command sees the same erase key, the same size), and
// makes its master side non-blocking: copyOut polls it with a wake pipe,
// which a drain timeout needs to end a read.
func (r *ptyRun) openPTY() (*os.File, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, err
	}
	fd, err := unix.FcntlInt(master.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	master.Close()
	if err == nil {
		err = unix.SetNonblock(fd, true)
	}
	if err == nil {
		// readNonblock holds its P for the read: the flag must be there
		var fl int
		if fl, err = unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0); err == nil && fl&unix.O_NONBLOCK == 0 {
			err = errors.New("the pseudo-terminal stayed blocking")
		}
	}
	if err != nil {
		tty.Close()
		return nil, err
	}
	// r.master.Fd() must never be called: it makes the file blocking
	r.master, r.mfd = os.NewFile(uintptr(fd), "/dev/ptmx"), fd
	if r.wake, err = newWakePipe(); err != nil {
		r.master.Close()
		tty.Close()
		return nil, err
	}
	ws := &unix.Winsize{Row: 24, Col: 80}
	if r.term >= 0 {
		if t, err := terminal.GetTermios(r.term); err == nil {
			r.orig = t
			_ = setTermios(int(tty.Fd()), t)
		}
		if w, err := getWinsize(r.term); err == nil && w.Row > 0 && w.Col > 0 {
			ws = w
		}
	}
	_ = setWinsize(int(tty.Fd()), ws)
	return tty, nil
}

// storeChain is where the output goes to be stored: the bounded stage,
// then the full-screen filter, the caller's filter (the redactor), and the
// recording and the tee. nil, nil when nothing stores it.
func (r *ptyRun) storeChain() (*screenFilter, *stage) {
	store, mark := storeSink(r.o, record.Combined)
	if store == nil {
		return nil, nil
	}
	var closer io.Closer
	if r.o.Filter != nil {
		fw := r.o.Filter(record.Combined, store)
		store, closer = fw, fw
	}
	f := newScreenFilter(store, closer)
	return f, newStage(f, f, mark, false)
}

// copyOut copies the pty's output to rac's terminal and the stage until
// every holder of the pty has closed it (EIO) or rac closes the master.
// The kernel hands out a pty's output 4 KiB at a time: each piece is
// forwarded at once (larger writes to the terminal measured slower: the
// terminal's reader then waits on rac), but pieces that are there
// together are stored together, so a fast command costs the store few
// writes.
func (r *ptyRun) copyOut(st *stage, fwd *os.File) {
	var own []byte
	size := bufStart
	noFwd := fwd == nil
	forward := func(b []byte) {
		if noFwd {
			return
		}
		if _, werr := fwd.Write(b); werr != nil {
			noFwd = true
			r.notes = append(r.notes, fmt.Sprintf("forwarding the output failed: %v; the rest was recorded only", werr))
			return
		}
		r.fwdLast, r.fwded = b[len(b)-1], true
	}
	for {
		var buf []byte
		if st != nil {
			buf = st.get(size)
		} else {
			if len(own) < size {
				own = make([]byte, size)
			}
			buf = own
		}
		n, rerr := r.fill(buf, forward)
		if n == len(buf) && size < bufSize {
			size *= 2 // a full buffer: the command writes fast, take more at once
		}
		if n > 0 {
			b := buf[:n]
			nl := int64(bytes.Count(b, []byte{'\n'}))
			r.bytes += int64(n)
			r.nl += nl
			r.last = b[n-1]
			if st != nil {
				st.put(b, r.o.Now(), nl)
			}
		} else if st != nil {
			st.recycle(buf)
		}
		if rerr != nil {
			return
		}
	}
}

// fill reads what the pty has into buf and forwards each piece as it
// comes. It polls by itself, as script(1) does: a wait through the
// runtime's poller measured slower when the command writes fast. The wake
// pipe ends it (drain timeout).
//
// It returns once buf is full, or the pty has been quiet for a moment, or
// fillFor has passed since its first byte: the kernel hands out a pty's
// output 4 KiB at a time, and handing each piece to the store's goroutine
// on its own (a wake-up of another thread for every 4 KiB) measured a
// tenth of pty mode's throughput. Forwarding never waits: each piece goes
// to the terminal as it is read.
func (r *ptyRun) fill(buf []byte, forward func([]byte)) (int, error) {
	n := 0
	var first time.Time
	fds := []unix.PollFd{{Fd: int32(r.mfd), Events: unix.POLLIN}, {Fd: int32(r.wake.rfd), Events: unix.POLLIN}}
	for n < len(buf) {
		r.fwdMu.Lock()
		m, err := readNonblock(r.mfd, buf[n:])
		if err == nil && m > 0 {
			forward(buf[n : n+m])
			r.sawRead(buf[n : n+m])
		}
		r.fwdMu.Unlock()
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			wait := -1 // nothing read yet: wait for output
			if n > 0 {
				left := fillFor - time.Since(first)
				if left <= 0 {
					return n, nil
				}
				wait = int(min(fillQuiet, left) / time.Millisecond)
			}
			fds[0].Revents, fds[1].Revents = 0, 0
			k, perr := unix.Poll(fds, wait)
			if perr != nil && perr != unix.EINTR {
				return n, perr
			}
			if fds[1].Revents != 0 {
				return n, io.EOF // cut off
			}
			if k == 0 && n > 0 {
				return n, nil // quiet: store what came
			}
			continue
		case err != nil:
			return n, err // EIO: the last holder of the pty closed it
		case m == 0:
			return n, io.EOF
		}
		if n == 0 {
			first = time.Now()
		}
		n += m
	}
	return n, nil
}

// How long fill gathers output for the store: until the pty has been
// quiet for fillQuiet, and at most fillFor after the first byte, so a
// recording being read as it runs lags the screen by no more than that.
const (
	fillQuiet = 2 * time.Millisecond
	fillFor   = 50 * time.Millisecond
)

// relay is pty mode's rule for a signal that reached rac: a resize is
// passed on as the pty's size, a continue is followed (resume), SIGPIPE
// is the output copier's (EPIPE), and the rest go to the command's
// process group: it leads a session of its own, so nothing sent to rac's
// group reaches it.
func (r *ptyRun) relay(sig syscall.Signal) {
	switch sig {
	case syscall.SIGWINCH:
		r.resize()
	case syscall.SIGCONT:
		r.resume()
	case syscall.SIGPIPE:
	default:
		r.proc.signalGroup(sig)
	}
}

// drain waits for the output's end once the command ended: a process it
// left behind may keep the pty open, and is cut off after the drain
// timeout, though never while output is waiting to be read.
func (r *ptyRun) drain(outDone chan struct{}) {
	t := time.NewTimer(max(r.o.DrainTimeout, minDrain))
	defer t.Stop()
	for {
		select {
		case <-outDone:
			return
		case <-t.C:
			if n, err := unix.IoctlGetInt(r.mfd, fionread); err == nil && n > 0 {
				t.Reset(minDrain)
				continue
			}
			r.wake.wake()
			<-outDone
			r.notes = append(r.notes, fmt.Sprintf("drain timed out after %s: a process the command left running still held its terminal; later output may be missing", r.o.DrainTimeout))
			return
		}
	}
}

// makeRaw puts rac's terminal in raw mode, when rac may: it is in the
// terminal's foreground (a background job changing modes would be stopped
// by SIGTTOU).
func (r *ptyRun) makeRaw() {
	r.rawMu.Lock()
	defer r.rawMu.Unlock()
	if r.orig == nil || r.raw || !terminal.FdInForeground(r.term) {
		return
	}
	if setTermios(r.term, rawMode(*r.orig)) == nil {
		r.raw = true
	}
}

// restore gives rac's terminal its modes back; rac's own lines come after.
func (r *ptyRun) restore() {
	r.rawMu.Lock()
	defer r.rawMu.Unlock()
	if r.raw {
		_ = setTermios(r.term, r.orig)
		r.raw = false
	}
}

// restoreOnPanic restores the terminal before a panic of a copier ends
// the process (Run's own deferred restore runs on its own goroutine only).
func (r *ptyRun) restoreOnPanic() {
	if p := recover(); p != nil {
		r.restore()
		panic(p)
	}
}

func (r *ptyRun) resize() {
	if r.term < 0 {
		return
	}
	if ws, err := getWinsize(r.term); err == nil && ws.Row > 0 && ws.Col > 0 {
		_ = setWinsize(r.mfd, ws)
	}
}

// suspend follows the command's stop: rac gives the terminal back and
// stops itself, so the shell sees a stopped job. When rac cannot stop (its
// group is orphaned, or SIGTSTP is ignored: no job control) it carries on,
// as the kernel would have discarded a Ctrl-Z there.
func (r *ptyRun) suspend() {
	if !canStop() {
		return
	}
	// what the command wrote before it stopped (the ^Z echo) reaches the
	// terminal before the shell's "Stopped" line: wait, briefly, until
	// the pty holds nothing more and no forwarding is under way
	for range 50 {
		r.fwdMu.Lock()
		n, err := unix.IoctlGetInt(r.mfd, fionread)
		if err != nil || n == 0 {
			defer r.fwdMu.Unlock() // held while stopped: the copier is between reads
			break
		}
		r.fwdMu.Unlock()
		runtime.Gosched()
	}
	r.restore()
	_ = unix.Kill(0, syscall.SIGTSTP)
	// rac stops here, before the next instruction of any thread; the
	// SIGCONT that continues it arrives on sigs
}

// resume follows rac's continue (fg or bg): in the foreground it takes the
// terminal again, at its size now; the command continues either way.
func (r *ptyRun) resume() {
	if r.term >= 0 && terminal.FdInForeground(r.term) {
		r.makeRaw()
		r.resize()
		select {
		case r.resumed <- struct{}{}:
		default:
		}
	}
	r.proc.signalGroup(syscall.SIGCONT)
}

// canStop reports whether a SIGTSTP would stop rac: it is not ignored and
// rac's process group is not orphaned (its parent, the shell, is in rac's
// session but another group).
func canStop() bool {
	if signal.Ignored(syscall.SIGTSTP) {
		return false
	}
	ppid := unix.Getppid()
	psid, err1 := unix.Getsid(ppid)
	sid, err2 := unix.Getsid(0)
	ppgrp, err3 := unix.Getpgid(ppid)
	return err1 == nil && err2 == nil && err3 == nil && psid == sid && ppgrp != unix.Getpgrp()
}
