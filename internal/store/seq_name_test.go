package store_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// TestMaxSeqIsTheLastNumberANameHolds ties store.MaxSeq to the recording
// name format: every number up to it reads back from its name, the next
// one does not.
func TestMaxSeqIsTheLastNumberANameHolds(t *testing.T) {
	for _, argv := range [][]string{nil, {"x"}, {"/usr/bin/some-long-program-name", "subcommand"}} {
		for _, n := range []int64{1, 9999, 10000, store.MaxSeq - 1, store.MaxSeq} {
			name := record.Name(n, argv)
			got, ok := record.ParseName(name)
			require.True(t, ok, "%d %v: %q", n, argv, name)
			require.Equal(t, n, got, name)
		}
		_, ok := record.ParseName(record.Name(store.MaxSeq+1, argv))
		require.False(t, ok, "a number past MaxSeq must not fit a name, or MaxSeq is too low")
	}
}
