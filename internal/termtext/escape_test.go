package termtext

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ name, in, want, line string }{
		{"plain", "go test ./...", "go test ./...", ""},
		{"empty", "", "", ""},
		{"utf8 kept", "héllo wörld ✓", "héllo wörld ✓", ""},
		{"replacement char kept", "a\uFFFDb", "a\uFFFDb", ""},
		{"backslash kept", `C:\x1b`, `C:\x1b`, ""},
		{"newline", "a\nb", `a\nb`, ""},
		{"tab", "a\tb", `a\tb`, "a\tb"},
		{"carriage return", "a\rb", `a\x0db`, ""},
		{"esc csi", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, ""},
		{"osc title", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`, ""},
		{"nul and bell", "\x00\x07", `\x00\x07`, ""},
		{"del", "a\x7fb", `a\x7fb`, ""},
		{"c1 csi", "a\u009b31mb", `a\x9b31mb`, ""},
		{"c1 osc", "\u009d52;c;aGk=\u009c", `\x9d52;c;aGk=\x9c`, ""},
		{"c1 nel", "x\u0085y", `x\x85y`, ""},
		{"first non-c1", "\u00a0nbsp", "\u00a0nbsp", ""},
		{"raw 0x9b byte", "a\x9bb", `a\x9bb`, ""},
		{"invalid utf8", "bad\xff\xfeutf8", `bad\xff\xfeutf8`, ""},
		{"truncated rune", "caf\xc3", `caf\xc3`, ""},
		{"escape after utf8", "é\x1b", `é\x1b`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Escape(tc.in)
			assert.Equal(t, tc.want, got)
			assertHarmless(t, got)
			want := tc.line
			if want == "" {
				want = tc.want
			}
			assert.Equal(t, want, EscapeLine(tc.in))
		})
	}
}

// assertHarmless: no C0 control, DEL, C1 control or invalid UTF-8 left.
func assertHarmless(t *testing.T, s string) {
	t.Helper()
	assert.True(t, utf8.ValidString(s), "%q", s)
	for _, r := range s {
		assert.False(t, r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0, "raw control %U in %q", r, s)
	}
}

func TestEscapeAllBytes(t *testing.T) {
	for c := range 256 {
		assertHarmless(t, Escape("x"+string([]byte{byte(c)})+"y"))
		assertHarmless(t, Escape(string([]byte{0xc2, byte(c)})))
		assertHarmless(t, ShellQuote("x"+string([]byte{byte(c)})))
	}
	for r := rune(0); r < 0x800; r++ {
		assertHarmless(t, Escape(string(r)))
		assertHarmless(t, ShellQuote(string(r)))
	}
}

func TestEscapeNoAlloc(t *testing.T) {
	s := "an ordinary line, with ünïcode"
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = Escape(s) }))
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                "''",
		"git":             "git",
		"./...":           "./...",
		"--x=1,2":         "--x=1,2",
		"user@host:/p%+_": "user@host:/p%+_",
		"a b":             "'a b'",
		"it's":            `'it'\''s'`,
		"$HOME":           "'$HOME'",
		"*":               "'*'",
		"héllo":           "'héllo'",
		"a\u00a0b":        "'a\u00a0b'",
		`back\slash`:      `'back\slash'`,
		"a\nb":            `$'a\nb'`,
		"a\tb":            `$'a\tb'`,
		"a\rb":            `$'a\rb'`,
		"\x1b[1m":         `$'\e[1m'`,
		"bad\xffutf8":     `$'bad\xffutf8'`,
		"c1\u009bx":       `$'c1\xc2\x9bx'`,
		"it's\n":          `$'it\'s\n'`,
		"\\\n":            `$'\\\n'`,
		"\x01\x7f":        `$'\x01\x7f'`,
	} {
		got := ShellQuote(in)
		assert.Equal(t, want, got, "%q", in)
		assertHarmless(t, got)
		assert.NotContains(t, got, "\n")
	}
}

func TestShellQuoteNoAllocWhenBare(t *testing.T) {
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = ShellQuote("--flag=value") }))
	assert.Equal(t, strings.Repeat("a", 10), ShellQuote(strings.Repeat("a", 10)))
}

func TestEscapeInvisible(t *testing.T) {
	for in, want := range map[string]string{
		"\u202egnp.exe":  `\u202egnp.exe`,
		"a\u200bb":       `a\u200bb`,
		"x\u2066y\u2069": `x\u2066y\u2069`,
		"\ufeffbom":      `\ufeffbom`,
		"a\u00a0b":       "a\u00a0b", // a no-break space prints
		"日本語 ✓":          "日本語 ✓",
	} {
		assert.Equal(t, want, Escape(in), "%q", in)
	}
	assert.Equal(t, `$'\xe2\x80\xaeevil'`, ShellQuote("\u202eevil"))
}
