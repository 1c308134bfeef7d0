package ui

import (
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/termtext"
)

// trickyArgv are arguments a shell gets wrong when they are badly quoted.
var trickyArgv = []string{
	"plain", "", " ", "a b", "it's", "'", `"`, `\`, `a\nb`, "$HOME", "${x}", "`id`", "$(id)",
	"*", "?", "[a]", "~", "~user", "#not-a-comment", "a;b", "a|b", "a&b", "<x>", "!", "!!",
	"-n", "--flag=value", "%s", "%%", "héllo", "a\u00a0b", "\u202eevil",
	"a\nb", "\n", "\t", "a\rb", "\x1b[31mred\x1b[0m", "\x01\x7f", "c1\u009b2J\u009dx", "bad\xffutf8", "\xc3",
	"it's\nnew", "\\\n", "'\\''",
}

// TestQuoteRoundTrip: a shell given Quote(argv) gets argv back, byte for
// byte, and the quoted line holds no raw control character.
func TestQuoteRoundTrip(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	q := Quote(trickyArgv)
	assert.Equal(t, termtext.Escape(q), q, "nothing left to escape: %q", q)
	assert.NotContains(t, q, "\n")
	got := shellArgs(t, bash, q)
	require.Equal(t, len(trickyArgv), len(got), "%q", got)
	for i := range trickyArgv {
		assert.Equal(t, trickyArgv[i], got[i], "argument %d, quoted %s", i, termtext.ShellQuote(trickyArgv[i]))
	}
}

// TestQuoteRoundTripPOSIX: the arguments that need no $'...' form read
// back in a plain POSIX sh (dash) as well.
func TestQuoteRoundTripPOSIX(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	var argv []string
	for _, a := range trickyArgv {
		if !strings.HasPrefix(termtext.ShellQuote(a), "$'") {
			argv = append(argv, a)
		}
	}
	require.Greater(t, len(argv), 30)
	assert.Equal(t, argv, shellArgs(t, sh, Quote(argv)))
}

// shellArgs runs printf in shell, on the quoted words, and splits what it
// prints at NULs (argv cannot hold one).
func shellArgs(t *testing.T, shell, quoted string) []string {
	t.Helper()
	out, err := exec.Command(shell, "-c", `printf '%s\0' `+quoted).Output()
	require.NoError(t, err, quoted)
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func TestQuote(t *testing.T) {
	assert.Equal(t, "", Quote(nil))
	assert.Equal(t, "git push origin main", Quote([]string{"git", "push", "origin", "main"}))
	assert.Equal(t, `go test ./... -run 'Test Total'`, Quote([]string{"go", "test", "./...", "-run", "Test Total"}))
	assert.Equal(t, `sh -c $'echo a\necho b' ''`, Quote([]string{"sh", "-c", "echo a\necho b", ""}))
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1: "1 B", 512: "512 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 3000: "2.9 KiB",
		4096: "4 KiB", 5000: "4.9 KiB", 10 << 10: "10 KiB", 1<<20 - 1: "1024 KiB", 256 << 20: "256 MiB",
		212*(1<<20) + 300000: "212 MiB", 2 << 30: "2 GiB", 1 << 40: "1 TiB", 3 << 50: "3 PiB",
		-1536: "-1.5 KiB", math.MaxInt64: "8192 PiB", math.MinInt64: "-8192 PiB",
	} {
		assert.Equal(t, want, Bytes(n), n)
	}
}
