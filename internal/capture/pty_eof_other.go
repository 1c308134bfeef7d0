//go:build !linux

package capture

// takeCooked leaves the terminal's pending input to be read raw: how a
// terminal keeps an end of input in its queue is Linux's (see the Linux
// version).
func (r *ptyRun) takeCooked(int) {}
