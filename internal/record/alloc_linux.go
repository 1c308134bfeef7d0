package record

import (
	"os"

	"golang.org/x/sys/unix"
)

// allocate takes n bytes of disk for f at once (fallocate).
func allocate(f *os.File, n int64) error { return unix.Fallocate(int(f.Fd()), 0, 0, n) }
