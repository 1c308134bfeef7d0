package redact

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The automaton, bigram skipping included, must report exactly what a naive
// search for every literal reports, on every input.
func TestAutomatonMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "abcAB-_ \n"
	randStr := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 300 {
		var pats []string
		seen := map[string]bool{}
		for range 1 + rng.IntN(12) {
			p := randStr(2 + rng.IntN(4))
			if !seen[string(bytes.ToLower([]byte(p)))] {
				seen[string(bytes.ToLower([]byte(p)))] = true
				pats = append(pats, string(bytes.ToLower([]byte(p))))
			}
		}
		a := newAutomaton(pats)
		src := []byte(randStr(rng.IntN(400)))
		got := a.scan(src, nil)
		var want []hit
		low := bytes.ToLower(src)
		for end := 1; end <= len(src); end++ {
			for pi, p := range pats {
				if end >= len(p) && string(low[end-len(p):end]) == p {
					want = append(want, hit{end: int32(end), pat: int32(pi)})
				}
			}
		}
		cmp := func(x, y hit) int {
			if x.end != y.end {
				return int(x.end - y.end)
			}
			return int(x.pat - y.pat)
		}
		slices.SortFunc(got, cmp)
		slices.SortFunc(want, cmp)
		require.Equal(t, want, got, "patterns %q in %q", pats, src)
	}
}

func TestAutomatonRejectsShortLiterals(t *testing.T) {
	require.Panics(t, func() { newAutomaton([]string{"a"}) })
}
