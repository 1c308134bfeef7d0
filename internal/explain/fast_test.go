package explain

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shortcuts that keep explain fast must decide as the long way does:
// the searches that read eight places at a time find what a plain loop
// finds wherever a match falls against the rounds, a precheck never keeps
// a regexp from a line it would match, and no line is more specific than
// the bound the store leaves early by.

// randomLine is a short line from a small alphabet, so that pairs and
// words recur and fall on every offset.
func randomLine(r *rand.Rand, alphabet string) []byte {
	b := make([]byte, r.Intn(40))
	for i := range b {
		b[i] = alphabet[r.Intn(len(alphabet))]
	}
	return b
}

func TestHasWordFold(t *testing.T) {
	// the definition: some place where w starts, in any case, between non-letters
	plain := func(b []byte, w string) bool {
		for i := 0; i+len(w) <= len(b); i++ {
			if bytes.EqualFold(b[i:i+len(w)], []byte(w)) &&
				(i == 0 || !isLetter(b[i-1])) && (i+len(w) == len(b) || !isLetter(b[i+len(w)])) {
				return true
			}
		}
		return false
	}
	r := rand.New(rand.NewSource(2))
	for _, w := range []string{"summary", "got", "want", "expected", "actual", "ab", "a", "1x", "_x"} {
		for n := 0; n < 20000; n++ {
			b := randomLine(r, w+"SUMARYGOTA1 _.\xe2")
			if r.Intn(2) == 0 { // the word, in some case, at any place
				at := r.Intn(len(b) + 1)
				word := []byte(w)
				for i := range word {
					if r.Intn(2) == 0 {
						word[i] = bytes.ToUpper(word[i : i+1])[0]
					}
				}
				b = append(b[:at:at], append(word, b[at:]...)...)
			}
			require.Equal(t, plain(b, w), hasWordFold(b, w), "%q in %q", w, b)
		}
	}
}

func TestMayBeGoFrame(t *testing.T) {
	// only a line it lets through can be a frame
	r := rand.New(rand.NewSource(3))
	frames := 0
	for n := 0; n < 100000; n++ {
		var b []byte
		if r.Intn(4) == 0 {
			b = append(b, "created by "...)
		}
		b = append(b, randomLine(r, "main.(*T)f_-[]/ ")...)
		b = append(b, '(')
		b = append(b, randomLine(r, "0x1, ?(")...)
		b = append(b, ')')
		if shapes().goFrame.Match(b) {
			frames++
			require.True(t, mayBeGoFrame(b), "%q", b)
		}
	}
	require.Greater(t, frames, 1000)
}

func TestMaxSpec(t *testing.T) {
	all := "main.c:3:4: 'x' foo@1.2.3 bar@2.0.1 baz@3.1.4 E0308 expected 1, got 2"
	require.Equal(t, maxSpec, specificity([]byte(all)), "a line that names everything")
	r := rand.New(rand.NewSource(4))
	for n := 0; n < 20000; n++ {
		b := randomLine(r, all)
		require.LessOrEqual(t, specificity(b), maxSpec, "%q", b)
	}
	// The store's early leave holds only because rank never falls as a
	// line grows more specific.
	for tier := tierContext; tier < nTiers; tier++ {
		for _, kind := range []string{kindTool, kindLog, kindCompiler, kindTerm, kindSummary} {
			for spec := 0; spec < maxSpec; spec++ {
				require.LessOrEqual(t, rank(tier, kind, spec), rank(tier, kind, spec+1))
			}
		}
	}
}

// TestPrefilterFindsEveryAnchor: each anchor, alone in a line at several
// offsets (and in upper case when it folds), is found. Two anchors whose
// trigger pairs share a table slot must both keep it: one registered
// later must not overwrite the other's.
func TestPrefilterFindsEveryAnchor(t *testing.T) {
	pf := newPrefilter(anchors)
	for _, a := range anchors {
		texts := []string{a.text}
		if !a.exact {
			texts = append(texts, strings.ToUpper(a.text))
		}
		for _, text := range texts {
			for _, pad := range []string{"", " ", "ab ", "x: something before it: "} {
				line := pad + text + " after\n"
				if strings.HasPrefix(text, "\n") {
					line = "before" + line
				}
				require.GreaterOrEqual(t, pf.index([]byte(line)), 0, "anchor %q in %q", a.text, line)
			}
		}
	}
}
