package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/rac-cli/rac/internal/gc"
)

func init() { register("gc", benchGC) }

// benchGC: a GC pass over 1,000 sessions and 100,000 recordings, the first
// (every file measured) and a later one (from gc's cache).
func benchGC(b *bench) {
	dir := filepath.Join(b.work, "gcstore")
	start := time.Now()
	check(gc.BenchStore(dir, 1000, 100))
	fmt.Printf("built a store of 1,000 sessions x 100 recordings in %.1f s\n", time.Since(start).Seconds())
	env := append(append([]string(nil), b.env...), "RAC_HOME="+dir)
	first := b.timeCmd(env, b.rac, "out", "gc")
	var later []time.Duration
	for i := 0; i < *runs; i++ {
		later = append(later, b.timeCmd(env, b.rac, "out", "gc").wall)
	}
	peak := b.peakRSS(env, b.rac, "out", "gc")
	// a first pass again, for its memory: forget what gc remembered
	check(os.Remove(filepath.Join(dir, "gc.cache")))
	peak = max(peak, b.peakRSS(env, b.rac, "out", "gc"))
	fmt.Printf("first pass %7.1f ms, later passes (median) %7.1f ms, peak RSS %.1f MiB (targets: under 2 s: %s, under 64 MiB: %s)\n",
		ms(first.wall), ms(median(later)), float64(peak)/1024,
		verdict(first.wall < 2*time.Second && median(later) < 2*time.Second), verdict(peak < 64*1024))
}
