package redact

import (
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// colourText inserts escape sequences (colours mostly, and titles, links,
// erase-line and charset resets) at random places of s: inside names,
// separators, values, tokens and key lines, never inside a sequence s
// already holds.
func colourText(rng *rand.Rand, s string, n int) string {
	inside := make([]bool, len(s)+1) // inside[i]: a cut before s[i] would split a sequence
	for _, loc := range termSeqRE.FindAllStringIndex(s, -1) {
		for i := loc[0] + 1; i < loc[1]; i++ {
			inside[i] = true
		}
	}
	var at []int
	for range n {
		if k := rng.IntN(len(s) + 1); !inside[k] {
			at = append(at, k)
		}
	}
	sort.Ints(at)
	var b strings.Builder
	prev := 0
	for _, k := range at {
		b.WriteString(s[prev:k])
		b.WriteString(sampleSeqs[rng.IntN(len(sampleSeqs))])
		prev = k
	}
	b.WriteString(s[prev:])
	return b.String()
}

// isSubsequence reports whether every element of sub appears in seq, in
// order.
func isSubsequence(sub, seq []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}

// FuzzColour: for any case of the corpus, embedded in other lines, coloured
// at random and written in random pieces, the recording read without its
// escape sequences is exactly the redaction of the uncoloured text, no
// secret material survives in it or in the raw recording, and the escape
// sequences in the recording are the input's (the ones on a dropped key
// line may go with it), in order. The seed corpus covers every case, so
// plain go test runs each once.
func FuzzColour(f *testing.F) {
	cases := allCases(f)
	for i := range cases {
		f.Add(uint16(i), uint64(i)*7919, uint8(i), uint16(i*37), uint16(i*101))
	}
	redactorOf := caseRedactors(cases)
	f.Fuzz(func(t *testing.T, idx uint16, seed uint64, mode uint8, a, b uint16) {
		ci := int(idx) % len(cases)
		c := cases[ci]
		r := redactorOf(t, ci)
		rng := rand.New(rand.NewPCG(seed, 5))
		text, _ := embed(c, rng)
		want := writeSplit(t, r, text, nil, WriterOptions{Workers: 1})
		in := colourText(rng, text, 1+rng.IntN(12))
		require.Equal(t, stripTerm(text), stripTerm(in))

		var cuts []int
		switch mode % 4 {
		case 0: // a byte per write
			for k := 1; k < len(in); k++ {
				cuts = append(cuts, k)
			}
		default:
			cuts = []int{int(a) % (len(in) + 1), int(b) % (len(in) + 1)}
			slices.Sort(cuts)
		}
		opts := []WriterOptions{{Workers: 1}, {Workers: 2, RegionSize: 1 + rng.IntN(64)}, {Workers: 3, RegionSize: 16}}
		opt := opts[int(mode/4)%len(opts)]
		got := writeSplit(t, r, in, cuts, opt)

		require.Equal(t, stripTerm(want), stripTerm(got), "%s: coloured %q, %+v", c.pos, in, opt)
		requireNoSurvivor(t, got, c)
		requireNoSurvivor(t, stripTerm(got), c)
		require.True(t, isSubsequence(termSeqs(got), termSeqs(in)), "%s: sequences of %q changed in %q", c.pos, in, got)
	})
}
