//go:build !linux || race

package capture

import "golang.org/x/sys/unix"

// readNonblock reads the pty's master side, which openPTY made
// non-blocking. Linux's raw read (rawread_linux.go) is measured there
// only; a race-enabled build uses this one, so the race detector sees buf
// written.
func readNonblock(fd int, p []byte) (int, error) { return unix.Read(fd, p) }
