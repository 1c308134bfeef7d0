package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Blocks allocated past a file's end (fallocate, keeping its size) take
// room, and count.
func TestFileOnDiskCountsPreallocated(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "pre"))
	require.NoError(t, err)
	defer f.Close()
	if err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, 1<<20); err != nil {
		t.Skipf("fallocate: %v", err)
	}
	fi, err := f.Stat()
	require.NoError(t, err)
	assert.Zero(t, fi.Size())
	assert.GreaterOrEqual(t, FileOnDisk(fi), int64(1<<20))
}
