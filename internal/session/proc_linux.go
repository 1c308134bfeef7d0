//go:build linux

package session

import (
	"bytes"
	"errors"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/procfs"
)

// linuxProc reads /proc through procfs: one open and, for every file rac
// reads, a single read(2) into a buffer large enough for it.
type linuxProc struct{}

func systemProc() Proc { return linuxProc{} }

func (linuxProc) Self() int { return unix.Getpid() }

func (linuxProc) BootID() (string, error) {
	var buf [64]byte
	n, err := procfs.ReadInto("/proc/sys/kernel/random/boot_id", buf[:])
	if err == nil {
		if id := string(bytes.TrimSpace(buf[:n])); id != "" {
			return id, nil
		}
	}
	// Without boot_id (a sandbox hiding /proc/sys), the boot time in
	// seconds tells boots apart as well.
	b, err2 := procfs.ReadAll("/proc/stat")
	if err2 != nil {
		return "", errors.Join(err, err2)
	}
	for line := range bytes.SplitSeq(b, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			return "btime-" + string(bytes.TrimSpace(v)), nil
		}
	}
	return "", errors.New("no boot id in /proc")
}

func (linuxProc) Stat(pid int) (ProcStat, error) {
	st, err := procfs.ReadStat(pid)
	if err != nil {
		return ProcStat{}, err
	}
	return ProcStat{PID: st.PID, PPID: st.PPID, SID: st.SID, TTY: st.TTY, Start: st.Start}, nil
}

func (linuxProc) Environ(pid int) ([]byte, error) { return procfs.ReadAll(procfs.Path(pid, "environ")) }

func (linuxProc) Cmdline(pid int) ([]byte, error) { return procfs.ReadAll(procfs.Path(pid, "cmdline")) }
