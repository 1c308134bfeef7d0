//go:build !linux

package main

import (
	"os/signal"
	"syscall"
	"time"
)

// reraise ends rac by sig where the runtime lets it (SIGINT, SIGTERM,
// SIGHUP); otherwise rac exits with 128+N as a shell reports a signal death.
func reraise(sig syscall.Signal) int {
	signal.Reset(sig)
	_ = syscall.Kill(syscall.Getpid(), sig)
	time.Sleep(50 * time.Millisecond)
	return 128 + int(sig)
}
