package gc

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
)

// testLog is compressible command output, as go test -v writes it, that
// differs from recording to recording.
func testLog(seed, lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "=== RUN   TestStore/case_%d_%d\n    store_test.go:%d: opened /tmp/rac-%d/store in %dus\n--- PASS: TestStore/case_%d_%d (0.%02ds)\n",
			seed, i, 100+i%50, seed, i*7%1000, seed, i, i%100)
	}
	return b.String()
}

// A session filled past its limit with compressible output keeps at least
// 3.5 times as many recordings when gc compresses.
func TestCompressionKeepsMoreRecordings(t *testing.T) {
	kept := map[bool]int{}
	for _, compress := range []bool{false, true} {
		f := newFixture(t)
		var limit int64
		for i := range 60 {
			f.record("s", testLog(i, 1500))
			if i == 7 {
				limit = onDisk(t, f.path("s")) // eight raw recordings
			}
		}
		f.backdate(2*time.Hour, "s")
		res := f.run(Options{MaxSessionBytes: limit, Compress: compress})
		require.Empty(t, res.Errors)
		assert.LessOrEqual(t, onDisk(t, f.path("s")), limit)
		assert.Equal(t, onDisk(t, f.root), res.Stores[0].BytesAfter, "the projected size is the real one")
		kept[compress] = len(names(t, f, "s"))
	}
	t.Logf("kept raw %d, compressed %d", kept[false], kept[true])
	assert.GreaterOrEqual(t, float64(kept[true]), 3.5*float64(kept[false]))
}

func TestCompressedRecordingsReadTheSame(t *testing.T) {
	f := newFixture(t)
	out := testLog(1, 3000)
	name := f.record("s", out)
	res := f.run(Options{Compress: true})
	require.Empty(t, res.Errors)
	assert.FileExists(t, f.path("s", name, "stdout.zst"))
	assert.NoFileExists(t, f.path("s", name, "stdout"))
	sd := f.session("s")
	defer sd.Close()
	r, err := record.Open(sd, name)
	require.NoError(t, err)
	defer r.Close()
	var b strings.Builder
	_, err = r.CopyRaw(&b, record.Stdout)
	require.NoError(t, err)
	assert.Equal(t, out, b.String())
}

// A pass with a deadline (inside rac run) compresses nothing and removes
// nothing: it hands the pass on.
func TestDeadlinePassLeavesCompressionToTheNext(t *testing.T) {
	f := newFixture(t)
	var all []string
	for i := range 4 {
		all = append(all, f.record("s", testLog(i, 1500)))
	}
	limit := onDisk(t, f.path("s")) / 2
	l, err := Lock(f.st, true)
	require.NoError(t, err)
	res, err := Run(f.st, Options{MaxSessionBytes: limit, Compress: true, Deadline: time.Now().Add(time.Hour)})
	l.Close()
	require.True(t, errors.Is(err, ErrDeadline), "%v", err)
	assert.Zero(t, res.RemovedRecordings)
	assert.FileExists(t, f.path("s", all[0], "stdout"))
	// the full pass compresses, and then nothing is over the limit
	res = f.run(Options{MaxSessionBytes: limit, Compress: true})
	assert.Zero(t, res.RemovedRecordings)
	assert.Equal(t, all, names(t, f, "s"))
}

// A pass that compresses looks into the recordings a cache written
// without compression remembers, once.
func TestCompressionCatchesUpWithCachedRawRecordings(t *testing.T) {
	f := newFixture(t)
	name := f.record("s", testLog(1, 2000))
	f.backdate(2*time.Hour, "s")
	f.run(Options{}) // caches it raw
	_, hits := scanOnly(t, f)
	require.EqualValues(t, 1, hits)
	f.run(Options{Compress: true})
	assert.FileExists(t, f.path("s", name, "stdout.zst"))
	f.backdate(2*time.Hour, "s")
	f.run(Options{Compress: true})
	_, hits = scanOnly(t, f)
	assert.EqualValues(t, 1, hits)
	assert.True(t, cacheCompressed(f.st))
	assert.FileExists(t, filepath.Join(f.root, CacheFile))
}

// A dry run changes nothing, so it compresses nothing either.
func TestDryRunDoesNotCompress(t *testing.T) {
	f := newFixture(t)
	name := f.record("s", testLog(1, 2000))
	before := snapshot(t, f.path("s"))
	res := f.run(Options{Compress: true, DryRun: true})
	require.Empty(t, res.Errors)
	assert.Equal(t, before, snapshot(t, f.path("s")))
	assert.FileExists(t, f.path("s", name, "stdout"))
}
