//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package ui

import "golang.org/x/sys/unix"

const ioctlGetTermios = unix.TIOCGETA
