// Package termtext turns recorded terminal output into the text a terminal
// would have shown: escape sequences (CSI, OSC, DCS and two-byte escapes)
// removed, a carriage return moving back to the start of the line so later
// characters overwrite earlier ones, a backspace erasing the character before
// it, and other control bytes dropped. It works on one line at a time and
// never allocates for a line that holds nothing to clean.
package termtext

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// IndexSpecial returns the index of the first byte of text that CleanLine
// acts on, or -1 when there is none. text is one line or many lines
// separated by '\n'. The bytes are: a C0 control other than tab and
// newline, DEL, the lead byte 0xC2 of a C1 control (U+0080-U+009F, which
// UTF-8 writes as 0xC2 0x80-0x9F; 0x9B is the 8-bit CSI), and a carriage
// return unless it ends a line (right before '\n' or at the end of text:
// "\r\n" is a line end, not an overwrite). This is the one definition of
// what cleaning acts on: CleanLine and the search engine both use it, so a
// search finds exactly the lines 'rac out read' shows holding the text.
func IndexSpecial(text []byte) int {
	i := 0
	// four words a round: their masks are independent, so the processor
	// computes them side by side, and plain ASCII (no high bit in any of
	// the four) needs no C1 test
	for ; i+32 <= len(text); i += 32 {
		w0, w1 := binary.LittleEndian.Uint64(text[i:]), binary.LittleEndian.Uint64(text[i+8:])
		w2, w3 := binary.LittleEndian.Uint64(text[i+16:]), binary.LittleEndian.Uint64(text[i+24:])
		if (w0|w1|w2|w3)&high == 0 && asciiMask(w0)|asciiMask(w1)|asciiMask(w2)|asciiMask(w3) == 0 {
			continue
		}
		for k, w := range [4]uint64{w0, w1, w2, w3} {
			if j := firstSpecial(text, i+8*k, specialMask(w)); j >= 0 {
				return j
			}
		}
	}
	for ; i+8 <= len(text); i += 8 {
		if j := firstSpecial(text, i, specialMask(binary.LittleEndian.Uint64(text[i:]))); j >= 0 {
			return j
		}
	}
	for ; i < len(text); i++ {
		if special[text[i]] && isSpecialAt(text, i) {
			return i
		}
	}
	return -1
}

// firstSpecial returns the first byte marked in m (the mask of the word at
// text[i:]) that is special where it stands, or -1.
func firstSpecial(text []byte, i int, m uint64) int {
	for ; m != 0; m &= m - 1 {
		if j := i + bits.TrailingZeros64(m)/8; isSpecialAt(text, j) {
			return j
		}
	}
	return -1
}

// special marks the bytes that may start something cleaning acts on;
// isSpecialAt settles the two that depend on the next byte (CR, 0xC2).
var special = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n'
	}
	t[0x7f], t[0xc2] = true, true
	return t
}()

func isSpecialAt(text []byte, i int) bool {
	switch text[i] {
	case '\r':
		return i+1 < len(text) && text[i+1] != '\n'
	case 0xc2:
		return i+1 < len(text) && text[i+1] >= 0x80 && text[i+1] < 0xa0
	}
	return true
}

// Byte-parallel constants: each lane is one byte of a little-endian word.
const (
	lanes = 0x0101010101010101
	high  = 0x8080808080808080
	low7  = 0x7f7f7f7f7f7f7f7f
)

// specialMask sets the high bit of every byte of x that special marks,
// eight bytes at a time (no carry crosses a byte: each lane's high bit is
// set before subtracting, and cleared before adding): a line of plain text
// costs a few instructions per word instead of a table load per byte.
func specialMask(x uint64) uint64 {
	hx := x | high
	ascii := ^x & high
	c0 := ^(hx - lanes*0x20) & ascii                      // bytes below 0x20
	tabNL := (hx - lanes*0x09) &^ (hx - lanes*0x0b)       // 0x09 and 0x0a (below 0x80)
	del := (hx - lanes*0x7f) & ascii                      // 0x7f (below 0x80)
	l := x&low7 | high                                    // the low seven bits
	c2 := (l - lanes*0x42) &^ (l - lanes*0x43) & x & high // 0xc2
	return c0&^tabNL | del | c2
}

