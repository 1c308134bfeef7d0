package record

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rac-cli/rac/internal/store"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withoutMeta is a recording folder's size less meta.json, whose size is
// the command line's, not the write pattern's.
func withoutMeta(t *testing.T, sd *store.Session, name string) int64 {
	t.Helper()
	fi, err := sd.Root().Stat(name + "/" + MetaFile)
	require.NoError(t, err)
	return folderSize(t, sd, name) - fi.Size()
}

// A capped recording's folder stays under record.max_bytes plus
// CappedOverhead (meta.json aside) at every moment, for any write
// pattern: random caps and heads, random write sizes (a byte to 64 KiB),
// one stream or two switching at random, and the worst cases for the
// indexes: a million 1-byte writes switching streams at every write (a
// chunk entry each) and a million 1-byte newlines (line index entries at
// their stride, and segments dropped all the time).
func TestCappedFolderBound(t *testing.T) {
	type pattern struct {
		name      string
		max, head int64
		writes    int
		size      func(*rand.Rand) int
		switchP   float64 // chance of the other stream at each write
		newlines  bool
	}
	var cases []pattern
	for i := range 12 {
		rng := rand.New(rand.NewPCG(uint64(i), 29))
		max := int64(16<<10) << rng.IntN(8) // 16 KiB .. 2 MiB
		cases = append(cases, pattern{
			name: fmt.Sprintf("random %d", i), max: max, head: rng.Int64N(max),
			writes: 300 + rng.IntN(700),
			size: func(r *rand.Rand) int {
				if r.IntN(4) == 0 {
					return 1 + r.IntN(64<<10)
				}
				return 1 + r.IntN(64)
			},
			switchP: rng.Float64(), newlines: rng.IntN(2) == 0,
		})
	}
	one := func(*rand.Rand) int { return 1 }
	cases = append(cases,
		pattern{name: "a million 1-byte writes switching streams", max: 1 << 20, head: 1 << 18, writes: 1_000_000, size: one, switchP: 1},
		pattern{name: "a million 1-byte newlines on one stream", max: 64 << 10, head: 16 << 10, writes: 1_000_000, size: one, newlines: true},
		pattern{name: "32 MiB through a 64 KiB cap", max: 64 << 10, head: 16 << 10, writes: 8, size: func(*rand.Rand) int { return 4 << 20 }, newlines: true},
		pattern{name: "large writes under a large cap", max: 256 << 20, head: 1 << 20, writes: 300, size: func(*rand.Rand) int { return 4 << 20 }, switchP: 0.5, newlines: true},
	)
	if testing.Short() {
		cases = cases[:4]
	}
	for ci, pc := range cases {
		t.Run(pc.name, func(t *testing.T) {
			sd := newSession(t)
			w, err := Create(CreateOptions{Session: sd, Argv: []string{"chatty"}, Streams: []string{Stdout, Stderr}, MaxBytes: pc.max, HeadBytes: pc.head})
			require.NoError(t, err)
			bound := w.cap.max + CappedOverhead
			rng := rand.New(rand.NewPCG(uint64(ci), 7))
			buf := make([]byte, 4<<20)
			for i := range buf {
				buf[i] = 'x'
				if pc.newlines || i%80 == 79 {
					buf[i] = '\n'
				}
			}
			streams := []string{Stdout, Stderr}
			s := 0
			sample := max(1, pc.writes/64)
			for i := range pc.writes {
				if rng.Float64() < pc.switchP {
					s = 1 - s
				}
				_, err := w.Sink(streams[s]).Write(buf[:min(len(buf), pc.size(rng))])
				require.NoError(t, err)
				if i%sample == 0 {
					require.LessOrEqual(t, withoutMeta(t, sd, w.Name), bound, "after write %d", i)
					require.LessOrEqual(t, linesSize(t, sd, w.Name), linesRoom(pc.max), "line indexes after write %d", i)
				}
			}
			require.NoError(t, w.Err())
			require.NoError(t, w.Finish(Footer{Status: StatusExited}))
			assert.LessOrEqual(t, withoutMeta(t, sd, w.Name), bound)
			r, err := Open(sd, w.Name)
			require.NoError(t, err)
			defer r.Close()
			for _, st := range streams {
				_, err := r.LineIndex(st)
				require.NoError(t, err, "the pruned line index reads")
			}
			assert.NotEmpty(t, collect(t, r, LineOptions{Tail: 3}), "the kept tail reads")
		})
	}
}

// linesSize is the size of a recording's line indexes.
func linesSize(t *testing.T, sd *store.Session, name string) int64 {
	t.Helper()
	var n int64
	for _, s := range []string{Stdout, Stderr} {
		fi, err := sd.Root().Stat(name + "/" + linesPfx + s)
		if err == nil {
			n += fi.Size()
		}
	}
	return n
}
