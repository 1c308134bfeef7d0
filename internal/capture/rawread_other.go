//go:build !linux

package capture

import "golang.org/x/sys/unix"

// readNonblock reads a non-blocking descriptor. The raw read of Linux's
// (rawread_linux.go) is not measured here.
func readNonblock(fd int, p []byte) (int, error) { return unix.Read(fd, p) }
