package termtext

import "unicode/utf8"

// Defuse returns text with each byte that is not UTF-8 and lies in the C1
// range (0x80-0x9F) replaced by U+FFFD. A terminal in 8-bit mode reads a
// lone 0x9B as CSI and 0x9D as OSC, so a cleaned line must never carry
// one raw; a UTF-8 terminal shows such a byte as U+FFFD anyway. Valid
// UTF-8 (the common case, checked at memory speed) is returned as is.
func Defuse(text []byte) []byte {
	if utf8.Valid(text) {
		return text
	}
	var out []byte
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n == 1 && text[i] >= 0x80 && text[i] < 0xa0 {
			if out == nil {
				out = append(make([]byte, 0, len(text)+8), text[:i]...)
			}
			out = append(out, "\uFFFD"...)
		} else if out != nil {
			out = append(out, text[i:i+n]...)
		}
		i += n
	}
	if out == nil {
		return text
	}
	return out
}
