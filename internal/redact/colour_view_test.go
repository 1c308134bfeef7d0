package redact

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/termtext"
	"github.com/stretchr/testify/require"
)

// termSeqRE is an independent spelling of the sequences the view removes,
// for tests: CSI up to its final byte, a control string up to BEL or ST
// (or the end), a charset designation and any other two-byte escape.
var termSeqRE = regexp.MustCompile("\x1b(?:\\[[^\x40-\x7e]*[\x40-\x7e]?|[\\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\\\)?|[()*+#%].?|.?)")

func stripTerm(s string) string { return termSeqRE.ReplaceAllString(s, "") }

func termSeqs(s string) []string { return termSeqRE.FindAllString(s, -1) }

// sampleSeqs are sequences real programs print, none of them a
// cursor-forward (which the view reads as spaces).
var sampleSeqs = []string{
	"\x1b[m", "\x1b[0m", "\x1b[1;31m", "\x1b[01;31m\x1b[K", "\x1b[38;5;208m", "\x1b[38;2;102;217;239m",
	"\x1b[K", "\x1b[2J\x1b[H", "\x1b[?25l", "\x1b[?2004h", "\x1b(B\x1b[m", "\x1b7", "\x1b8", "\x1b=",
	"\x1b]0;build: step 3\x07", "\x1b]2;vim\x1b\\", "\x1b]8;;https://example.com/docs\x1b\\",
	"\x1b]8;;\x1b\\", "\x1bP+q544e\x1b\\", "\x1b_Gf=100\x1b\\",
}

// The view's text is what termtext.CleanLine shows ('rac out read'), for
// lines with no control byte but ESC: the two parsers agree on every
// sequence boundary, and each view byte maps back to the same raw byte.
func TestTermViewAgreesWithTermtext(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"password", ": ", "=", "Xk35aa9", "ghp_", "é", " ", "token", "[", "m", "\\", "]", "8;;"}
	var v termView
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			if rng.IntN(3) == 0 {
				b.WriteString(sampleSeqs[rng.IntN(len(sampleSeqs))])
			} else {
				b.WriteString(words[rng.IntN(len(words))])
			}
		}
		if rng.IntN(8) == 0 { // a sequence the line ends inside of
			b.WriteString([]string{"\x1b", "\x1b[", "\x1b[1;3", "\x1b]0;unfinished title", "\x1b("}[rng.IntN(5)])
		}
		line := b.String()
		v.build([]byte(line), false)
		require.Equal(t, string(termtext.CleanLine([]byte(line))), string(v.text), "%q", line)
		require.Equal(t, stripTerm(line), string(v.text), "%q", line)
		require.Len(t, v.at, len(v.text)+1)
		for i := range v.text {
			require.Equal(t, v.text[i], line[v.at[i]], "%q at %d", line, i)
		}
	}
}

func TestTermViewCursorForward(t *testing.T) {
	var v termView
	line := "password:\x1b[3Cvalue\x1b[C!\x1b[99999C."
	v.build([]byte(line), false)
	require.Equal(t, "password:   value !"+strings.Repeat(" ", cufMaxSpaces)+".", string(v.text))
	// A span ending on a gap ends after the whole sequence; one ending on
	// printable text ends after that byte.
	require.Equal(t, len("password:\x1b[3C"), v.rawEnd([]byte(line), len("password:   ")))
	require.Equal(t, len("password:"), v.rawEnd([]byte(line), len("password:")))
	require.Equal(t, len("password:"), int(v.at[len("password:")]))
}

// An open buffer (a held piece of a long line) ends inside a sequence: the
// sequence is marked open, so the long-line path never cuts through it.
func TestTermViewOpenEnd(t *testing.T) {
	var v termView
	for _, tail := range []string{"\x1b", "\x1b[1;3", "\x1b]0;title", "\x1b]0;title\x1b", "\x1b("} {
		line := []byte("abc\x1b[1mdef" + tail)
		v.build(line, true)
		require.Equal(t, "abcdef", string(v.text), "%q", tail)
		require.Equal(t, len("abc\x1b[1mdef"), v.openStart(), "%q", tail)
		require.Equal(t, len("abc\x1b[1mdef"), v.boundary(len(line)-1), "%q", tail)
		v.build(line, false)
		require.Equal(t, -1, v.openStart(), "%q", tail)
	}
}
