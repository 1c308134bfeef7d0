package gc

import (
	"os"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/store"
)

// BenchmarkRun times a pass that removes nothing over the store in
// $RAC_GC_BENCH_STORE (build one with BenchStore; skipped when unset).
func BenchmarkRun(b *testing.B) {
	dir := os.Getenv("RAC_GC_BENCH_STORE")
	if dir == "" {
		b.Skip("set RAC_GC_BENCH_STORE to a store built with BenchStore")
	}
	st, err := store.OpenStore(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for b.Loop() {
		if _, err := Run(st, Options{DryRun: true, MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: 256 << 20, MaxStoreBytes: 2 << 30}); err != nil {
			b.Fatal(err)
		}
	}
}
