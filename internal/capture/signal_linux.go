package capture

import (
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/procfs"
)

// witness tells a signal sent to rac's pid alone from one sent to rac's
// process group (or to every pid of its tree), which the kernel already
// delivered to the command. The two look the same to rac (SI_USER, same
// sender), and a tree kill reaches rac before the command, so the
// question is answered after the fact by a bystander: cat(1), kept in
// rac's group with the relayed signals (and pipeStops) blocked, reading a pipe whose
// write end only rac holds. A signal that reached the group stays pending
// in it, where /proc/PID/status shows it (ShdPnd). Then that cat is
// replaced by a fresh one, so the next signal of the same number can be
// told apart again.
//
// The cat never outlives rac: it reads end of file as soon as rac is gone
// (however rac ends, the kernel closes the write end), and it gets SIGKILL
// if rac dies while the cat is stopped (Pdeathsig, tied to the locked
// thread that forks every cat and lives as long as the witness). It is
// rac's child, not the command's, so the command cannot wait for it; its
// descriptors are the pipe and /dev/null, so it holds none of the
// command's output and none of rac's, and its directory is /.
type witness struct {
	path    string
	keep    int // the write end: rac's alone (close-on-exec)
	in      int // the read end: each cat's stdin
	null    int
	pid     int
	carried uint64 // group signals a replaced cat held that rac has not decided yet
	forks   chan chan forked
}

type forked struct {
	pid int
	err error
}

// startWitness starts the first cat; nil when there is no cat to run or
// it cannot be started (then every signal to rac is passed on).
func startWitness() *witness {
	path, err := catPath()
	if err != nil {
		return nil
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil
	}
	null, err := unix.Open(os.DevNull, unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(p[0])
		unix.Close(p[1])
		return nil
	}
	w := &witness{path: path, in: p[0], keep: p[1], null: null, forks: make(chan chan forked)}
	go w.forker()
	if w.pid, err = w.fork(); err != nil {
		w.close()
		return nil
	}
	return w
}

// forker forks every cat from one OS thread that blocks the relayed
// signals (a fork inherits the thread's mask, and exec keeps it) and
// lives until the witness is closed (Pdeathsig fires when it ends). The
// stop signals are blocked too: a Ctrl-Z that stopped a cat between its
// fork and its exec would leave this thread in vfork's wait, which no
// stop ends, so rac could never stop and the shell would never see its
// job stopped (the cat is a bystander: it need not stop with the job).
func (w *witness) forker() {
	runtime.LockOSThread()
	var set, old unix.Sigset_t
	for _, s := range append([]os.Signal{syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU}, relayed...) {
		sig := s.(syscall.Signal)
		set.Val[(sig-1)/64] |= 1 << ((uint(sig) - 1) % 64)
	}
	if err := unix.PthreadSigmask(unix.SIG_BLOCK, &set, &old); err != nil {
		// A cat without the mask would die of the first signal: none at all.
		for req := range w.forks {
			req <- forked{err: err}
		}
		runtime.UnlockOSThread()
		return
	}
	for req := range w.forks {
		pid, err := syscall.ForkExec(w.path, []string{"cat"}, &syscall.ProcAttr{
			Dir: "/", Env: []string{},
			Files: []uintptr{uintptr(w.in), uintptr(w.null), uintptr(w.null)},
			Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
		})
		req <- forked{pid, err}
	}
	_ = unix.PthreadSigmask(unix.SIG_SETMASK, &old, nil)
	runtime.UnlockOSThread()
}

func (w *witness) fork() (int, error) {
	req := make(chan forked)
	w.forks <- req
	r := <-req
	return r.pid, r.err
}

// reachedGroup reports whether sig, which reached rac, also reached the
// witness within settle. A signal to the group or tree shows at once; one
// to rac's pid alone is known only once settle has passed.
func (w *witness) reachedGroup(sig syscall.Signal, settle time.Duration) bool {
	bit := uint64(1) << (uint(sig) - 1)
	if w.carried&bit != 0 {
		w.carried &^= bit
		return true
	}
	deadline := time.Now().Add(settle)
	step := max(settle/20, 100*time.Microsecond)
	for {
		pending, ok := w.pending()
		if !ok {
			// gone (a tree kill's SIGKILL): rac cannot tell; the next signal
			// finds a new witness
			w.replace(0)
			return false
		}
		if pending&bit != 0 {
			w.replace(bit)
			return true
		}
		if !time.Now().Before(deadline) {
			return false
		}
		time.Sleep(step)
	}
}

// replace swaps the cat for a fresh one with nothing pending. The old one
// is read a last time after the new one exists, so a group signal that
// came in between is carried over rather than lost.
func (w *witness) replace(decided uint64) {
	old := w.pid
	pid, err := w.fork()
	if err != nil {
		return // keep the old one: its pending set only grows, rac passes on less
	}
	if pending, ok := w.pendingOf(old); ok {
		w.carried |= pending &^ decided
	}
	w.pid = pid
	reapKilled(old)
}

func (w *witness) pending() (uint64, bool) { return w.pendingOf(w.pid) }

// pendingOf reads the signals pending in process pid, process-wide and
// for its thread; false when it has ended.
func (w *witness) pendingOf(pid int) (uint64, bool) {
	st, err := procfs.ReadStatus(pid)
	if err != nil || st.State == 'Z' || st.State == 'X' {
		return 0, false
	}
	return st.SigPnd | st.ShdPnd, true
}

// close ends the witness: every cat reads end of file (and gets SIGKILL,
// should it be stopped) and is reaped.
func (w *witness) close() {
	if w == nil {
		return
	}
	unix.Close(w.keep)
	if w.pid > 0 {
		reapKilled(w.pid)
	}
	close(w.forks)
	unix.Close(w.in)
	unix.Close(w.null)
}

// reapKilled ends a cat of rac's own and reaps it.
func reapKilled(pid int) {
	_ = unix.Kill(pid, unix.SIGKILL)
	var ws unix.WaitStatus
	for {
		if _, err := unix.Wait4(pid, &ws, 0, nil); err != unix.EINTR {
			return
		}
	}
}

// canRaiseStop: raiseStop stops rac by a stop signal it catches.
const canRaiseStop = true

// raiseStop stops rac with sig by the signal's default action, also while
// rac catches it (pipe mode's pipeStops): the action is set to the
// default for the moment of the raise by the system call itself (through
// os/signal, Go's handler would stay installed and drop the signal) and
// set back after. The signal goes to this thread (tgkill), which takes it
// on its way back from that call, before the action is set back; SIGSTOP
// when the action cannot be changed.
func raiseStop(sig syscall.Signal) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// zeroes are SIG_DFL, no flags, an empty mask; old is kept as the
	// kernel wrote it, whatever its layout
	var dfl, old [64]byte
	const sigsetSize = 8 // the kernel's sigset_t: 64 signals
	if _, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(&dfl)), uintptr(unsafe.Pointer(&old)), sigsetSize, 0, 0); e != 0 {
		_ = unix.Kill(os.Getpid(), unix.SIGSTOP)
		return
	}
	_ = unix.Tgkill(os.Getpid(), unix.Gettid(), sig)
	_, _, _ = unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&old)), 0, sigsetSize, 0, 0)
}
