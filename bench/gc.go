package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/gc/gctest"
)

func init() { register("gc", benchGC) }

// firstRuns is how many first passes are timed: each starts without
// gc.cache, so it reads every recording's footer.
const firstRuns = 3

// benchGC: a GC pass over 1,000 sessions and 100,000 recordings, the first
// (no gc.cache: each recording measured from its footer's summary) and a
// later one (from gc's cache).
func benchGC(b *bench) {
	dir := filepath.Join(b.work, "gcstore")
	start := time.Now()
	check(gctest.BenchStore(dir, 1000, 100))
	fmt.Printf("built a store of 1,000 sessions x 100 recordings in %.1f s\n", time.Since(start).Seconds())
	env := append(append([]string(nil), b.env...), "RAC_HOME="+dir)
	forget := func() {
		if err := os.Remove(filepath.Join(dir, gc.CacheFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			check(err)
		}
	}
	var first, later []time.Duration
	for range firstRuns {
		forget()
		first = append(first, b.timeCmd(env, b.rac, "out", "gc").wall)
	}
	for i := 0; i < *runs; i++ {
		later = append(later, b.timeCmd(env, b.rac, "out", "gc").wall)
	}
	peak := b.peakRSS(env, b.rac, "out", "gc")
	// a first pass again, for its memory
	forget()
	peak = max(peak, b.peakRSS(env, b.rac, "out", "gc"))
	fmt.Printf("first pass (median of %d, %s removed before each) %7.1f ms, later passes (median of %d) %7.1f ms, peak RSS %.1f MiB (targets: under 2 s: %s, under 64 MiB: %s)\n",
		firstRuns, gc.CacheFile, ms(median(first)), *runs, ms(median(later)), float64(peak)/1024,
		verdict(median(first) < 2*time.Second && median(later) < 2*time.Second), verdict(peak < 64*1024))
}
