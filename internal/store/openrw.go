package store

import "os"

// OpenSafeRW opens an existing file of the store for reading and writing
// (a recording continued where it ended) with OpenSafe's checks: never a
// symlink, a FIFO or a device, never a file with more than one hard link.
func OpenSafeRW(r *os.Root, name string) (*os.File, error) { return openSafe(r, name, os.O_RDWR) }
