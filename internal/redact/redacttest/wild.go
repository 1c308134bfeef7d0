package redacttest

import (
	"bytes"
	"strings"
)

// Surviving returns the secrets of which one of the SurvivalForms occurs
// in text, as it is or with its terminal escape sequences taken out (what
// a terminal, and rac out read, shows): a secret split by colour codes
// counts as surviving.
func Surviving(text []byte, secrets []string) []string {
	var out []string
	stripped := StripEscapes(text)
	for _, s := range secrets {
		for _, f := range SurvivalForms(s) {
			if bytes.Contains(text, []byte(f)) || bytes.Contains(stripped, []byte(f)) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// escapeSpellings are the ways escape sequences are written out as text:
// JSON's \u001b, C's \x1b, \033 and \e, and the caret notation ^[. Each is
// read as the ESC byte before the sequences are taken out, so a view that
// shows colour codes as text still counts as showing what they split.
var escapeSpellings = strings.NewReplacer(
	`\u001b`, "\x1b", `\u001B`, "\x1b", `\x1b`, "\x1b", `\x1B`, "\x1b", `\033`, "\x1b", `\e[`, "\x1b[", `^[`, "\x1b",
	`\u0007`, "\x07",
)

// StripEscapes returns text without its terminal escape sequences (CSI
// such as colours and cursor moves, OSC such as hyperlinks and titles,
// and the two-byte ones), spelled as bytes or as text (see
// escapeSpellings). It returns text itself when there are none.
func StripEscapes(text []byte) []byte {
	if bytes.IndexByte(text, 0x1b) < 0 && !bytes.Contains(text, []byte(`\u001`)) && !bytes.Contains(text, []byte(`\x1`)) &&
		!bytes.Contains(text, []byte(`\033`)) && !bytes.Contains(text, []byte(`\e[`)) && !bytes.Contains(text, []byte(`^[`)) {
		return text
	}
	in := []byte(escapeSpellings.Replace(string(text)))
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		j := bytes.IndexByte(in[i:], 0x1b)
		if j < 0 {
			out = append(out, in[i:]...)
			break
		}
		out = append(out, in[i:i+j]...)
		i += j + 1 // past ESC
		if i >= len(in) {
			break
		}
		switch in[i] {
		case '[': // CSI: parameters, intermediates, one final byte
			i++
			for i < len(in) && in[i] >= 0x20 && in[i] <= 0x3f {
				i++
			}
			for i < len(in) && in[i] >= 0x20 && in[i] <= 0x2f {
				i++
			}
			if i < len(in) && in[i] >= 0x40 && in[i] <= 0x7e {
				i++
			}
		case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ESC \
			i++
			for i < len(in) && in[i] != 0x07 && in[i] != 0x1b {
				i++
			}
			if i < len(in) && in[i] == 0x07 {
				i++
			} else if i+1 < len(in) && in[i+1] == '\\' {
				i += 2
			}
		case '(', ')', '#', '%': // charset and the like: one more byte
			i = min(i+2, len(in))
		default: // two-byte sequences (ESC 7, ESC =, ESC \, ...)
			i++
		}
	}
	return out
}
