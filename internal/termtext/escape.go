package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file is the one escaper and the one shell quoter of rac: every
// string it prints that it did not write itself (argv, cwd, notes, error
// text, a recorded line) passes through one of them, so nothing taken from
// a recording can move the cursor, retitle the window or start an OSC 52
// clipboard write. They live here, in a domain package, because explain
// renders text too and must not import internal/ui.

const hexDigits = "0123456789abcdef"

// Escape makes s safe and visible on one line: a newline becomes `\n`, a
// tab `\t`, every other C0 control and DEL `\xNN`, a C1 control
// (U+0080-U+009F, which holds the 8-bit CSI U+009B and OSC U+009D) `\xNN`
// of its code point, a byte that is not UTF-8 `\xNN` of the byte, and a
// character that prints nothing or reorders what follows it (the bidi
// overrides U+202A-U+202E and U+2066-U+2069, zero-width and other format
// characters, line and paragraph separators) `\uNNNN`, so a name cannot
// display as another.
// Everything else, backslashes included, is kept: the result is for
// reading, not for reading back (ShellQuote is). A string with nothing to
// escape is returned as is, without allocating.
func Escape(s string) string { return escape(s, false) }

// EscapeLine is Escape for a line of the recorded command's output shown
// as text: the same, except that a tab stays a tab, because it is the
// output's own layout (go test's "FAIL\tpkg\t0.02s") and harmless.
func EscapeLine(s string) string { return escape(s, true) }

func escape(s string, keepTab bool) string {
	i := firstUnsafe(s, keepTab)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			writeHex(&b, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t' && !keepTab:
			b.WriteString(`\t`)
		case r == '\t':
			b.WriteByte('\t')
		case isControl(r):
			writeHex(&b, byte(r))
		case isInvisible(r):
			writeU(&b, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the index of the first rune Escape changes, or -1.
func firstUnsafe(s string, keepTab bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && (c != '\t' || !keepTab) || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || isC1(r) || isInvisible(r) {
			return i
		}
		i += n
	}
	return -1
}

// isControl is a C0 control, DEL or a C1 control.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f || isC1(r) }

func isC1(r rune) bool { return r >= 0x80 && r < 0xa0 }

// isInvisible is a character beyond C1 that a terminal shows as nothing
// or that changes how the text around it is shown: format characters
// (Cf: bidi controls, zero-width joiners, the BOM), line and paragraph
// separators, and unassigned or private code points.
func isInvisible(r rune) bool {
	return r >= 0xa0 && !unicode.IsPrint(r) && r != 0xa0 && !unicode.Is(unicode.Zs, r)
}

func writeU(b *strings.Builder, r rune) {
	if r > 0xffff {
		b.WriteString(`\U`)
		for sh := 28; sh >= 0; sh -= 4 {
			b.WriteByte(hexDigits[(r>>sh)&0xf])
		}
		return
	}
	b.WriteString(`\u`)
	for sh := 12; sh >= 0; sh -= 4 {
		b.WriteByte(hexDigits[(r>>sh)&0xf])
	}
}

func writeHex(b *strings.Builder, c byte) {
	b.WriteString(`\x`)
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&0xf])
}

// ShellQuote quotes one argument so a POSIX shell reads it back exactly,
// quoting only when needed. It is bare when every byte is a letter, a
// digit or one of %+,-./:=@_; in single quotes otherwise (non-ASCII too, so
// a no-break space cannot pass for a separator); and in the $'...' form
// (bash, zsh, ksh and POSIX.1-2024 sh) when it holds a control character or
// a byte that is not UTF-8, so the result stays on one line and writes no
// control character itself. A C1 control is written as its UTF-8 bytes,
// which is what the shell must produce to give the argument back:
//
//	git         git
//	a b         'a b'
//	it's        'it'\''s'
//	héllo       'héllo'
//	a<LF>b      $'a\nb'
//	<ESC>[1m    $'\e[1m'
//	<U+009B>    $'\xc2\x9b'
//	<U+202E>    $'\xe2\x80\xae'
//
// It is rac's one quoter for bash and zsh, for what people read (explain,
// hints, tombstones) and for the code rac writes (shell-init, hook
// commands) alike; fish has its own (shellinit). mvdan.cc/sh's
// syntax.Quote does not fit: it writes \uXXXX for a character it cannot
// print, which bash and zsh turn back into that character only under a
// UTF-8 locale (under LC_ALL=C the argument comes back changed), and it
// leaves ! and characters a terminal shows as nothing (U+3164) bare,
// where a line pasted at an interactive prompt runs history expansion or
// hides a word. TestShellQuoteDialects holds both claims.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	bare, plain := true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isBare(c) {
			bare = false
		}
		if c < 0x20 || c == 0x7f {
			plain = false
		}
	}
	if bare {
		return s
	}
	if plain && firstUnsafe(s, false) < 0 {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		switch {
		case r == utf8.RuneError && n == 1:
			writeHex(&b, c)
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == 0x1b:
			b.WriteString(`\e`)
		case c < 0x20 || c == 0x7f:
			writeHex(&b, c)
		case isC1(r) || isInvisible(r):
			for j := range n {
				writeHex(&b, s[i+j])
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('\'')
	return b.String()
}

// QuoteArgv is argv as a shell would read it back: each argument through
// ShellQuote, joined by spaces.
func QuoteArgv(argv []string) string {
	switch len(argv) {
	case 0:
		return ""
	case 1:
		return ShellQuote(argv[0])
	}
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(ShellQuote(a))
	}
	return b.String()
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("%+,-./:=@_", c) >= 0
}
