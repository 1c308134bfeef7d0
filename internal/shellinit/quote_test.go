package shellinit

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"

	"github.com/rac-cli/rac/internal/termtext"
)

// quoteInputs are what the init code quotes (session names, rac's path,
// wrapped words) and worse.
var quoteInputs = []string{
	"plain", "user-1000", "/usr/local/bin/rac", "/opt/my rac/rac", "", " ", "a b", "it's", "'", `"`, `\`,
	`\\`, "$HOME", "${x}", "`id`", "$(id)", "*", "?", "[a]", "~", "#c", "a;b", "a|b", "a&b", "<x>",
	"!", "!!", "-n", "--flag=value", "%s", "{a,b}", "héllo", "a\u00a0b", "\u202eevil", "\u3164",
	"a\nb", "\t", "\x1b[31mred", "\x01\x7f", "c1\u009b2J", "bad\xffutf8", "it's\nnew", "'\\''",
}

// readBack runs shell with the locale given and has it print each quoted
// word, NUL-terminated.
func readBack(t *testing.T, shell, locale string, quoted []string) []string {
	t.Helper()
	got, err := tryReadBack(shell, locale, quoted)
	require.NoError(t, err, "%s: %s", shell, quoted)
	return got
}

func tryReadBack(shell, locale string, quoted []string) ([]string, error) {
	cmd := exec.Command(shell, "-c", `printf '%s\0' `+strings.Join(quoted, " "))
	cmd.Env = []string{"LC_ALL=" + locale, "PATH=/usr/bin:/bin", "HOME=/nonexistent"}
	out, err := cmd.Output()
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"), err
}

// TestShellQuoteDialects: each dialect rac writes code for reads its
// quoter's words back byte for byte, under a UTF-8 locale and under C:
// termtext.ShellQuote for bash and zsh, fishQuote for fish. And
// syntax.Quote, which termtext.ShellQuote's comment says does not fit,
// does not (if a release of mvdan.cc/sh fixes that, this test says so:
// then use it).
func TestShellQuoteDialects(t *testing.T) {
	for _, d := range []struct {
		shell string
		quote func(string) string
		lang  syntax.LangVariant
		skip  func(string) bool // what the dialect's quoter is not for
	}{
		{"bash", termtext.ShellQuote, syntax.LangBash, func(string) bool { return false }},
		{"zsh", termtext.ShellQuote, syntax.LangZsh, func(string) bool { return false }},
		// fish reads its script as text: a control character or a byte
		// that is not UTF-8 has no quoted form (rac never writes one there)
		{"fish", fishQuote, 0, func(s string) bool {
			return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfffd || r >= 0x80 && r < 0xa0 })
		}},
	} {
		t.Run(d.shell, func(t *testing.T) {
			path, err := exec.LookPath(d.shell)
			if err != nil {
				t.Skipf("no %s", d.shell)
			}
			var in, quoted []string
			for _, s := range quoteInputs {
				if !d.skip(s) {
					in = append(in, s)
					quoted = append(quoted, d.quote(s))
				}
			}
			for _, locale := range []string{"C.UTF-8", "C"} {
				assert.Equal(t, in, readBack(t, path, locale, quoted), "%s under LC_ALL=%s", d.shell, locale)
			}
			if d.lang == 0 {
				return
			}
			// syntax.Quote: \u escapes come back changed (bash) or fail (zsh)
			// under C, ! and
			// U+3164 stay bare
			var sq []string
			for _, s := range in {
				q, err := syntax.Quote(s, d.lang)
				require.NoError(t, err, "%q", s)
				sq = append(sq, q)
			}
			got, err := tryReadBack(path, "C", sq)
			assert.True(t, err != nil || !assert.ObjectsAreEqual(in, got), "syntax.Quote reads back under LC_ALL=C now: use it")
			bang, _ := syntax.Quote("!!", d.lang)
			filler, _ := syntax.Quote("\u3164", d.lang)
			assert.Equal(t, []string{"!!", "\u3164"}, []string{bang, filler})
			assert.Equal(t, []string{"'!!'", "'\u3164'"}, []string{termtext.ShellQuote("!!"), termtext.ShellQuote("\u3164")})
		})
	}
}
