package termtext

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCleanLine(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "hello world", "hello world"},
		{"crlf", "line\r", "line"},
		{"overwrite", "abc\rxy", "xyc"},
		{"progress", "10%\r50%\r100%", "100%"},
		{"backspace", "abc\b", "ab"},
		{"backspace mid", "ab\b\bX", "X"},
		{"sgr colour", "\x1b[1;31merror\x1b[0m: boom", "error: boom"},
		{"osc title bel", "\x1b]0;title\x07text", "text"},
		{"osc st", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"charset", "\x1b(Bok", "ok"},
		{"utf8 overwrite", "héllo\rHE", "HEllo"},
		{"tab kept", "a\tb", "a\tb"},
		{"bell dropped", "ding\x07", "ding"},
		{"unterminated csi", "x\x1b[12", "x"},
		{"invalid utf8 as a terminal shows it", "a\xffb\rZ", "Z\uFFFDb"},
		{"8-bit csi", "a\u009b31mred\u009b0m", "ared"},
		{"8-bit osc", "\u009d0;title\u009ctext", "text"},
		{"other c1 dropped", "x\u0085y", "xy"},
		{"latin-1 letters kept", "café", "café"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(CleanLine([]byte(tc.in))))
		})
	}
}

func TestCleanLineNoAllocWhenClean(t *testing.T) {
	line := []byte("nothing to clean here")
	allocs := testing.AllocsPerRun(100, func() { CleanLine(line) })
	assert.Zero(t, allocs)
}

// naiveIndexSpecial is IndexSpecial's definition, one byte at a time.
func naiveIndexSpecial(b []byte) int {
	for i, c := range b {
		switch {
		case c == '\t' || c == '\n':
		case c == '\r':
			if i+1 < len(b) && b[i+1] != '\n' {
				return i
			}
		case c < 0x20 || c == 0x7f:
			return i
		case c == 0xc2:
			if i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0 {
				return i
			}
		}
	}
	return -1
}

func TestIndexSpecial(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want int
	}{
		{"plain", "hello world, a long plain line\twith a tab\n", -1},
		{"empty", "", -1},
		{"bel", "abc err\aor def", 7},
		{"esc late", "0123456789abcdef\x1b[0m", 16},
		{"crlf is a line end", "line one\r\nline two\r\n", -1},
		{"cr at the end is a line end", "line\r", -1},
		{"cr overwrite", "10%\r50%", 3},
		{"cr cr lf", "ab\r\r\n", 2},
		{"backspace", "ab\bc", 2},
		{"nul", "a\x00", 1},
		{"del", "0123456789\x7f", 10},
		{"c1 csi", "red \u009b31m", 4},
		{"latin-1 is no control", "caf\u00e9 \u00b0C \u00a0nbsp", -1},
		{"0xc2 at the end", "abcdefgh\xc2", -1},
		{"high bytes near controls", "\xff\xfe\x9f\x80\xc3\x9f\xa0\xe2", -1},
		{"0x1f in the second word", "abcdefghij\x1f", 10},
		{"0x20 and 0x08 edges", "        \x08", 8},
		{"0x0b vertical tab", "abc\vdef", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, IndexSpecial([]byte(tc.in)))
			assert.Equal(t, naiveIndexSpecial([]byte(tc.in)), IndexSpecial([]byte(tc.in)))
		})
	}
}

func TestIndexSpecialEveryByteEveryLane(t *testing.T) {
	for c := range 256 {
		for _, next := range []byte{'x', '\n', 0x85, 0xa0} {
			for at := range 69 { // every lane of the four-word rounds and the tail
				b := make([]byte, 70)
				for i := range b {
					b[i] = 'a'
				}
				b[at], b[at+1] = byte(c), next
				if want := naiveIndexSpecial(b); IndexSpecial(b) != want {
					t.Fatalf("byte %#x then %#x at %d: got %d, want %d", c, next, at, IndexSpecial(b), want)
				}
			}
		}
	}
}

func TestCleanLineBell(t *testing.T) {
	// the line 'rac out read' shows as "abc error def"
	assert.Equal(t, "abc error def", string(CleanLine([]byte("abc err\aor def"))))
	assert.Equal(t, "a", string(CleanLine([]byte("a\r\r"))), "the first CR overwrites")
}

// FuzzIndexSpecial: the word-at-a-time scan agrees with the byte loop, and
// a line with nothing special comes out of CleanLine unchanged.
func FuzzIndexSpecial(f *testing.F) {
	f.Add([]byte("abc err\aor def\r\n\x1b[31mx\u009b"))
	f.Fuzz(func(t *testing.T, b []byte) {
		require.Equal(t, naiveIndexSpecial(b), IndexSpecial(b))
		if line, _, _ := bytes.Cut(b, []byte{'\n'}); IndexSpecial(line) < 0 {
			require.Equal(t, bytes.TrimSuffix(line, []byte{'\r'}), CleanLine(line))
		}
	})
}

// An invalid byte is cleaned to U+FFFD, so dropping a control byte between
// a stray lead byte and a continuation byte never makes a C1 control (the
// fuzzer's "\xc2\x1c\x9b" became the 8-bit CSI c2 9b), and cleaning twice
// changes nothing more.
func TestCleanLineNeverJoinsInvalidBytes(t *testing.T) {
	for _, in := range []string{"\xc2\x1c\x9b0", "\xc2\x07\x9d52;c\x07", "\xe2\x00\x80\x9b", "a\xc2\x1b[0m\x9bb"} {
		out := CleanLine([]byte(in))
		require.True(t, utf8.Valid(out), "%q -> %q", in, out)
		for _, r := range string(out) {
			require.False(t, r >= 0x80 && r < 0xa0, "%q -> %q holds a C1 control", in, out)
		}
		require.Equal(t, out, CleanLine(out), "%q: cleaning again changed it", in)
	}
}
