//go:build linux

package session

import (
	"bytes"
	"errors"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// linuxProc reads /proc with one open and, for every file rac reads, a
// single read(2) into a buffer large enough for it: no exec, no parsing of
// more than it needs.
type linuxProc struct{}

func systemProc() Proc { return linuxProc{} }

func (linuxProc) Self() int { return unix.Getpid() }

func (linuxProc) BootID() (string, error) {
	var buf [64]byte
	n, err := readInto("/proc/sys/kernel/random/boot_id", buf[:])
	if err == nil {
		if id := string(bytes.TrimSpace(buf[:n])); id != "" {
			return id, nil
		}
	}
	// Without boot_id (a sandbox hiding /proc/sys), the boot time in
	// seconds tells boots apart as well.
	b, err2 := readAll("/proc/stat")
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
	var buf [1024]byte
	n, err := readInto(procPath(pid, "stat"), buf[:])
	if err != nil {
		return ProcStat{}, err
	}
	return parseStat(pid, buf[:n])
}

func (linuxProc) Environ(pid int) ([]byte, error) { return readAll(procPath(pid, "environ")) }

func (linuxProc) Cmdline(pid int) ([]byte, error) { return readAll(procPath(pid, "cmdline")) }

func procPath(pid int, file string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + file
}

var errShortStat = errors.New("malformed /proc stat")

// parseStat reads the fields Identify needs from /proc/PID/stat. The
// command name (field 2) may hold spaces and parentheses, so fields are
// counted from the last ')'.
func parseStat(pid int, b []byte) (ProcStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return ProcStat{}, errShortStat
	}
	// Fields after ')': 3 state, 4 ppid, 5 pgrp, 6 session, 7 tty_nr,
	// ..., 22 starttime.
	st := ProcStat{PID: pid}
	field := 2
	for rest := b[i+1:]; len(rest) > 0 && field < 22; {
		for len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		j := bytes.IndexAny(rest, " \n")
		if j < 0 {
			j = len(rest)
		}
		tok := rest[:j]
		rest = rest[j:]
		if len(tok) == 0 {
			break
		}
		field++
		var err error
		switch field {
		case 4:
			st.PPID, err = atoi(tok)
		case 6:
			st.SID, err = atoi(tok)
		case 7:
			st.TTY, err = atoi(tok)
		case 22:
			var v int
			v, err = atoi(tok)
			st.Start = uint64(v)
		}
		if err != nil {
			return ProcStat{}, err
		}
	}
	if field < 22 {
		return ProcStat{}, errShortStat
	}
	return st, nil
}

func atoi(b []byte) (int, error) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, errShortStat
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errShortStat
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

// readInto reads a small file into buf; it fails if the file does not fit.
func readInto(path string, buf []byte) (int, error) {
	fd, err := openRead(path)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := readFD(fd, buf[n:])
		if err != nil {
			return 0, err
		}
		if m == 0 {
			return n, nil
		}
		n += m
	}
	return 0, errors.New(path + ": larger than expected")
}

// scratch holds read buffers between calls; an environment block is
// usually a few KiB and always read whole in one read(2) when it fits.
var scratch = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// maxProcFile bounds what rac reads of one environ or cmdline (Linux caps
// argv plus environment at a quarter of the stack limit; this is plenty).
const maxProcFile = 8 << 20

// readAll reads a whole /proc file and returns a copy of exactly its bytes.
func readAll(path string) ([]byte, error) {
	fd, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	bp := scratch.Get().(*[]byte)
	defer scratch.Put(bp)
	buf := *bp
	n := 0
	for {
		if n == len(buf) {
			if len(buf) >= maxProcFile {
				return nil, errors.New(path + ": too large")
			}
			buf = append(buf, make([]byte, len(buf))...)
			*bp = buf
		}
		m, err := readFD(fd, buf[n:])
		if err != nil {
			return nil, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return bytes.Clone(buf[:n]), nil
}

func openRead(path string) (int, error) {
	for {
		fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

func readFD(fd int, b []byte) (int, error) {
	for {
		n, err := unix.Read(fd, b)
		if err != unix.EINTR {
			return n, err
		}
	}
}
