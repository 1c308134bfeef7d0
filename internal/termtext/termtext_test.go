package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
		{"invalid utf8 kept", "a\xffb\rZ", "Z\xffb"},
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
