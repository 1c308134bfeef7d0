package mcpserver

import "syscall"

// groupAttr starts rac run as the leader of a process group of its own,
// with SIGTERM as its parent-death signal: should the server die without
// stopping it (kill -9), rac run (--mcp-call) kills everything below it
// and ends.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
