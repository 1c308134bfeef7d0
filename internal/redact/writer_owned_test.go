package redact

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// checkedSink is a dst taking counted writes that checks every count.
type checkedSink struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	counted int
	wrong   []string
}

func (c *checkedSink) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.Write(p)
}

func (c *checkedSink) WriteCounted(p []byte, nl int64) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.counted++
	if want := int64(bytes.Count(p, []byte{'\n'})); nl != want {
		c.wrong = append(c.wrong, fmt.Sprintf("%d newlines counted as %d", want, nl))
	}
	return c.buf.Write(p)
}

// TestWriteOwnedMatchesWrite hands the Writer a small pool of buffers, as
// rac's stage does, at random split sizes: the output is Bytes', the
// counts it returns and passes on are exact, each buffer comes back once,
// and a buffer is scribbled over as soon as it is back, so a region that
// still read it would redact garbage (and -race would see the write).
func TestWriteOwnedMatchesWrite(t *testing.T) {
	data := redacttest.MixedCorpus(3<<20, 44)
	// lines longer than longLineThreshold, one holding a secret, and a
	// last line with no newline
	rng := rand.New(rand.NewPCG(10, 10))
	long := strings.Repeat("abcdefgh ", (longLineThreshold*3)/9)
	data = append(data, long+fakeGitHubToken(rng)+long+"\n"...)
	data = append(data, redacttest.MixedCorpus(1<<20, 45)...)
	data = append(data, "tail without newline "+fakeGitHubToken(rng)...)
	r := mustNew(t, Config{})
	want := r.Bytes(data)
	require.NotEqual(t, string(data), string(want), "the corpus holds secrets")

	const bufMax = 1 << 20
	for _, tc := range []struct {
		opt  WriterOptions
		bufs int // one: a buffer is written over the moment it is back
	}{
		{WriterOptions{Workers: 2}, 4},
		{WriterOptions{Workers: 2}, 1},
		{WriterOptions{Workers: 2, RegionSize: 4 << 10}, 1},
		{WriterOptions{Workers: 3, RegionSize: 64 << 10}, 3},
		{WriterOptions{Workers: 1}, 1},
	} {
		opt, bufs := tc.opt, tc.bufs
		free := make(chan []byte, bufs)
		for range bufs {
			free <- make([]byte, bufMax)
		}
		var sink checkedSink
		w := r.NewWriterOptions(&sink, opt)
		var nl int64
		writes := 0
		var back sync.WaitGroup
		for p := data; len(p) > 0; {
			n := min(len(p), 1+rng.IntN(bufMax))
			if rng.IntN(3) == 0 {
				n = min(len(p), 1+rng.IntN(handoffMin)) // a copied write
			}
			b := <-free
			for i := range b {
				b[i] = 'Z' // what a region still reading b would see
			}
			b = b[:copy(b, p[:n])]
			p = p[n:]
			writes++
			back.Add(1)
			once := false
			k, err := w.WriteOwned(b, func() {
				require.False(t, once, "done called twice")
				once = true
				free <- b[:cap(b)]
				back.Done()
			})
			require.NoError(t, err)
			nl += k
		}
		require.NoError(t, w.Close())
		back.Wait()
		require.Equal(t, string(want), sink.buf.String(), "%+v", opt)
		require.Equal(t, int64(bytes.Count(data, []byte{'\n'})), nl, "WriteOwned's counts, %+v", opt)
		require.Empty(t, sink.wrong, "counts passed on to dst, %+v", opt)
		require.NotZero(t, sink.counted, "unchanged lines go with their count")
		require.Len(t, free, bufs, "every buffer is back")
	}
}

// TestWriteOwnedAfterClose gives the buffer back and counts it when the
// Writer takes nothing more.
func TestWriteOwnedAfterClose(t *testing.T) {
	r := mustNew(t, Config{})
	w := r.NewWriter(&bytes.Buffer{})
	require.NoError(t, w.Close())
	done := 0
	nl, err := w.WriteOwned(bytes.Repeat([]byte("a\n"), handoffMin), func() { done++ })
	require.ErrorIs(t, err, errClosed)
	require.Equal(t, int64(handoffMin), nl)
	require.Equal(t, 1, done)
}
