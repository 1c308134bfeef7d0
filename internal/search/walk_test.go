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

// TestStreamOrderedKeepsOrder: every job's items come in order, jobs in
// index order, however the workers finish; each job has one last part,
// and no more than twice the workers are ever in flight.
func TestStreamOrderedKeepsOrder(t *testing.T) {
	for _, workers := range []int{1, 2, 7, 32} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			const n = 300
			var inFlight, most atomic.Int64
			var got, want [][2]int
			lasts := make([]int, n)
			for i := range n {
				for k := range i % 9 {
					want = append(want, [2]int{i, k})
				}
			}
			err := streamOrdered(n, workers, func([2]int) int { return 100 << 10 }, func(i int, emit func([2]int) error, _ <-chan struct{}) {
				for v := inFlight.Add(1); ; {
					m := most.Load()
					if v <= m || most.CompareAndSwap(m, v) {
						break
					}
				}
				x := 0 // uneven work: later jobs often finish first
				for k := range (n - i) * 100 * (i%5 + 1) {
					x += k
				}
				_ = x
				for k := range i % 9 {
					require.NoError(t, emit([2]int{i, k}))
				}
			}, func(i int, items [][2]int, last bool) error {
				got = append(got, items...)
				if last {
					lasts[i]++
					inFlight.Add(-1)
				}
				return nil
			})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			for i, c := range lasts {
				assert.Equal(t, 1, c, "job %d's last part", i)
			}
			assert.LessOrEqual(t, most.Load(), int64(2*workers))
		})
	}
}

// TestStreamOrderedBoundsHeld: jobs that each find far more than the
// bounds hold are handed over in parts, and what is held (emitted, and
// not yet through deliver) never passes the bound of all jobs and the
// front's own, plus the part being delivered (at most the bound of all
// jobs: what a job gathered before it became the front), plus an item a
// worker.
func TestStreamOrderedBoundsHeld(t *testing.T) {
	const n, workers, item, each = 8, 4, 1 << 10, 12 << 10 // 12 MiB a job
	var held, most atomic.Int64
	parts := 0
	var got []int
	err := streamOrdered(n, workers, func(int) int { return item }, func(i int, emit func(int) error, _ <-chan struct{}) {
		for k := range each {
			require.NoError(t, emit(i*each+k))
			for v := held.Add(item); ; {
				m := most.Load()
				if v <= m || most.CompareAndSwap(m, v) {
					break
				}
			}
		}
	}, func(_ int, items []int, _ bool) error {
		parts++
		got = append(got, items...)
		held.Add(-int64(len(items) * item))
		return nil
	})
	require.NoError(t, err)
	require.Len(t, got, n*each)
	for k, v := range got {
		require.Equal(t, k, v)
	}
	assert.LessOrEqual(t, most.Load(), int64(frontBytes+2*aheadBytes+workers*item))
	assert.GreaterOrEqual(t, parts, n*each*item/frontBytes, "a job's hits come in parts")
}

// TestStreamOrderedStops: an error from deliver ends the walk: the
// workers' emits fail, no more jobs start, and the error is returned.
func TestStreamOrderedStops(t *testing.T) {
	boom := errors.New("boom")
	var started atomic.Int64
	var delivered []int
	var stoppedEmits atomic.Int64
	err := streamOrdered(1000, 4, func(int) int { return 1 }, func(i int, emit func(int) error, _ <-chan struct{}) {
		started.Add(1)
		if i == 5 {
			for k := 0; ; k++ {
				if err := emit(k); err != nil {
					assert.ErrorIs(t, err, errStopped)
					stoppedEmits.Add(1)
					return
				}
			}
		}
		_ = emit(i)
	}, func(i int, items []int, _ bool) error {
		delivered = append(delivered, i)
		if i == 3 {
			return boom
		}
		return nil
	})
	assert.Equal(t, boom, err)
	assert.Equal(t, []int{0, 1, 2, 3}, delivered)
	assert.LessOrEqual(t, started.Load(), int64(4+2*4), "no work starts once the window is full")
	if started.Load() > 5 {
		assert.Equal(t, int64(1), stoppedEmits.Load(), "the endless job is told to stop")
	}
}

func TestStreamOrderedNothing(t *testing.T) {
	require.NoError(t, streamOrdered(0, 4, func(int) int { return 1 },
		func(int, func(int) error, <-chan struct{}) { t.Fatal("no work") },
		func(int, []int, bool) error { t.Fatal("nothing"); return nil }))
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
