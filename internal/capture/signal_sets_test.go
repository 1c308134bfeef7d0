package capture

import (
	"os"
	"slices"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/sigcatch"
)

// What sigcatch catches is what Run relays, and SIGPIPE: a signal added to
// one list and not the other would be relayed but never caught, or caught
// and dropped.
func TestCaughtIsRelayedAndPipe(t *testing.T) {
	caught := append(slices.Clone(sigcatch.Fatal), sigcatch.Later...)
	want := append(slices.Clone(relayed), syscall.SIGPIPE)
	key := func(s []os.Signal) []int {
		out := make([]int, len(s))
		for i, sig := range s {
			out[i] = int(sig.(syscall.Signal))
		}
		slices.Sort(out)
		return out
	}
	require.Equal(t, key(want), key(caught))
}
