package redact

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// countingSink is a dst that takes counted writes and checks each count.
type countingSink struct {
	t       testing.TB
	buf     bytes.Buffer
	counted int // writes that came with a count
}

func (c *countingSink) Write(p []byte) (int, error) { return c.buf.Write(p) }

func (c *countingSink) WriteCounted(p []byte, nl int64) (int, error) {
	require.Equal(c.t, int64(bytes.Count(p, []byte{'\n'})), nl, "the count of a counted write")
	c.counted++
	return c.buf.Write(p)
}

// The counts the Writer passes on with WriteCounted are the newlines of
// what it writes, at any split of the stream, with one worker and with
// two, through long lines and lines redaction changes; and the stream is
// the one Write makes.
func TestWriteCountedCounts(t *testing.T) {
	r := mustNew(t, Config{})
	// plain lines first, which redaction leaves as they are: the regions
	// whose writes carry the count
	var plain bytes.Buffer
	require.NoError(t, redacttest.PlainLog(&plain, 1<<20))
	// a long line, and plain lines after its newline in the same write
	in := append([]byte(strings.Repeat("y", 2*longLineThreshold)+"\n"), plain.Bytes()...)
	for _, s := range redacttest.SplitCorpus(64 << 10) {
		in = append(in, s...)
	}
	in = append(in, strings.Repeat("x", longLineThreshold+100)+"\nGH_TOKEN=gh"+"p_abcdefghijABCDEFGHIJ0123456789abcdef\nlast line, open"...)
	want := r.String(string(in))
	rng := rand.New(rand.NewPCG(3, 4))
	for _, workers := range []int{1, 2} {
		for _, maxChunk := range []int{1 << 10, 64 << 10, 300 << 10} {
			sink := &countingSink{t: t}
			w := r.NewWriterOptions(sink, WriterOptions{Workers: workers, RegionSize: 128 << 10})
			for p := in; len(p) > 0; {
				n := min(len(p), 1+rng.IntN(maxChunk))
				_, err := w.WriteCounted(p[:n], int64(bytes.Count(p[:n], []byte{'\n'})))
				require.NoError(t, err)
				p = p[n:]
			}
			require.NoError(t, w.Close())
			require.Equal(t, want, sink.buf.String(), "workers %d, chunks up to %d", workers, maxChunk)
			require.Positive(t, sink.counted, "no write came with a count")
		}
	}
}

// countAllSink is a countingSink that fails on a write of whole lines
// without a count (the open line Close writes has none to give).
type countAllSink struct{ countingSink }

func (c *countAllSink) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, '\n') >= 0 {
		c.t.Errorf("lines written without a count: %q", p)
	}
	return c.buf.Write(p)
}

// A region that redaction changes is written with its count too: its
// input's newlines less those of the key body lines it dropped, plain or
// coloured (termLine), whether the key ends its write or not.
func TestChangedRegionsCounted(t *testing.T) {
	r := mustNew(t, Config{})
	var plain bytes.Buffer
	require.NoError(t, redacttest.PlainLog(&plain, 16<<10))
	coloured := strings.ReplaceAll(pemKey, "\n", "\x1b[0m\n")
	for _, tail := range []string{"", "after the key\n", "after the key, open"} {
		for _, key := range []string{pemKey, coloured} {
			in := plain.String() + "GH_TOKEN=gh" + "p_abcdefghijABCDEFGHIJ0123456789abcdef\n" + key + tail
			want := r.String(in)
			require.NotEqual(t, in, want)
			for _, workers := range []int{1, 2} {
				sink := &countAllSink{countingSink{t: t}}
				w := r.NewWriterOptions(sink, WriterOptions{Workers: workers, RegionSize: 128 << 10})
				_, err := w.WriteCounted([]byte(in), int64(strings.Count(in, "\n")))
				require.NoError(t, err)
				require.NoError(t, w.Close())
				require.Equal(t, want, sink.buf.String(), "workers %d, tail %q", workers, tail)
			}
		}
	}
}

// A marker that holds a newline (an environment variable's name may) puts
// newlines in a region that its input's count lacks: such a region is
// written without one.
func TestMarkerNewlineUncounted(t *testing.T) {
	secret := "abcdefghijABCDEFGHIJ0123456789"
	r := mustNew(t, Config{Environ: []string{"X\nAPP_TOKEN=" + secret}})
	in := "value " + secret + " here\nnext line\n"
	want := r.String(in)
	require.Contains(t, want, "X\nAPP_TOKEN]")
	for _, workers := range []int{1, 2} {
		sink := &countingSink{t: t}
		w := r.NewWriterOptions(sink, WriterOptions{Workers: workers})
		_, err := w.WriteCounted([]byte(in), int64(strings.Count(in, "\n")))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.Equal(t, want, sink.buf.String())
	}
}
