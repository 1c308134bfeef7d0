package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRoundBlock(t *testing.T) {
	for size, want := range map[int64]int64{-1: 0, 0: 0, 1: 4096, 4096: 4096, 4097: 8192} {
		assert.Equal(t, want, RoundBlock(size), "size %d", size)
		assert.Equal(t, want, OnDisk(size, -1), "size %d, no blocks reported", size)
	}
	assert.Equal(t, int64(3*512), OnDisk(1<<40, 3), "blocks, not the size")
}

// A file counts its allocated blocks: a sparse file only what it holds
// (and disk_linux_test.go: blocks allocated past its end, all of them).
func TestFileOnDisk(t *testing.T) {
	dir := t.TempDir()
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("x"), 1<<30)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	fi, err := os.Lstat(sparse)
	require.NoError(t, err)
	assert.Less(t, FileOnDisk(fi), int64(1<<20), "a hole costs nothing")
	assert.Positive(t, FileOnDisk(fi), "the written byte costs its block")

	assert.Equal(t, int64(8192), FileOnDisk(fakeInfo{size: 5000}), "no stat: the size rounded up")
}

type fakeInfo struct{ size int64 }

func (f fakeInfo) Name() string       { return "f" }
func (f fakeInfo) Size() int64        { return f.size }
func (f fakeInfo) Mode() fs.FileMode  { return 0 }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any           { return nil }
