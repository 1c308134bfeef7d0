package redact

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The automaton, with or without its start filter, must report exactly what
// a naive search for every literal reports, on every input. The wide case
// has more starting pairs and third bytes than the filter has rows and
// classes for, so they are shared.
func TestAutomatonMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	// 76 bytes when folded, more than the filter has third-byte classes.
	const wide = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" +
		"-_.:/ \n\"'=~!#$%&()*+,;<>?@[\\]^`{|}\x00\x7f\x80\xc3\xe2\xff"
	for _, tc := range []struct {
		name     string
		alphabet string
		rounds   int
		maxPats  int
	}{
		{"narrow", "abcAB-_ \n", 300, 12},
		{"wide", wide, 30, 1500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			randStr := func(n int) string {
				b := make([]byte, n)
				for i := range b {
					b[i] = tc.alphabet[rng.IntN(len(tc.alphabet))]
				}
				return string(b)
			}
			for range tc.rounds {
				var pats []string
				for range 1 + rng.IntN(tc.maxPats) {
					pats = append(pats, randStr(2+rng.IntN(4)))
				}
				src := []byte(randStr(rng.IntN(400)))
				got := newAutomaton(pats, true).scan(src, nil)
				require.Equal(t, got, newAutomaton(pats, false).scan(src, nil), "with and without the start filter")
				var want []hit
				low := foldString(string(src))
				for end := 1; end <= len(src); end++ {
					for pi, p := range pats {
						if end >= len(p) && low[end-len(p):end] == foldString(p) {
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
		})
	}
}

func TestAutomatonRejectsShortLiterals(t *testing.T) {
	require.Panics(t, func() { newAutomaton([]string{"a"}, true) })
}
