package gc

import (
	"errors"
	"io/fs"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/store"
)

// statxWant is what treeFd needs of a file: its type, apparent size,
// allocated blocks and modification time.
const statxWant = unix.STATX_TYPE | unix.STATX_SIZE | unix.STATX_BLOCKS | unix.STATX_MTIME

// noStatx is set once statx is found missing (or refused by a sandbox):
// treeFd then uses fstatat, as everywhere else.
var noStatx atomic.Bool

// statNameAt stats the entry whose NUL-terminated name starts at name,
// relative to dirfd, without following a symlink: one statx, issued
// straight from the directory listing's buffer (no copy of the name, no
// allocation; the first pass makes one of these for every file of the
// store). It falls back to fstatat when statx is unavailable or does not
// report all of statxWant.
//
// It (and treeFd's getdents) is a raw syscall: the runtime's bookkeeping
// around a syscall, and the monitor thread it keeps awake, cost as much as
// a stat of a file in the page cache. A raw syscall keeps its P while it
// blocks (a cold inode on disk); the scan runs at most GOMAXPROCS workers
// and nothing else of the process waits on them, so that costs nothing.
//
// disk is what the entry takes on disk (store.OnDisk).
func statNameAt(dirfd int, name *byte, str string) (typ uint8, disk int64, mt time.Time, err error) {
	if !noStatx.Load() {
		var stx unix.Statx_t
		_, _, e := unix.RawSyscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
			unix.AT_SYMLINK_NOFOLLOW|unix.AT_STATX_SYNC_AS_STAT, statxWant, uintptr(unsafe.Pointer(&stx)), 0)
		switch {
		case e == 0 && stx.Mask&statxWant == statxWant:
			return typeOf(uint32(stx.Mode)), store.OnDisk(int64(stx.Size), int64(stx.Blocks)), time.Unix(stx.Mtime.Sec, int64(stx.Mtime.Nsec)), nil
		case e == unix.ENOSYS || e == unix.EPERM:
			noStatx.Store(true)
		case e != 0:
			return 0, 0, time.Time{}, e
		}
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, str, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, 0, time.Time{}, err
	}
	return typeOf(uint32(st.Mode)), statDisk(&st), mtime(&st), nil
}

// treeFd is tree over an open directory: it walks the getdents buffer in
// place and stats each regular (or untyped) entry by the name in it, so a
// file costs one syscall and no allocation.
func treeFd(fd int, depth int) (u usage, err error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	for {
		r, _, e := unix.RawSyscall(unix.SYS_GETDENTS64, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return usage{}, e
		}
		n := int(r)
		if n <= 0 {
			return u, nil
		}
		for off := 0; ; {
			typ, name, next := direntAt(buf[:n], off)
			if next < 0 {
				break
			}
			off = next
			if len(name) == 0 {
				continue // malformed record: never stat a name not ended by its NUL
			}
			str := unsafe.String(&name[0], len(name)) // valid while buf is: not kept
			if str == "." || str == ".." {
				continue
			}
			var (
				fdisk int64
				mt    time.Time
			)
			if typ == unix.DT_REG || typ == unix.DT_UNKNOWN {
				var serr error
				if typ, fdisk, mt, serr = statNameAt(fd, &name[0], str); serr != nil {
					if errors.Is(serr, unix.ENOENT) {
						continue // removed since the listing
					}
					return usage{}, &fs.PathError{Op: "stat", Path: string(name), Err: serr}
				}
			}
			switch {
			case typ == unix.DT_REG:
				u.file(str, depth, fdisk, mt)
			case typ == unix.DT_DIR && depth < 8:
				sub, err := tree(fd, string(name), depth+1)
				if err != nil && !errors.Is(err, unix.ENOENT) {
					return usage{}, err
				}
				u.add(sub)
			}
		}
	}
}
