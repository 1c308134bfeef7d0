package gc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/store"
)

// apparentSize sums the apparent sizes of the regular files under p.
func apparentSize(t *testing.T, p string) int64 {
	var n int64
	require.NoError(t, filepath.Walk(p, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			n += fi.Size()
		}
		return err
	}))
	return n
}

// A sparse file counts what it holds, not its apparent size: a hole of a
// gigabyte in a recording makes gc remove nothing.
func TestSparseFileCountsWhatItHolds(t *testing.T) {
	f := newFixture(t)
	var all []string
	for i := range 4 {
		all = append(all, f.record("s", strings.Repeat("x", 1000*(i+1))))
	}
	sparse, err := os.Create(f.path("s", all[0], "sparse"))
	require.NoError(t, err)
	require.NoError(t, sparse.Truncate(1<<30))
	require.NoError(t, sparse.Close())
	f.backdate(2*time.Hour, "s")
	limit := onDisk(t, f.path("s")) + store.FallbackBlock
	require.Greater(t, apparentSize(t, f.path("s")), limit, "over the limit in apparent size only")
	res := f.run(Options{MaxSessionBytes: limit})
	require.Empty(t, res.Errors)
	assert.Zero(t, res.RemovedRecordings)
	assert.Equal(t, all, names(t, f, "s"))
}

// DiskUsage (what rac out list shows) is what a pass counts of each
// recording, raw or compressed, and what du says of its folder.
func TestDiskUsageIsWhatAPassCounts(t *testing.T) {
	f := newFixture(t)
	for i := range 3 {
		f.record("s", testLog(i, 500*(i+1)))
	}
	f.capped("s")
	check := func(compressed bool) {
		p := scanWith(t, f, Options{})
		sd := f.session("s")
		defer sd.Close()
		for _, s := range p.sessions {
			for _, r := range s.recs {
				bytes, z, err := DiskUsage(sd, r.name)
				require.NoError(t, err)
				assert.Equal(t, r.bytes, bytes, r.name)
				assert.Equal(t, onDisk(t, f.path("s", r.name)), bytes, "%s: as du counts it", r.name)
				if compressed && r.name != "0004-make" {
					assert.True(t, z, r.name)
				} else if !compressed {
					assert.False(t, z, r.name)
				}
			}
		}
	}
	check(false)
	f.backdate(2*time.Hour, "s")
	res := f.run(Options{Compress: true})
	require.Empty(t, res.Errors)
	check(true)
}
