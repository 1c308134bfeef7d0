package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/terminal"
	"golang.org/x/sys/unix"
)

// Pty mode gives the command a pseudo-terminal for its output only: each
// of its fds 1 and 2 that is rac's terminal gets the pty (of the size and
// modes of rac's terminal), and its stdin, its controlling terminal and
// its process group stay rac's own, as a shell started it. So keys typed
// while it runs wait in the terminal's own input queue for whoever reads
// them (the command, or the shell after it: type-ahead), /dev/tty is the
// real terminal (less, prompts, ssh), and Ctrl-C, Ctrl-Z and a resize
// reach the command from the kernel as without rac. rac copies the pty's
// output to the terminal and, through the bounded stage, to the recording
// (one combined stream, with full-screen spans left out).
//
// What an output-only pty changes, and how rac makes up for it:
//   - A program that sets terminal modes on its output (ncurses: tig,
//     htop, top, nano set raw mode on fd 1) sets them on the pty, while
//     its keys come from the real terminal: rac copies the pty's modes to
//     its terminal whenever they change, before it forwards the output
//     written after the change, and every lendWait while they are
//     non-canonical (followModes). The known full-screen programs run in
//     passthrough mode anyway (internal/interactive).
//   - A pager reads its keys from the terminal of its stderr (less opens
//     ttyname(2)), the pty: rac moves keys there on demand, to a read
//     blocked on the pty only (pty_keys.go).
//   - A resize signals the command (it is in the terminal's foreground
//     group) before rac has resized the pty: rac resizes it, then signals
//     the command's tree again, so a program that asked too early asks
//     again and gets the new size (resize).
//   - What a program writes to /dev/tty goes straight to the terminal: it
//     is not recorded, and can overtake output rac has still to forward.
//   - tcgetpgrp on the pty fails (ENOTTY: the pty is nobody's controlling
//     terminal); git's progress takes that as the foreground.
//   - In the background with TOSTOP set, rac's own write to the terminal
//     stops rac (the shell sees its job stopped), not the command's write
//     to the pty: the command runs on until the pty is full, or ends.
// Pushing unread keys back into the input queue (TIOCSTI) is never needed.

// ptyRelayed are the catchable signals passthrough mode passes on to the
// command when they reached rac alone.
var ptyRelayed = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}

// minDrain is the least time rac waits for the pty's last bytes after the
// command ended: the kernel may still be moving them to the master side.
const minDrain = 50 * time.Millisecond

// ptyRun is one command running in pty mode.
type ptyRun struct {
	o    RunOptions
	proc *process
	rel  *relay // pipe mode's rule for the signals that reach rac
	// follower stops rac after the command's own stop, as in pipe mode
	follower *stopFollower

	term   int // rac's terminal (modes, size), -1: none
	master *os.File
	mfd    int       // master's descriptor, valid while master is open
	slave  string    // the pty's name (/dev/pts/N)
	wake   *wakePipe // ends the output copier

	// the pty's modes as rac last saw them (nil: not followed), and
	// whether rac has copied a change of them to its terminal; under
	// modesMu (the output copier, the key lender and the signal loop all
	// follow them)
	modesMu  sync.Mutex
	seen     *unix.Termios
	mirrored bool
	// modesChanged wakes the key lender when the followed modes change
	modesChanged chan struct{}

	stopping stopNotice

	// output counts, written by the output copier
	bytes, nl int64
	last      byte
	fwdLast   byte // last byte forwarded
	fwded     bool
	notes     []string
}

func runPTY(o RunOptions) Outcome {
	out := newOutcome()
	path, err := lookPath(o.Argv[0])
	if err != nil {
		return failedToStart(out, err, startErrCode(err))
	}
	r := &ptyRun{o: o, term: -1, stopping: stopNotice{fn: o.OnStopping}, modesChanged: make(chan struct{}, 1)}
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
	// as in pipe mode, a witness in rac's group tells the signals the
	// kernel already gave the command from those sent to rac alone
	wit := startWitnessAsync()
	defer wit.close()
	early := takeEarly(sigs)
	err = r.start(path, tty, devNull, onPTY)
	tty.Close() // the command holds it now: its last close ends the output
	if err != nil {
		return startFailed(out, o.Argv[0], path, err)
	}
	r.rel = &relay{wit: wit, settle: o.SignalSettle, proc: r.proc, stops: r.follower}
	for _, sig := range early {
		if sig == syscall.SIGWINCH || sig == syscall.SIGCONT {
			r.relay(sig)
			continue
		}
		// it came before the command existed: it reached no one else
		r.stopping.saw(sig)
		r.proc.signal(sig)
	}
	timedOut := r.run(sigs, fwd)
	r.counts(&out, onPTY[2])
	ws, werr := r.proc.result()
	outcomeOf(&out, ws, werr, timedOut)
	return out
}

