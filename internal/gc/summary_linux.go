package gc

import (
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// noOpenat2 is set once openat2 is found missing (before Linux 5.6) or
// refused (a seccomp filter): footers are then opened through their
// folder's descriptor (summaryViaDir), two system calls more.
var noOpenat2 atomic.Bool

const (
	statxFolder = unix.STATX_TYPE | unix.STATX_INO | unix.STATX_MTIME | unix.STATX_CTIME | unix.STATX_BLOCKS
	statxFooter = unix.STATX_TYPE | unix.STATX_NLINK | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_BLOCKS
)

// emptyPath is the path of a statx of a descriptor itself (AT_EMPTY_PATH).
var emptyPath = [1]byte{0}

// footerSummary measures a finished recording from its footer's summary
// in five system calls: a statx of the folder (none when known, a stat of
// it made just before, is given), an openat2 of NAME/footer.json that
// refuses a symlink anywhere on the way (RESOLVE_NO_SYMLINKS) and a path
// leaving the session folder (RESOLVE_BENEATH), a statx of it, a read, a
// close. The footer's summary names the inode of its folder, so a folder
// swapped between the stat and the open is not taken for the one read.
// Raw system calls, as in statNameAt and treeFd.
func footerSummary(dirfd int, name string, known *unix.Stat_t) (s summary) {
	const suffix = "/" + record.FooterFile + "\x00"
	var path [64]byte
	if len(name)+len(suffix) > len(path) || noStatx.Load() || noOpenat2.Load() {
		return summaryViaDir(dirfd, name)
	}
	copy(path[:], name) // NUL-terminated by the array's zeros
	if known != nil {
		s.id, s.dirDisk = dirIDOf(known), statDisk(known)
	} else {
		var stx unix.Statx_t
		switch e := statx(dirfd, &path[0], unix.AT_SYMLINK_NOFOLLOW, statxFolder, &stx); e {
		case 0:
		case unix.ENOSYS, unix.EPERM:
			noStatx.Store(true)
			return summaryViaDir(dirfd, name)
		default:
			return s
		}
		if stx.Mode&unix.S_IFMT != unix.S_IFDIR {
			return s
		}
		s.id = dirID{
			dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor), ino: stx.Ino,
			mtime: stx.Mtime.Sec*1e9 + int64(stx.Mtime.Nsec), ctime: stx.Ctime.Sec*1e9 + int64(stx.Ctime.Nsec),
		}
		s.dirDisk = store.OnDisk(int64(stx.Size), int64(stx.Blocks))
	}
	copy(path[len(name):], suffix)
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS,
	}
	r, _, e := unix.RawSyscall6(unix.SYS_OPENAT2, uintptr(dirfd), uintptr(unsafe.Pointer(&path[0])),
		uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	switch e {
	case 0:
	case unix.ENOSYS, unix.EPERM, unix.E2BIG, unix.EINVAL:
		noOpenat2.Store(true)
		return summaryViaDir(dirfd, name)
	default:
		return s // no footer (running, or the recorder died), or a symlink: measured file by file
	}
	fd := int(r)
	defer closeRaw(fd)
	s.footer = true
	var stx unix.Statx_t
	if e := statx(fd, &emptyPath[0], unix.AT_EMPTY_PATH, statxFooter, &stx); e != 0 || stx.Size > maxFooter {
		return s
	}
	bp := footerBufs.Get().(*[]byte)
	defer footerBufs.Put(bp)
	buf := *bp
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	if e != 0 {
		return s
	}
	s.settle(buf, int(n), footerStat{
		mode: uint32(stx.Mode), nlink: uint64(stx.Nlink), size: int64(stx.Size),
		disk: store.OnDisk(int64(stx.Size), int64(stx.Blocks)), mtime: time.Unix(stx.Mtime.Sec, int64(stx.Mtime.Nsec)),
	})
	return s
}

// closeRaw closes a descriptor opened only to read: nothing to lose.
func closeRaw(fd int) { _, _, _ = unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0) }

// statx is a raw statx that asks for want and reports an errno when the
// answer lacks any of it.
func statx(dirfd int, path *byte, flags int, want int, stx *unix.Statx_t) unix.Errno {
	_, _, e := unix.RawSyscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(path)),
		uintptr(flags|unix.AT_STATX_SYNC_AS_STAT), uintptr(want), uintptr(unsafe.Pointer(stx)), 0)
	if e == 0 && stx.Mask&uint32(want) != uint32(want) {
		return unix.EOPNOTSUPP
	}
	return e
}
