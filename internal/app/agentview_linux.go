package app

import (
	"os"

	"golang.org/x/sys/unix"
)

// harnessCaptures reports whether f, rac's stdout, is the file the agent
// harness captures: the same open file as fd 1 of the call's outermost
// shell. Each harness runs a call in a session of its own (Claude Code,
// Codex and Gemini CLI alike), so that shell is the session's leader;
// kcmp(KCMP_FILE) compares the two descriptors. In a pipeline (git log |
// head), a substitution or a redirection rac's stdout is another file.
func harnessCaptures(f *os.File) bool {
	sid, err := unix.Getsid(0)
	if err != nil || sid <= 1 {
		return false
	}
	pid := os.Getpid()
	fd := fdOf(f)
	if fd < 0 {
		return false
	}
	if sid == pid {
		return fd == 1
	}
	const kcmpFile = 0 // KCMP_FILE
	r, _, errno := unix.Syscall6(unix.SYS_KCMP, uintptr(pid), uintptr(sid), kcmpFile, uintptr(fd), 1, 0)
	return errno == 0 && r == 0
}