// connect finds rac's terminal (stdout's, stderr's or stdin's) and
// decides which of the command's fds 1 and 2 get the pty: those that are
// that terminal, both when neither is. fwd is where the pty's output is
// forwarded (nil: nowhere). Stdin is never the pty's.
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
	for i := 1; i <= 2; i++ {
		onPTY[i] = r.term >= 0 && terminal.Is(std[i]) && sameTerminal(fds[i], r.term)
	}
	if !onPTY[1] && !onPTY[2] {
		// forced with no terminal on the output: it goes through the pty
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

// start starts the command in rac's own session and process group, with
// the pty on the fds onPTY names; the others are rac's own, or /dev/null
// in place of a missing one. The pty is not its controlling terminal.
func (r *ptyRun) start(path string, tty, devNull *os.File, onPTY [3]bool) error {
	var files [3]uintptr
	for i, f := range [3]*os.File{r.o.Stdin, r.o.Stdout, r.o.Stderr} {
		switch {
		case onPTY[i]:
			files[i] = tty.Fd()
		case f == nil:
			files[i] = devNull.Fd()
		default:
			files[i] = f.Fd()
		}
	}
	r.proc = &process{}
	r.follower = newStopFollower(r.proc)
	return startProcess(path, r.o.Argv, &syscall.ProcAttr{
		Dir: r.o.Dir, Env: r.o.Env, Files: files[:],
	}, r.proc)
}

// run copies the output out while the supervisor watches the command,
// then drains the output once it has ended; it reports whether the
// timeout ended the command.
func (r *ptyRun) run(sigs chan os.Signal, fwd *os.File) bool {
	filter, st := r.storeChain()
	quit, lent := r.startLending(r.o.Stdin) // before the copier follows the modes
	outDone := make(chan struct{})
	go func() {
		defer close(outDone)
		r.copyOut(st, fwd)
	}()

	stopsCaught := catchStops(sigs)
	defer func() { <-stopsCaught }() // before the catching ends
	sup := &supervisor{
		proc: r.proc, relay: r.relay, stopped: r.follower.stopped, onStopped: r.follower.follow,
		timeout: r.o.Timeout, killAfter: r.o.KillAfter, timer: r.o.timer, stopping: &r.stopping, contain: r.o.Contain,
	}
	timedOut := sup.run(sigs)
	close(quit)
	<-lent

	r.drain(outDone)
	// the modes the command left on the pty, set after its last output
	// (ncurses restores them last of all)
	r.followModes()
	if st != nil {
		if err := st.close(); err != nil {
			r.notes = append(r.notes, fmt.Sprintf("storing the output failed: %v", err))
		}
		if n := filter.note(); n != "" {
			r.notes = append(r.notes, n)
		}
	}
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
// terminal (the command sees the same modes, the same size), and
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
	r.master, r.mfd, r.slave = os.NewFile(uintptr(fd), "/dev/ptmx"), fd, tty.Name()
	if r.wake, err = newWakePipe(); err != nil {
		r.master.Close()
		tty.Close()
		return nil, err
	}
	ws := &unix.Winsize{Row: 24, Col: 80}
	if r.term >= 0 {
		if t, err := terminal.GetTermios(r.term); err == nil && setTermios(int(tty.Fd()), t) == nil {
			// the modes are followed only when the pty starts with the
			// terminal's: a change is then the command's
			if seen, err := terminal.GetTermios(r.mfd); err == nil {
				r.seen = seen
			}
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
		m, err := readNonblock(r.mfd, buf[n:])
		if err == nil && m > 0 {
			r.followModes()
			forward(buf[n : n+m])
		}
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

// relay is pty mode's rule for a signal that reached rac: a resize
// resizes the pty first, a continue takes the command's modes back to the
// terminal, and every signal (these too) is then passed on by pipe mode's
// rule, since the command is in rac's process group.
func (r *ptyRun) relay(sig syscall.Signal) {
	switch sig {
	case syscall.SIGWINCH:
		r.resize()
		return
	case syscall.SIGCONT:
		r.resume()
	}
	r.rel.handle(sig)
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

// resize gives the pty the terminal's size. The kernel signalled the
// terminal's foreground group (rac and the command) at the same moment,
// so the command may have asked the pty's size before this: when the size
// changed, the command's tree is signalled again, and asks again.
func (r *ptyRun) resize() {
	if r.term < 0 {
		return
	}
	ws, err := getWinsize(r.term)
	if err != nil || ws.Row == 0 || ws.Col == 0 {
		return
	}
	if now, err := getWinsize(r.mfd); err == nil && *now == *ws {
		return
	}
	if setWinsize(r.mfd, ws) == nil {
		r.proc.signalTree(syscall.SIGWINCH)
	}
}

// resume follows rac's continue (fg): a shell gives its terminal its own
// modes back when a job stops, so modes rac copied from the pty are
// copied again.
func (r *ptyRun) resume() {
	r.modesMu.Lock()
	defer r.modesMu.Unlock()
	if r.mirrored && r.seen != nil && terminal.FdInForeground(r.term) {
		_ = setTermios(r.term, r.seen)
	}
}

// followModes copies the pty's modes to rac's terminal when the command
// changed them (a program that sets its modes on fd 1, as ncurses does,
// reads its keys from the terminal): called before each piece of output
// is forwarded, so what was written after a change is shown under it. Not
// in the background, where a change of modes would stop rac (SIGTTOU).
func (r *ptyRun) followModes() {
	r.modesMu.Lock()
	defer r.modesMu.Unlock()
	if r.seen == nil {
		return
	}
	t, err := terminal.GetTermios(r.mfd) // a master's modes are its pty's
	if err != nil || *t == *r.seen {
		return
	}
	if !terminal.FdInForeground(r.term) {
		return // looked at again with the next output
	}
	if setTermios(r.term, t) == nil {
		r.seen, r.mirrored = t, true
		select {
		case r.modesChanged <- struct{}{}:
		default:
		}
	}
}
