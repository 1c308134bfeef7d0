package capture

import (
	"os"
	"slices"
	"syscall"

	"github.com/rac-cli/rac/internal/terminal"
)

// Passthrough mode hands the command rac's own fds 0-2 and rac's process
// group, as a shell would run it without rac: nothing is copied, so an
// editor, a pager or a REPL owns the terminal exactly as without rac, and
// the recording holds only metadata. Keys on the terminal (Ctrl-C, Ctrl-Z,
// a resize) reach the command directly; rac passes on only the signals
// sent to rac alone.
func runPassthrough(o RunOptions) Outcome {
	out := newOutcome()
	path, err := lookPath(o.Argv[0])
	if err != nil {
		return failedToStart(out, err, startErrCode(err))
	}
	sigs, stop := caughtFor(o, false)
	defer stop()

	devNull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return failedToStart(out, err, 126)
	}
	defer devNull.Close()
	var files [3]uintptr
	fg := false
	for i, f := range [3]*os.File{o.Stdin, o.Stdout, o.Stderr} {
		if f == nil {
			f = devNull
		}
		fg = fg || terminal.InForeground(f)
		files[i] = f.Fd()
	}
	p := &process{}
	if err := startProcess(path, o.Argv, &syscall.ProcAttr{Dir: o.Dir, Env: o.Env, Files: files[:]}, p); err != nil {
		return startFailed(out, o.Argv[0], path, err)
	}
	stopping := &stopNotice{fn: o.OnStopping}
	defer stopping.wait()
	sup := &supervisor{
		proc: p, relay: passthroughRelay(p, fg),
		timeout: o.Timeout, killAfter: o.KillAfter, timer: o.timer, stopping: stopping, contain: o.Contain,
	}
	timedOut := sup.run(sigs)
	ws, werr := p.result()
	outcomeOf(&out, ws, werr, timedOut)
	return out
}

// passthroughRelay is passthrough mode's rule for a signal that reached
// rac: those of ptyRelayed go to the command itself, but for SIGINT and
// SIGQUIT when rac is in the terminal's foreground (the terminal sent
// them to the command too); SIGPIPE, SIGWINCH and SIGCONT are left as
// without rac.
func passthroughRelay(p *process, fg bool) func(syscall.Signal) {
	return func(sig syscall.Signal) {
		if !slices.Contains(ptyRelayed, os.Signal(sig)) {
			return
		}
		if fg && (sig == syscall.SIGINT || sig == syscall.SIGQUIT) {
			return
		}
		p.signal(sig)
	}
}
