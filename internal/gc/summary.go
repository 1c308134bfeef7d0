package gc

import (
	"errors"
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
	id      dirID // the folder's state when stat-ed
	dirDisk int64 // what the folder itself takes on disk, then
	size    int64 // on disk: the folder, its files and the footer
	newest  time.Time
	footer  bool // a footer was opened, whether its summary held or not
	ok      bool // the summary holds: id, size and newest are the folder's
}

// footerStat is what a summary needs of the footer file.
type footerStat struct {
	mode  uint32
	nlink uint64
	size  int64
	disk  int64 // on disk
	mtime time.Time
}

// settle reads the footer in buf (all of it: n bytes of a file of
// fst.size) and decides whether its summary holds for the folder s.id.
func (s *summary) settle(buf []byte, n int, fst footerStat) {
	if n != int(fst.size) || fst.mode&unix.S_IFMT != unix.S_IFREG || fst.nlink != 1 {
		return
	}
	d, ok := record.FooterDisk(buf[:n])
	if !ok || d.Allocated < 0 || d.Inode != s.id.ino ||
		time.Unix(0, s.id.mtime).After(fst.mtime) || d.Newest.After(fst.mtime) {
		return // an older rac's footer (no allocated bytes) is measured too
	}
	s.size, s.newest, s.ok = s.dirDisk+d.Allocated+fst.disk, fst.mtime, true
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
	s.id, s.dirDisk = dirIDOf(&st), statDisk(&st)
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
	s.settle(*bp, n, footerStat{mode: uint32(st.Mode), nlink: uint64(st.Nlink), size: st.Size, disk: statDisk(&st), mtime: mtime(&st)})
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
