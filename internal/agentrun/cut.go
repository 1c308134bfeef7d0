package agentrun

import (
	"fmt"
	"unicode/utf8"

	"github.com/rac-cli/rac/internal/termtext"
)

// Cut shortens s to at most n bytes, on a rune boundary, ending in "…".
func Cut(s string, n int) string { return termtext.Cut(s, n) }

// MaxLeaf is the longest string leaf a reduced frame shows whole.
const MaxLeaf = 64 << 10

// CutLeaf cuts a string leaf longer than MaxLeaf to MaxLeaf bytes and says
// how many bytes went, in a suffix: "…[rac: N bytes cut]".
func CutLeaf(s string) string {
	if len(s) <= MaxLeaf {
		return s
	}
	i := MaxLeaf
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("…[rac: %d bytes cut]", len(s)-i)
}
