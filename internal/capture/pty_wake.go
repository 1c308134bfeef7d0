package capture

import (
	"errors"
	"os"

	"github.com/rac-cli/rac/internal/terminal"
	"golang.org/x/sys/unix"
)

// wakePipe is a pipe whose write end wakes a poll of its read end, for
// copiers that poll by themselves. Its descriptors are valid until close.
type wakePipe struct {
	r, w *os.File
	rfd  int
	wfd  int
}

func newWakePipe() (*wakePipe, error) {
	r, w, err := os.Pipe() // close-on-exec: no command inherits it
	if err != nil {
		return nil, err
	}
	p := &wakePipe{r: r, w: w, rfd: -1, wfd: -1}
	terminal.Control(r, func(fd int) { p.rfd = fd })
	terminal.Control(w, func(fd int) { p.wfd = fd })
	if p.rfd < 0 || p.wfd < 0 {
		p.close()
		return nil, errors.New("no descriptor for a pipe")
	}
	return p, nil
}

// wake makes the read end readable; the copier polling it stops.
func (p *wakePipe) wake() { _, _ = unix.Write(p.wfd, []byte{0}) }

func (p *wakePipe) close() {
	p.r.Close()
	p.w.Close()
}
