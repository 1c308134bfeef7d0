//go:build !linux

package gc

import (
	"golang.org/x/sys/unix"
)

// statFS stats name relative to dirfd ("" : dirfd itself) without
// following a symlink, for its device and type: the device is all that
// tells another mount apart here.
func statFS(dirfd int, name string) (fsID, uint8, error) {
	var st unix.Stat_t
	var err error
	if name == "" {
		err = unix.Fstat(dirfd, &st)
	} else {
		err = unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return fsID{}, 0, err
	}
	return fsID{dev: uint64(st.Dev)}, typeOf(uint32(st.Mode)), nil
}
