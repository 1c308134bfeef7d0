package gc

import (
	"golang.org/x/sys/unix"
)

// statFS stats name relative to dirfd ("" : dirfd itself) without
// following a symlink, for its mount and type. statx reports the mount id
// (Linux 5.8); without it the device alone is compared, which misses a
// bind mount of a folder of the same file system.
func statFS(dirfd int, name string) (fsID, uint8, error) {
	flags := unix.AT_SYMLINK_NOFOLLOW
	if name == "" {
		flags |= unix.AT_EMPTY_PATH
	}
	if !noStatx.Load() {
		var stx unix.Statx_t
		err := unix.Statx(dirfd, name, flags, unix.STATX_TYPE|unix.STATX_MNT_ID, &stx)
		switch err {
		case nil:
			id := fsID{dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor)}
			if stx.Mask&unix.STATX_MNT_ID != 0 {
				id.mnt = stx.Mnt_id
			}
			return id, typeOf(uint32(stx.Mode)), nil
		case unix.ENOSYS, unix.EPERM:
			noStatx.Store(true)
		default:
			return fsID{}, 0, err
		}
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, flags); err != nil {
		return fsID{}, 0, err
	}
	return fsID{dev: uint64(st.Dev)}, typeOf(uint32(st.Mode)), nil
}