// asciiMask is specialMask for a word with no high bit set.
func asciiMask(x uint64) uint64 {
	hx := x | high
	c0 := ^(hx - lanes*0x20) & high
	tabNL := (hx - lanes*0x09) &^ (hx - lanes*0x0b)
	return c0&^tabNL | (hx-lanes*0x7f)&high
}

// NeedsClean reports whether CleanLine would change line: it holds a byte
// IndexSpecial finds, or ends in the carriage return of a "\r\n".
func NeedsClean(line []byte) bool {
	return IndexSpecial(line) >= 0 || bytes.HasSuffix(line, []byte{'\r'})
}

// replacement is U+FFFD, what an invalid byte shows as.
var replacement = []byte("\uFFFD")

// CleanLine returns line (without its newline) as a terminal would show it.
// A trailing "\r" (from "\r\n") is a line end, not an overwrite. The result
// may alias line when nothing needed cleaning.
func CleanLine(line []byte) []byte {
	// look before trimming: in "a\r\r" the first CR overwrites
	if IndexSpecial(line) < 0 {
		return bytes.TrimSuffix(line, []byte{'\r'})
	}
	line = bytes.TrimSuffix(line, []byte{'\r'})
	// cells holds one rune (or one invalid byte) per column.
	var cells [][]byte
	col := 0
	put := func(cell []byte) {
		if col < len(cells) {
			cells[col] = cell
		} else {
			cells = append(cells, cell)
		}
		col++
	}
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == 0x1b:
			i = skipEscape(line, i)
			continue
		case c == '\r':
			col = 0
		case c == '\b':
			if col > 0 {
				col--
				if col == len(cells)-1 {
					cells = cells[:col]
				}
			}
		case c == '\t':
			put(line[i : i+1])
		case c < 0x20 || c == 0x7f:
			// other control bytes show nothing
		case c < utf8.RuneSelf:
			put(line[i : i+1])
		default:
			r, n := utf8.DecodeRune(line[i:])
			switch {
			case r == 0x9b: // 8-bit CSI: parameters up to a final byte
				i = skipParams(line, i+n)
			case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
				i = skipString(line, i+n)
			case r >= 0x80 && r < 0xa0: // other C1 controls show nothing
				i += n
			case r == utf8.RuneError && n == 1:
				// an invalid byte shows as U+FFFD, as a terminal shows it:
				// kept raw, a stray lead byte could join a continuation
				// byte once a control between them is dropped ("\xc2\x1c\x9b"
				// would become the C1 CSI c2 9b)
				put(replacement)
				i++
			default:
				put(line[i : i+n])
				i += n
			}
			continue
		}
		i++
	}
	out := make([]byte, 0, len(line))
	for _, cell := range cells {
		out = append(out, cell...)
	}
	return out
}

// skipEscape returns the index just past the escape sequence starting at
// line[i] (an ESC byte). An unterminated sequence runs to the end of line.
func skipEscape(line []byte, i int) int {
	i++
	if i >= len(line) {
		return i
	}
	switch line[i] {
	case '[': // CSI: parameters and intermediates, then a final byte 0x40-0x7e
		return skipParams(line, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \)
		return skipString(line, i+1)
	case '(', ')', '*', '+', '#', '%': // charset designation: one more byte
		return min(i+2, len(line))
	default: // two-byte escape (ESC 7, ESC =, ...)
		return i + 1
	}
}

// skipParams returns the index after a CSI's final byte (0x40-0x7e),
// starting at i, just past the introducer.
func skipParams(line []byte, i int) int {
	for ; i < len(line); i++ {
		if line[i] >= 0x40 && line[i] <= 0x7e {
			return i + 1
		}
	}
	return i
}

// skipString returns the index after a control string's terminator: BEL,
// ESC \ or the 8-bit ST (U+009C).
func skipString(line []byte, i int) int {
	for ; i < len(line); i++ {
		switch {
		case line[i] == 0x07:
			return i + 1
		case line[i] == 0x1b && i+1 < len(line) && line[i+1] == '\\':
			return i + 2
		case line[i] == 0xc2 && i+1 < len(line) && line[i+1] == 0x9c:
			return i + 2
		}
	}
	return i
}

// Ellipsis ends a text Cut shortened.
const Ellipsis = "…"

// Cut shortens s to at most n bytes, on a rune boundary, ending in "…"
// (nothing when n leaves no room for it).
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < len(Ellipsis) {
		return ""
	}
	i := n - len(Ellipsis)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + Ellipsis
}
