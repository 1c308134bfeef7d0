//go:build !linux

package terminal

import "golang.org/x/sys/unix"

// macOS and the BSDs
const ioctlGetTermios = unix.TIOCGETA
