package ui

// The pager rac out read writes through on a terminal, as git does.

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// pager is a running pager: what the streams wrote to before it.
type pager struct {
	cmd      *exec.Cmd
	in       *os.File // the pager's stdin, written through Out
	out, err io.Writer
	sigs     chan os.Signal
}

// errPagerQuit is a write to a pager that has ended (q before the end):
// StopPager makes it success, as git's SIGPIPE death is silent.
var errPagerQuit = errors.New("the pager has quit")

// StartPager runs cmd through sh -c, as git runs its pager, in env, with
// its output on the terminal of stdout; Out then writes to it, and so does
// Err (and the printer) when stderr is a terminal, so rac's notes show in
// the pager rather than under it. While it runs, SIGINT and SIGQUIT do not
// end rac: the pager handles the keys, and rac must not leave it reading
// from nothing. An empty cmd is no pager; one that does not start is a
// warning, and the text is printed without it. StopPager must follow.
func (s *IOStreams) StartPager(cmd string, env []string) {
	if cmd == "" || s.OutFile == nil {
		return
	}
	if err := s.startPager(cmd, env); err != nil {
		s.Printer().Warnf("pager %q did not start (%v): printing without it", cmd, err)
	}
}

func (s *IOStreams) startPager(cmd string, env []string) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	c := exec.Command("sh", "-c", cmd)
	c.Env, c.Stdin, c.Stdout, c.Stderr = env, r, s.OutFile, s.Err
	if err := c.Start(); err != nil {
		_ = r.Close()
		_ = w.Close()
		return err
	}
	_ = r.Close() // the pager holds its own copy
	p := &pager{cmd: c, in: w, out: s.Out, err: s.Err, sigs: make(chan os.Signal, 1)}
	signal.Notify(p.sigs, syscall.SIGINT, syscall.SIGQUIT)
	s.pager = p
	s.Out = pagerWriter{w}
	if s.IsStderrTTY() {
		s.Err = s.Out
		s.Printer().setWriter(s.Out)
	}
	return nil
}

// StopPager closes the pager's input, waits for it to end and puts the
// streams back. err is the error of the writing done through it: one
// that only says the pager was quit early is no error. Without a pager
// it returns err.
func (s *IOStreams) StopPager(err error) error {
	p := s.pager
	if p == nil {
		return err
	}
	s.pager = nil
	closeErr := p.in.Close()
	waitErr := p.cmd.Wait()
	signal.Stop(p.sigs)
	s.Out, s.Err = p.out, p.err
	s.Printer().setWriter(p.err)
	switch {
	case errors.Is(err, errPagerQuit):
		return nil
	case err != nil:
		return err
	case closeErr != nil:
		return closeErr
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		return nil // the pager's own status is the pager's business, as in git
	}
	return waitErr
}

// pagerWriter tells a write to a pager that has ended (EPIPE) from other
// failures.
type pagerWriter struct{ f *os.File }

func (p pagerWriter) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		return n, errPagerQuit
	}
	return n, err
}
