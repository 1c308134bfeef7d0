package session

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Proc is the process table as Identify reads it: the running system by
// default (SystemProc), a fake in tests. Any method may fail; a failure only
// makes a rule fall through to the next, it never fails Identify.
type Proc interface {
	// Self is the pid of the process asking.
	Self() int
	// BootID names the current boot, so a key built from pids and start
	// times never matches a process of an earlier boot.
	BootID() (string, error)
	// Stat reads one process's parent, process session, controlling
	// terminal and start time.
	Stat(pid int) (ProcStat, error)
	// Environ is the process's environment as it was when the process
	// started (exec time), as NUL-terminated NAME=value entries. It fails
	// for another user's process and for a non-dumpable one; Identify
	// counts that as an injection boundary.
	Environ(pid int) ([]byte, error)
	// Cmdline is the process's argv as NUL-terminated strings.
	Cmdline(pid int) ([]byte, error)
}

// ProcStat is what Identify needs to know about one process.
type ProcStat struct {
	PID   int
	PPID  int    // parent; 0 at the top of the visible tree
	SID   int    // process session id: the pid of the session leader
	TTY   int    // controlling terminal device number, 0 for none
	Start uint64 // start time in the system's own unit (Linux: clock ticks since boot); only compared and hashed
}

// errNoProcTable is returned by a Proc on a system rac cannot read
// processes on.
var errNoProcTable = errors.New("no process table on this system")

// SystemProc is the process table of the running system: /proc on Linux,
// sysctl on macOS, nothing elsewhere (every method fails, so the rules that
// need it fall through).
func SystemProc() Proc { return systemProc() }

// envLookup finds name in a NUL-separated environment block. As getenv
// does, the first entry for a name counts.
func envLookup(env []byte, name string) (string, bool) {
	for len(env) > 0 {
		entry := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			entry, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if len(entry) > len(name) && entry[len(name)] == '=' && string(entry[:len(name)]) == name {
			return string(entry[len(name)+1:]), true
		}
	}
	return "", false
}

// envHas reports whether env holds exactly name=value.
func envHas(env []byte, name, value string) bool {
	for len(env) > 0 {
		entry := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			entry, env = env[:i], env[i+1:]
		} else {
			env = nil
		}
		if len(entry) > len(name) && entry[len(name)] == '=' && string(entry[:len(name)]) == name {
			return string(entry[len(name)+1:]) == value
		}
	}
	return false
}

// looksLikeOneCommand reports whether argv (NUL-separated) is a shell run
// for one command (`bash -c ...`, `sh -lc ...`), as agents start their tool
// calls, rather than an interactive shell.
func looksLikeOneCommand(argv []byte) bool {
	args := bytes.Split(bytes.TrimRight(argv, "\x00"), []byte{0})
	for _, a := range args[min(1, len(args)):] {
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		letters := true
		for _, c := range a[1:] {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				letters = false
				break
			}
		}
		if letters && bytes.IndexByte(a[1:], 'c') >= 0 {
			return true
		}
	}
	return false
}

var errProcArgs = errors.New("malformed kern.procargs2")

// parseProcArgs splits macOS's kern.procargs2: a native int argc, the exec
// path, NUL padding, argc argument strings, then the environment strings up
// to an empty one (after which come the kernel's "apple" strings, not
// read). It lives here, not in proc_darwin.go, so it is tested everywhere.
func parseProcArgs(buf []byte) (argv, env []byte, err error) {
	if len(buf) < 4 {
		return nil, nil, errProcArgs
	}
	argc := int(binary.NativeEndian.Uint32(buf))
	rest := buf[4:]
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, nil, errProcArgs
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	start := rest
	for n := 0; n < argc && len(rest) > 0; n++ {
		i := bytes.IndexByte(rest, 0)
		if i < 0 {
			return nil, nil, errProcArgs
		}
		rest = rest[i+1:]
	}
	argv = start[:len(start)-len(rest)]
	start = rest
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, 0)
		if i <= 0 {
			break
		}
		rest = rest[i+1:]
	}
	return argv, start[:len(start)-len(rest)], nil
}
