package store

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// OpenSafeRW opens an existing file of the store for reading and writing
// (a recording continued where it ended) with OpenSafe's checks: never a
// symlink, a FIFO or a device, never a file with more than one hard link.
func OpenSafeRW(r *os.Root, name string) (*os.File, error) {
	f, err := r.OpenFile(name, os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi, lerr := r.Lstat(name); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%w: %s is a symlink", ErrUnsafeFile, name)
		}
		return nil, err
	}
	if err := checkRegular(f, name); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
