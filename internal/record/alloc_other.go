//go:build !linux

package record

import (
	"os"

	"golang.org/x/sys/unix"
)

// allocate is not supported here: the caller writes the bytes instead.
func allocate(*os.File, int64) error { return unix.ENOSYS }
