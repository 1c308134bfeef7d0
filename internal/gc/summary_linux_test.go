package gc

import "testing"

// Without openat2 (an old kernel, a seccomp filter) footers are opened
// through their folder's descriptor, to the same effect.
func TestSummaryWithoutOpenat2(t *testing.T) {
	was := noOpenat2.Load()
	noOpenat2.Store(true)
	defer noOpenat2.Store(was)
	t.Run("equals a full scan", TestSummaryEqualsFullScan)
	t.Run("fills the cache", TestSummaryFillsCache)
	t.Run("falls back", TestSummaryFallsBackToFullScan)
	t.Run("never follows or blocks", TestSummaryNeverFollowsOrBlocks)
}
