package gc

import (
	"errors"
	"math"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
)

// A finished recording's footer says what its folder held when it was
// written (record.Disk). The first pass over a store, which has no
// CacheFile to go by, reads that in place of a stat of every file: a
// recording then costs a stat of its folder and an open, a stat, a read
// and a close of its footer instead of a listing and a stat of each of
// its files. The summary stands only while the folder is the one it was
// written in (its inode), nothing was added, removed or renamed in it
// since (the folder's modification time is not later than the footer's)
// and nothing in it was backdated past it (its newest time is not later
// than the footer's); otherwise, and for anything that does not parse,
// the folder is measured file by file.

// maxFooter bounds what is read of a footer for its summary: rac writes a
// few hundred bytes; a bigger one is measured file by file.
const maxFooter = 8 << 10

// maxSummaryMisses is how many footers of a session may fail to give a
// summary before the session's other recordings are measured at once
// file by file: a store written by an older rac would otherwise pay for a
// footer read in vain on every recording of its first pass.
const maxSummaryMisses = 2

var footerBufs = sync.Pool{New: func() any { b := make([]byte, maxFooter); return &b }}

// summary is what a recording's footer told of its folder.
type summary struct {
	id     dirID // the folder's state when stat-ed
	size   int64
	newest time.Time
	footer bool // a footer was opened, whether its summary held or not
	ok     bool // the summary holds: id, size and newest are the folder's
}

// footerStat is what a summary needs of the footer file.
type footerStat struct {
	mode  uint32
	nlink uint64
	size  int64
	mtime time.Time
}

// settle reads the footer in buf (all of it: n bytes of a file of
// fst.size) and decides whether its summary holds for the folder s.id.
func (s *summary) settle(buf []byte, n int, fst footerStat) {
	if n != int(fst.size) || fst.mode&unix.S_IFMT != unix.S_IFREG || fst.nlink != 1 {
		return
	}
	d, ok := footerDisk(buf[:n])
	if !ok || d.Inode != s.id.ino ||
		time.Unix(0, s.id.mtime).After(fst.mtime) || d.Newest.After(fst.mtime) {
		return
	}
	s.size, s.newest, s.ok = d.Bytes+fst.size, fst.mtime, true
}

// summaryViaDir is footerSummary through the folder's descriptor, with
// the system calls every Unix has: the folder is opened without following
// a symlink, its state taken from the descriptor, and the footer opened
// relative to it without following one either.
func summaryViaDir(dirfd int, name string) (s summary) {
	dfd, err := openDir(dirfd, name)
	if err != nil {
		return s
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstat(dfd, &st); err != nil {
		return s
	}
	s.id = dirIDOf(&st)
	fd, err := unix.Openat(dfd, record.FooterFile, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if err != nil {
		return s
	}
	defer unix.Close(fd)
	s.footer = true
	if err := unix.Fstat(fd, &st); err != nil || st.Size > maxFooter {
		return s
	}
	bp := footerBufs.Get().(*[]byte)
	defer footerBufs.Put(bp)
	n, err := readFull(fd, *bp)
	if err != nil {
		return s
	}
	s.settle(*bp, n, footerStat{mode: uint32(st.Mode), nlink: uint64(st.Nlink), size: st.Size, mtime: mtime(&st)})
	return s
}

// readFull reads fd until buf is full or the end.
func readFull(fd int, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return n, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return n, nil
}

// footerDisk finds the "disk" member of a footer's top-level object
// without decoding the rest (a pass may read 100,000 footers: a scan of
// their bytes costs a sixth of what encoding/json does). It is strict
// where that is cheap: any key at the top level or in "disk" other than
// plain lower-case ASCII, a "disk" or a member of it given twice, a number
// that is not a non-negative integer or a time that is not RFC 3339 (as
// encoding/json reads one) makes it give up, and the folder is measured
// file by file. What it does return for a footer encoding/json accepts is
// what encoding/json reads there.
func footerDisk(b []byte) (d record.Disk, ok bool) {
	s := jscan{b: b}
	s.ws()
	found := false
	if !s.object(func(key []byte) bool {
		if string(key) != "disk" {
			return s.skip()
		}
		if found {
			return false
		}
		d, found = s.disk()
		return found
	}) {
		return d, false
	}
	s.ws()
	return d, found && s.i == len(s.b)
}

// disk reads the "disk" object: bytes, newest and inode, each once;
// members added later are skipped.
func (s *jscan) disk() (d record.Disk, ok bool) {
	var seen [3]bool
	if !s.object(func(key []byte) bool {
		var i int
		ok := false
		switch string(key) {
		case "bytes":
			var v uint64
			v, ok = s.uint()
			i, d.Bytes, ok = 0, int64(v), ok && v <= math.MaxInt64
		case "newest":
			// the very parser encoding/json uses for a time.Time
			start := s.i
			_, ok = s.str()
			i, ok = 1, ok && d.Newest.UnmarshalJSON(s.b[start:s.i]) == nil
		case "inode":
			i = 2
			d.Inode, ok = s.uint()
		default:
			return s.skip()
		}
		if !ok || seen[i] {
			return false
		}
		seen[i] = true
		return true
	}) {
		return d, false
	}
	return d, seen == [3]bool{true, true, true}
}

// object walks an object, calling member with each key and the scanner
// at its value, which member reads; false from member stops the walk.
func (s *jscan) object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	for first := true; ; first = false {
		s.ws()
		if s.eat('}') {
			return true
		}
		if !first && !s.eat(',') {
			return false
		}
		s.ws()
		key, ok := s.key()
		if !ok {
			return false
		}
		s.ws()
		if !member(key) {
			return false
		}
	}
}

// jscan walks JSON bytes.
type jscan struct {
	b []byte
	i int
}

func (s *jscan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *jscan) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads a member name and its colon; only [a-z_] names are taken
// (encoding/json would also match "Disk" or an escaped "disk" to the
// field, which rac never writes).
func (s *jscan) key() ([]byte, bool) {
	k, ok := s.str()
	if !ok || len(k) == 0 {
		return nil, false
	}
	for _, c := range k {
		if (c < 'a' || c > 'z') && c != '_' {
			return nil, false
		}
	}
	s.ws()
	return k, s.eat(':')
}

// str reads a string and returns its bytes between the quotes, escapes
// left as they are.
func (s *jscan) str() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '\\':
			s.i++
		case c == '"':
			s.i++
			return s.b[start : s.i-1], true
		case c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// uint reads a JSON integer without a sign (no leading zero, fraction or
// exponent) that fits 64 bits.
func (s *jscan) uint() (uint64, bool) {
	start := s.i
	var v uint64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		d := uint64(s.b[s.i] - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
		s.i++
	}
	switch {
	case s.i == start, s.b[start] == '0' && s.i-start > 1:
		return 0, false
	case s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E'):
		return 0, false
	}
	return v, true
}

// skip passes over one value: a string, an object or array (strings in it
// skipped as strings, so their brackets do not count), or a number or
// literal. It checks structure only as far as finding the value's end.
func (s *jscan) skip() bool {
	if s.i >= len(s.b) {
		return false
	}
	switch s.b[s.i] {
	case '"':
		_, ok := s.str()
		return ok
	case '{', '[':
		depth := 0
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '"':
				if _, ok := s.str(); !ok {
					return false
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					s.i++
					return true
				}
			}
			s.i++
		}
		return false
	}
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.i > start
		}
		s.i++
	}
	return false
}
