package gc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// preallocated adds to folder dir a file of no apparent size with n bytes
// of blocks allocated past its end (fallocate, keeping the size).
func preallocated(t *testing.T, dir string, n int64) {
	f, err := os.Create(filepath.Join(dir, "prealloc"))
	require.NoError(t, err)
	defer f.Close()
	if err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, n); err != nil {
		t.Skipf("fallocate: %v", err)
	}
}

// A session whose files' apparent sizes are under its limit while their
// blocks are over it is trimmed, by a pass and by the trim at the end of
// a recording: the limit is what the disk holds.
func TestSessionLimitCountsAllocatedBlocks(t *testing.T) {
	for _, trim := range []bool{false, true} {
		f := newFixture(t)
		var all []string
		for i := range 4 {
			all = append(all, f.record("s", strings.Repeat("x", 1000*(i+1))))
		}
		preallocated(t, f.path("s", all[0]), 1<<20)
		limit := apparentSize(t, f.path("s")) + 512<<10
		require.Greater(t, onDisk(t, f.path("s")), limit, "over the limit on disk only")
		f.backdate(2*time.Hour, "s")
		if trim {
			l, err := Lock(f.st, true)
			require.NoError(t, err)
			_, err = TrimSession(f.st, "s", all[3], Options{MaxSessionBytes: limit})
			l.Close()
			require.NoError(t, err)
		} else {
			res := f.run(Options{MaxSessionBytes: limit})
			require.Empty(t, res.Errors)
			assert.Equal(t, onDisk(t, f.root), res.Stores[0].BytesAfter, "the projected size is the real one")
		}
		assert.Equal(t, all[1:], names(t, f, "s"), "trim %v: the oldest went", trim)
		assert.LessOrEqual(t, onDisk(t, f.path("s")), limit)
	}
}
