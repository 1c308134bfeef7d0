//go:build !linux

package mcpserver

import "syscall"

// groupAttr starts rac run as the leader of a process group of its own.
// (Without Linux's Pdeathsig, a server killed with SIGKILL leaves it
// running to its timeout.)
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
