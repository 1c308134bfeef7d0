package gc

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A trim bounded by MaxEntries is bounded by the session's folder, not by
// the clock: a session with more entries is left as it is (ErrTooLarge,
// for the next full pass), and one with no more is trimmed, however long
// that takes on a busy machine.
func TestTrimBoundedByEntries(t *testing.T) {
	for _, over := range []bool{true, false} {
		f := newFixture(t)
		var all []string
		for range 5 {
			all = append(all, f.record("s", strings.Repeat("x", 20000)))
		}
		ents, err := os.ReadDir(f.path("s"))
		require.NoError(t, err)
		max := len(ents)
		if over {
			max--
		}
		limit := onDisk(t, f.path("s")) - 1 // over by a byte: the oldest must go
		l, err := Lock(f.st, true)
		require.NoError(t, err)
		_, err = TrimSession(f.st, "s", all[4], Options{MaxSessionBytes: limit, MaxEntries: max})
		l.Close()
		if over {
			require.ErrorIs(t, err, ErrTooLarge)
			assert.Equal(t, all, names(t, f, "s"), "nothing removed")
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, all[1:], names(t, f, "s"), "the oldest went")
	}
}
