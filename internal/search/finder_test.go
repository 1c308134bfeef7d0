package search

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFinderMatchesBytesIndex: every path of the finder (bytes.Index,
// rare byte, pair skip; folded or not) finds what bytes.Index finds in
// the (lowered) text.
func TestFinderMatchesBytesIndex(t *testing.T) {
	hay := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog; ERROR: Connection refused at 10.0.0.1:443\n", 200) + "zzz-tail of it all, the end of the text")
	low := bytes.ToLower(hay)
	needles := []string{"e", "ab", "the", "fox", "connection refused", "refused at 10.0.0.1:443\nthe", "zzz-tail", "zzz-none",
		"dog; error", "over the lazy dog; error: connection", "tail of it all, the end of the text", "the lazy dog; error: connection refused at 10.0.0.1:443\nthe quick brown fox jumps"}
	for _, nd := range needles {
		for _, fold := range []bool{false, true} {
			needle, text := []byte(nd), hay
			if fold {
				text = low
			}
			for _, mode := range []string{"auto", "rare", "skip", "suffix"} {
				f := newFinder(needle, fold, hay)
				switch mode {
				case "rare":
					f = newFinder(needle, true, hay) // a finder that has chosen a rare byte
					f.fold, f.useRare, f.skip2 = fold, true, nil
					f.rareUp = f.rareLo
					if fold {
						f.rareUp = upper(f.rareLo)
					}
				case "suffix":
					// every rare byte past the first, whatever the sample says
					if fold || len(needle) >= longNeedle || len(needle) < 2 {
						continue
					}
					for r := 1; r < len(needle); r++ {
						f := &finder{needle: needle, rare: r, suffix: true}
						for _, start := range []int{0, 1, 7, 100, len(hay) - 30} {
							assert.Equal(t, bytes.Index(text[start:], needle), f.index(hay[start:]), "needle %q suffix from %d, from %d", nd, r, start)
						}
					}
					continue
				case "skip":
					if len(needle) < longNeedle {
						continue
					}
					f = newFinder(needle, fold, bytes.Repeat(needle, 100)) // every byte common: the skip table
					assert.NotNil(t, f.skip2)
				}
				for _, start := range []int{0, 1, 7, 100, len(hay) - 30} {
					assert.Equal(t, bytes.Index(text[start:], needle), f.index(hay[start:]), "needle %q fold %v %s from %d", nd, fold, mode, start)
				}
			}
		}
	}
}

// TestFinderSuffixMisled: a rare byte chosen on a sample that misleads
// (the text is then full of the suffix) gives way to bytes.Index after
// its false starts, and still finds the first match, or none.
func TestFinderSuffixMisled(t *testing.T) {
	for _, hay := range []string{
		strings.Repeat("b", 10000) + "xb" + strings.Repeat("b", 100),
		"xb" + strings.Repeat("b", 10000),
		strings.Repeat("b", 10000),
		strings.Repeat("ab", 5000) + "xbxb",
	} {
		f := &finder{needle: []byte("xb"), rare: 1, suffix: true}
		for _, start := range []int{0, 1, 3, 5000} {
			assert.Equal(t, strings.Index(hay[start:], "xb"), f.index([]byte(hay[start:])), "from %d", start)
		}
	}
}
