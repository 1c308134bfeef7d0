package capture

import (
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/terminal"
)

// Passthrough mode hands the command rac's own fds 0-2 and rac's process
// group, as a shell would run it without rac: nothing is copied, so an
// editor, a pager or a REPL owns the terminal exactly as without rac, and
// the recording holds only metadata. Keys on the terminal (Ctrl-C, Ctrl-Z,
// a resize) reach the command directly; rac passes on only the signals
// sent to rac alone.
func runPassthrough(o RunOptions) Outcome {
	out := Outcome{Received: map[string]record.Counts{}, lastOpen: map[string]bool{}}
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
	std := [3]*os.File{o.Stdin, o.Stdout, o.Stderr}
	var files [3]uintptr
	fg := false
	for i, f := range std {
		if f == nil {
			f = devNull
		}
		fg = fg || terminal.InForeground(f)
		files[i] = f.Fd()
	}
	p, err := startProc(path, o.Argv, &syscall.ProcAttr{
		Dir: o.Dir, Env: envOrOwn(o.Env), Files: files[:], Sys: &syscall.SysProcAttr{},
	}, false)
	if err != nil {
		err = fmt.Errorf("%s: %w", o.Argv[0], classifyStartErr(&os.PathError{Op: "exec", Path: path, Err: err}))
		return failedToStart(out, err, startErrCode(err))
	}
	var timeout, killAfter <-chan time.Time
	if o.Timeout > 0 {
		t := time.NewTimer(o.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	timedOut := false
	stopping := &stopNotice{fn: o.OnStopping}
	defer stopping.wait()
	for done := false; !done; {
		select {
		case s := <-sigs:
			sig := s.(syscall.Signal)
			if !slices.Contains(ptyRelayed, s) {
				continue // SIGPIPE, SIGWINCH, SIGCONT: as without rac
			}
			stopping.saw(sig)
			if fg && (sig == syscall.SIGINT || sig == syscall.SIGQUIT) {
				continue // the terminal sent it to the command too
			}
			p.signal(sig)
		case _, ok := <-p.events:
			done = !ok
		case <-timeout:
			timedOut = true
			p.signal(syscall.SIGTERM)
			if o.KillAfter > 0 {
				t := time.NewTimer(o.KillAfter)
				defer t.Stop()
				killAfter = t.C
			}
		case <-killAfter:
			p.signal(syscall.SIGKILL)
		}
	}
	ws, werr := p.result()
	outcomeOf(&out, ws, werr, timedOut)
	return out
}
