// Package termtext turns recorded terminal output into the text a terminal
// would have shown: escape sequences (CSI, OSC, DCS and two-byte escapes)
// removed, a carriage return moving back to the start of the line so later
// characters overwrite earlier ones, a backspace erasing the character before
// it, and other control bytes dropped. It works on one line at a time and
// never allocates for a line that holds nothing to clean.
package termtext

import (
	"bytes"
	"unicode/utf8"
)

// NeedsClean reports whether line holds any byte CleanLine would act on:
// a C0 control other than tab, DEL, or a C1 control (U+0080-U+009F, which
// UTF-8 writes as 0xC2 0x80-0x9F; 0x9B is the 8-bit CSI).
func NeedsClean(line []byte) bool {
	for i, c := range line {
		if c < 0x20 && c != '\t' || c == 0x7f {
			return true
		}
		if c == 0xc2 && i+1 < len(line) && line[i+1] >= 0x80 && line[i+1] < 0xa0 {
			return true
		}
	}
	return false
}

// CleanLine returns line (without its newline) as a terminal would show it.
// A trailing "\r" (from "\r\n") is a line end, not an overwrite. The result
// may alias line when nothing needed cleaning.
func CleanLine(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	if !NeedsClean(line) {
		return line
	}
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
