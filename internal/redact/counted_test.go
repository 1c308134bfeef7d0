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
