package gc

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// Times from the future. A recording's files can carry modification times
// later than now: a backup restored with its times (tar, rsync -t, cp -p),
// a touch -d, or files written while the clock ran ahead. Taken as they
// are, such a recording keeps its session from aging (and stays last in
// the store-size order) until that date. GC trusts no time later than
// now: a file dated in the future counts by its change time (ctime, set
// by the kernel whenever the file changes, and by no tool), which for a
// restored or touched file is when that happened; when the change time
// is in the future too (written while the clock ran ahead), the file
// counts as changed now. It is checked only when a recording's newest
// time is in the future, so an ordinary pass pays nothing for it.

// trustedNewest is the newest time of the files in the recording folder
// name (of the session folder dirfd) with each future time replaced as
// above; ok is false when the folder could not be read (the caller then
// takes now).
func trustedNewest(dirfd int, name string, now time.Time) (newest time.Time, ok bool) {
	fd, err := openDir(dirfd, name)
	if err != nil {
		return time.Time{}, false
	}
	dir := os.NewFile(uintptr(fd), name)
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return time.Time{}, false
	}
	for _, n := range names {
		var st unix.Stat_t
		if unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		if t := trustedTime(&st, now); t.After(newest) {
			newest = t
		}
	}
	return newest, true
}

// trustedTime is a file's modification time, or, when that is after now,
// its change time, or now when that is after now too.
func trustedTime(st *unix.Stat_t, now time.Time) time.Time {
	if t := mtime(st); !t.After(now) {
		return t
	}
	if c := time.Unix(st.Ctim.Unix()); !c.After(now) {
		return c
	}
	return now
}
