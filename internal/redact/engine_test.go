package redact

import (
	"bytes"
	"math/rand/v2"
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
