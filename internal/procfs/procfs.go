// Package procfs reads Linux's /proc, the one place rac parses it: a
// process's stat line (parent, group, session, terminal, state, start
// time), and small files read whole with one open and as few read(2)s as
// they need (no exec, no parsing of more than is asked). session's process
// table, capture's tree walk, store's harness notes and hook's look at the
// harness's command line all read through it. Where there is no /proc
// (macOS) every read fails; callers fall back as they always did. It must
// never write, and never follow a symlink out of /proc.
package procfs

import (
	"bytes"
	"errors"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// Stat is what rac reads of /proc/PID/stat.
type Stat struct {
	PID   int
	State byte   // field 3: R, S, D, T, Z...
	PPID  int    // field 4: the parent
	PGRP  int    // field 5: the process group
	SID   int    // field 6: the session (its leader's pid)
	TTY   int    // field 7: the controlling terminal's device number, 0 for none
	Start uint64 // field 22: the start time in clock ticks since boot
}

// ErrMalformed is a stat line that does not read as one.
var ErrMalformed = errors.New("malformed /proc stat")

// Path is /proc/PID/FILE.
func Path(pid int, file string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + file
}

// ReadStat reads and parses /proc/PID/stat.
func ReadStat(pid int) (Stat, error) {
	var buf [1024]byte
	n, err := ReadInto(Path(pid, "stat"), buf[:])
	if err != nil {
		return Stat{}, err
	}
	return ParseStat(pid, buf[:n])
}

// ParseStat reads the fields of Stat from a stat line of process pid. The
// command name (field 2) may hold spaces and parentheses, so fields are
// counted from the last ')'.
func ParseStat(pid int, b []byte) (Stat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Stat{}, ErrMalformed
	}
	st := Stat{PID: pid}
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
		case 3:
			if len(tok) != 1 {
				return Stat{}, ErrMalformed
			}
			st.State = tok[0]
		case 4:
			st.PPID, err = atoi(tok)
		case 5:
			st.PGRP, err = atoi(tok)
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
			return Stat{}, err
		}
	}
	if field < 22 {
		return Stat{}, ErrMalformed
	}
	return st, nil
}

func atoi(b []byte) (int, error) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, ErrMalformed
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, ErrMalformed
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, nil
}

// ReadInto reads a small file into buf; it fails if the file does not fit.
func ReadInto(path string, buf []byte) (int, error) {
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

// maxFile bounds what is read of one environ or cmdline (Linux caps argv
// plus environment at a quarter of the stack limit; this is plenty).
const maxFile = 8 << 20

// ReadAll reads a whole /proc file and returns a copy of exactly its
// bytes.
func ReadAll(path string) ([]byte, error) {
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
			if len(buf) >= maxFile {
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

// Status is what rac reads of /proc/PID/status: the state, the signal
// masks and how often the process has gone to sleep.
type Status struct {
	State byte // Z or X: the process has ended
	// SigPnd, ShdPnd: signals pending for the thread and the process;
	// SigIgn, SigCgt: signals ignored and caught.
	SigPnd, ShdPnd, SigIgn, SigCgt uint64
	// Sleeps is voluntary_ctxt_switches: it grows each time the process
	// blocks (a read that waits, for one)
	Sleeps uint64
}

// ReadStatus reads and parses /proc/PID/status.
func ReadStatus(pid int) (Status, error) {
	var buf [4096]byte
	n, err := ReadInto(Path(pid, "status"), buf[:])
	if err != nil {
		return Status{}, err
	}
	return ParseStatus(buf[:n])
}

// ParseStatus reads the fields of Status from a status file; a mask that
// is not hexadecimal is ErrMalformed.
func ParseStatus(b []byte) (Status, error) {
	var st Status
	for line := range bytes.Lines(b) {
		k, v, ok := bytes.Cut(bytes.TrimSpace(line), []byte(":"))
		if !ok {
			continue
		}
		v = bytes.TrimSpace(v)
		var mask *uint64
		switch string(k) {
		case "State":
			if len(v) > 0 {
				st.State = v[0]
			}
		case "SigPnd":
			mask = &st.SigPnd
		case "ShdPnd":
			mask = &st.ShdPnd
		case "SigIgn":
			mask = &st.SigIgn
		case "SigCgt":
			mask = &st.SigCgt
		case "voluntary_ctxt_switches":
			st.Sleeps, _ = strconv.ParseUint(string(v), 10, 64)
		}
		if mask != nil {
			n, err := strconv.ParseUint(string(v), 16, 64)
			if err != nil {
				return Status{}, ErrMalformed
			}
			*mask = n
		}
	}
	return st, nil
}
