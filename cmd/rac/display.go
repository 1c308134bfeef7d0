package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// escapingWriter escapes control characters of each line written through
// it (text that carries values from the environment).
type escapingWriter struct{ w io.Writer }

func (e *escapingWriter) Write(p []byte) (int, error) {
	lines := strings.SplitAfter(string(p), "\n")
	for _, l := range lines {
		body, nl := strings.CutSuffix(l, "\n")
		s := escapeControl(body)
		if nl {
			s += "\n"
		}
		if _, err := io.WriteString(e.w, s); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// escapeControl makes s safe to print: control bytes and invalid UTF-8
// become visible escapes, so nothing taken from argv or a file name can
// send a terminal control sequence.
func escapeControl(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			if c >= 0x80 && utf8.ValidString(s) && !hasC1(s) {
				continue
			}
			return true
		}
	}
	return false
}

func hasC1(s string) bool {
	for _, r := range s {
		if r >= 0x80 && r < 0xa0 {
			return true
		}
	}
	return false
}

// shellQuote renders argv as a shell would read it back, with control
// characters escaped.
func shellQuote(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = quoteArg(a)
	}
	return strings.Join(parts, " ")
}

func quoteArg(a string) string {
	if a == "" {
		return "''"
	}
	if needsEscape(a) {
		return "$'" + strings.ReplaceAll(escapeControl(strings.ReplaceAll(a, `\`, `\\`)), "'", `\'`) + "'"
	}
	for i := 0; i < len(a); i++ {
		c := a[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=@%+,", c) >= 0 || c >= 0x80) {
			return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return a
}

// humanBytes prints a size with a binary unit.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%dB", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f%ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
