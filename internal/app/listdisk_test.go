package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rac out list's DISK is the number gc counts: each recording's
// disk_bytes is what a gc pass that removes it says it freed, raw and
// after gc compressed it.
func TestListDiskIsWhatGCCounts(t *testing.T) {
	f := seeded(t)
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "=== RUN   TestCase_%d\n--- PASS: TestCase_%d (0.%02ds)\n", i, i, i%100)
	}
	f.record([]string{"go", "test", "-v"}, map[string]string{StreamStdout: b.String()}, Outcome{Status: StatusExited})
	ctx := context.Background()
	for _, compress := range []bool{false, true} {
		f.set.Compress = compress
		if compress {
			res, err := f.app().GC(ctx, false, false) // compresses, removes nothing
			require.NoError(t, err)
			require.Empty(t, res.Errors)
		}
		list, err := f.app().List(ctx, Scope{All: true})
		require.NoError(t, err)
		disk := map[string]int64{}
		zst := 0
		for _, e := range list.Entries {
			disk[e.Ref] = e.DiskBytes
			if e.Compressed {
				zst++
			}
		}
		assert.Equal(t, compress, zst > 0, "compressed: %v", compress)

		f.set.GC.MaxAge = 24 * time.Hour
		f.mu.Lock()
		clock := f.clock
		f.clock = time.Now().Add(48 * time.Hour)
		f.mu.Unlock()
		res, err := f.app().GC(ctx, true, false) // a dry run: removes each, counts it
		f.mu.Lock()
		f.clock = clock
		f.mu.Unlock()
		f.set.GC.MaxAge = 0
		require.NoError(t, err)
		require.Len(t, res.Recordings, len(disk))
		for _, r := range res.Recordings {
			assert.Positive(t, r.Bytes, r.Ref)
			assert.Equal(t, disk[r.Ref], r.Bytes, "%s, compressed: %v", r.Ref, compress)
		}
	}
}
