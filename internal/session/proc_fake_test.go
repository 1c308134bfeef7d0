package session

import (
	"errors"
	"strings"
)

// fakeProc is a process table in memory, so every rule can be tested
// without the machine's processes.
type fakeProc struct {
	self    int
	boot    string
	bootErr error
	procs   map[int]*fakeProcess
}

type fakeProcess struct {
	st         ProcStat
	env        []string // exec-time environment
	unreadable bool     // environ fails (non-dumpable, another user)
	argv       []string
}

var errFakeNoProc = errors.New("no such process")

func (f *fakeProc) Self() int { return f.self }

func (f *fakeProc) BootID() (string, error) { return f.boot, f.bootErr }

func (f *fakeProc) Stat(pid int) (ProcStat, error) {
	p, ok := f.procs[pid]
	if !ok {
		return ProcStat{}, errFakeNoProc
	}
	return p.st, nil
}

func (f *fakeProc) Environ(pid int) ([]byte, error) {
	p, ok := f.procs[pid]
	if !ok {
		return nil, errFakeNoProc
	}
	if p.unreadable {
		return nil, errors.New("permission denied")
	}
	return nulJoin(p.env), nil
}

func (f *fakeProc) Cmdline(pid int) ([]byte, error) {
	p, ok := f.procs[pid]
	if !ok {
		return nil, errFakeNoProc
	}
	return nulJoin(p.argv), nil
}

func nulJoin(ss []string) []byte {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s)
		b.WriteByte(0)
	}
	return []byte(b.String())
}

// lvl is one process in a fake chain, from the top down: the environment it
// was started with is its parent's plus set, minus unset.
type lvl struct {
	set        []string // NAME=value
	unset      []string
	setsid     bool // starts a new process session
	tty        int  // controlling terminal of a new session (0: none)
	unreadable bool
	argv       []string
}

// chain builds a fake table where each level is the child of the one
// before and the last one is rac itself; getenv is rac's environment. Pids
// are 1, 10, 20, ...; start times grow down the chain.
func chain(levels ...lvl) (*fakeProc, func(string) string) {
	f := &fakeProc{boot: "boot-1", procs: map[int]*fakeProcess{}}
	var env []string
	ppid, sid, tty := 0, 0, 0
	for i, l := range levels {
		pid := 1
		if i > 0 {
			pid = i * 10
		}
		env = applyEnv(env, l.set, l.unset)
		if l.setsid || i == 0 {
			sid, tty = pid, l.tty
		}
		f.procs[pid] = &fakeProcess{
			st:         ProcStat{PID: pid, PPID: ppid, SID: sid, TTY: tty, Start: uint64(1000 + i*100)},
			env:        env,
			unreadable: l.unreadable,
			argv:       l.argv,
		}
		ppid = pid
		f.self = pid
	}
	return f, envFunc(env)
}

func applyEnv(env, set, unset []string) []string {
	out := []string{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, u := range unset {
			keep = keep && u != name
		}
		for _, s := range set {
			n, _, _ := strings.Cut(s, "=")
			keep = keep && n != name
		}
		if keep {
			out = append(out, kv)
		}
	}
	return append(out, set...)
}

func envFunc(env []string) func(string) string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if _, dup := m[k]; !dup {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}

func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// noProcTable is a system without a process table (macOS without the sysctl
// equivalents, other systems).
type noProcTable struct{}

func (noProcTable) Self() int                   { return 0 }
func (noProcTable) BootID() (string, error)     { return "", errNoProcTable }
func (noProcTable) Stat(int) (ProcStat, error)  { return ProcStat{}, errNoProcTable }
func (noProcTable) Environ(int) ([]byte, error) { return nil, errNoProcTable }
func (noProcTable) Cmdline(int) ([]byte, error) { return nil, errNoProcTable }
