package mcpserver

import "syscall"

// groupAttr starts rac run as the leader of a process group of its own,
// and kills it should the server die without stopping it (kill -9): rac
// run then stops the command itself (its child gets SIGKILL when rac dies).
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
