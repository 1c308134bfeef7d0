//go:build !linux

package capture

import "syscall"

// childSysProcAttr: no Pdeathsig outside Linux; a command whose rac was
// killed with SIGKILL keeps running, as a command whose parent shell died.
func childSysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

// descendants cannot be listed without /proc: --timeout signals the
// command's pid alone.
func descendants(int) []int { return nil }

// processState is unknown without /proc: the stop is taken as current.
func processState(int) byte { return 'T' }
