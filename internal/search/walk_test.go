package search

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// TestOrderedKeepsOrder: results come in index order however the workers
// finish, and no more than twice the workers are ever in flight.
func TestOrderedKeepsOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 7, 32} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			const n = 500
			var inFlight, most atomic.Int64
			var got []int
			err := ordered(n, workers, func(i int, _ <-chan struct{}) int {
				for v := inFlight.Add(1); ; {
					m := most.Load()
					if v <= m || most.CompareAndSwap(m, v) {
						break
					}
				}
				// uneven work: later jobs often finish first
				x := 0
				for k := range (n - i) * 200 * (i%5 + 1) {
					x += k
				}
				_ = x
				return i
			}, func(i int) error {
				inFlight.Add(-1)
				got = append(got, i)
				return nil
			})
			require.NoError(t, err)
			want := make([]int, n)
			for i := range want {
				want[i] = i
			}
			assert.Equal(t, want, got)
			assert.LessOrEqual(t, most.Load(), int64(2*workers))
		})
	}
}

func TestOrderedStops(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int64
	var delivered []int
	err := ordered(1000, 4, func(i int, stop <-chan struct{}) int {
		started.Add(1)
		return i
	}, func(i int) error {
		delivered = append(delivered, i)
		if i == 3 {
			return boom
		}
		return nil
	})
	assert.Equal(t, boom, err)
	assert.Equal(t, []int{0, 1, 2, 3}, delivered)
	assert.LessOrEqual(t, started.Load(), int64(4+2*4), "no work starts once the window is full")
}

func TestOrderedNothing(t *testing.T) {
	require.NoError(t, ordered(0, 4, func(int, <-chan struct{}) int { t.Fatal("no work"); return 0 }, func(int) error { t.Fatal("nothing"); return nil }))
}

// TestWalk: many recordings in two sessions, delivered in sequence order,
// one that cannot be opened and one whose stream is unsafe delivered as
// per-recording errors while the walk goes on.
func TestWalk(t *testing.T) {
	a, b := newSession(t, "a"), newSession(t, "b")
	var want []string
	for i := range 60 {
		sd := a
		if i >= 40 {
			sd = b
		}
		text := fmt.Sprintf("%s\n", "nothing here")
		if i%3 == 0 {
			text = fmt.Sprintf("line\nhit %d\n", i)
		}
		name := makeRecording(t, sd, 0, 0, out(text))
		if i%3 == 0 {
			want = append(want, fmt.Sprintf("%s/%s:2:hit %d", sd.Name, name, i))
		}
	}
	// a recording folder with no metadata: Open fails
	require.NoError(t, os.Mkdir(filepath.Join(a.Store.Path, "sessions", "a", "0020-broken"), 0o700))
	// a recording whose stream is a symlink: Open works, the read refuses
	unsafe := makeRecording(t, b, 0, 0, out("hit unsafe\n"))
	dir := filepath.Join(b.Store.Path, "sessions", "b", unsafe)
	require.NoError(t, os.Remove(filepath.Join(dir, record.Stdout)))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, record.Stdout)))
	last := makeRecording(t, b, 0, 0, out("hit last\n"))
	want = append(want, "b/"+last+":1:hit last")

	jobs, err := Jobs([]*store.Session{a, b})
	require.NoError(t, err)
	assert.Len(t, jobs, 63)
	s, err := New(Options{Text: "hit"})
	require.NoError(t, err)
	var got, failed []string
	require.NoError(t, s.Walk(jobs, func(r Result) error {
		if r.Err != nil {
			failed = append(failed, r.Job.Session.Name+"/"+r.Job.Name)
			return nil
		}
		assert.Equal(t, r.Job.Name, r.Rec.Name)
		for _, h := range r.Hits {
			got = append(got, fmt.Sprintf("%s:%d:%s", r.Rec.Ref(), h.N, h.Text))
		}
		return nil
	}))
	assert.Equal(t, want, got)
	assert.Equal(t, []string{"a/0020-broken", "b/" + unsafe}, failed)
}

func TestWalkStops(t *testing.T) {
	sd := newSession(t, "s")
	for range 20 {
		makeRecording(t, sd, 0, 0, out("hit\n"))
	}
	jobs, err := Jobs([]*store.Session{sd})
	require.NoError(t, err)
	s, err := New(Options{Text: "hit"})
	require.NoError(t, err)
	n := 0
	require.NoError(t, s.Walk(jobs, func(Result) error { n++; return ErrStop }))
	assert.Equal(t, 1, n)
	boom := errors.New("boom")
	n = 0
	assert.Equal(t, boom, s.Walk(jobs, func(Result) error {
		if n++; n == 5 {
			return boom
		}
		return nil
	}))
	assert.Equal(t, 5, n)
}
