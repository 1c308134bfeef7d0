package redact

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lastNewline must agree with bytes.LastIndexByte, also next to the bytes
// its word trick could confuse with a newline (0x0b, 0x8a, 0x09, 0x00).
func TestLastNewline(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "\n\x0b\x8a\x09\x00\x01a"
	for range 5000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		require.Equal(t, bytes.LastIndexByte(b, '\n'), lastNewline(b), "%q", b)
	}
}

// region finds the start of a hit's line however far back it lies: right
// where the last line ended (dense hits), or after lines without hits,
// across stretches shorter and longer than lineStartSearch. A line-start
// rule (an unquoted YAML value runs to the end of its line only when the
// name starts the line) redacts as it does on the line alone.
func TestRegionLineStart(t *testing.T) {
	r, err := New(Config{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(11, 12))
	filler := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcdefgh ,.:"[rng.IntN(12)]
		}
		return string(b)
	}
	for round := range 300 {
		var lines []string
		for range 1 + rng.IntN(12) {
			switch rng.IntN(4) {
			case 0: // a value that runs to the end of its line from a name at its start
				lines = append(lines, "password: correct horse battery staple "+filler(rng.IntN(100)))
			case 1: // the same name after a long stretch: the value is one word
				lines = append(lines, filler(rng.IntN(3*lineStartSearch))+" password: correct horse battery")
			default: // no hit, short or long
				lines = append(lines, filler(rng.IntN(3*lineStartSearch)))
			}
		}
		var want bytes.Buffer
		for _, l := range lines {
			want.WriteString(r.String(l) + "\n")
		}
		src := []byte(strings.Join(lines, "\n") + "\n")
		var got bytes.Buffer
		w := r.NewWriterOptions(&got, WriterOptions{Workers: 1})
		_, err := w.Write(src)
		require.NoError(t, err)
		require.NoError(t, w.Close())
		require.Equal(t, want.String(), got.String(), "round %d", round)
	}
}
