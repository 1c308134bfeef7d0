package capture

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filtered runs the screen filter over input written in the given pieces.
func filtered(t *testing.T, pieces ...string) (string, *screenFilter) {
	t.Helper()
	var out bytes.Buffer
	f := newScreenFilter(&out, nil)
	for _, p := range pieces {
		n, err := f.Write([]byte(p))
		require.NoError(t, err)
		require.Equal(t, len(p), n)
	}
	require.NoError(t, f.Close())
	return out.String(), f
}

func TestScreenFilter(t *testing.T) {
	const less = "\x1b[?1049h\x1b[22;0;0t\x1b[?1h\x1b=page one\r\npage two\r\n\x1b[7m(END)\x1b[27m\x1b[K\r\x1b[K\x1b[?1l\x1b>\x1b[?1049l\x1b[23;0;0t"
	for _, tc := range []struct {
		name, in, want string
		spans          int
	}{
		{"plain", "a\r\nb\r\n", "a\r\nb\r\n", 0},
		{"colours pass", "\x1b[31mred\x1b[0m\r\n\x1b[?25l\x1b[?25h", "\x1b[31mred\x1b[0m\r\n\x1b[?25l\x1b[?25h", 0},
		{"a pager's screen", "before\r\n" + less + "after\r\n",
			"before\r\n" + OmittedMarker(int64(len(less)-len("\x1b[23;0;0t"))) + "\r\n\x1b[23;0;0tafter\r\n", 1},
		{"1047 mid-line", "x\x1b[?1047hdrawn\x1b[?1047ly\r\n", "x\r\n" + OmittedMarker(21) + "\r\ny\r\n", 1},
		{"47", "\x1b[?47hz\x1b[?47l", OmittedMarker(13) + "\r\n", 1},
		{"several parameters", "\x1b[?1;1049hz\x1b[?1049;1l.", OmittedMarker(21) + "\r\n.", 1},
		{"two spans", "\x1b[?1049ha\x1b[?1049l-\x1b[?1049hb\x1b[?1049l", OmittedMarker(17) + "\r\n-\r\n" + OmittedMarker(17) + "\r\n", 2},
		{"a leave without an enter passes", "\x1b[?1049lx", "\x1b[?1049lx", 0},
		{"never left", "a\r\n\x1b[?1049hscreen", "a\r\n" + OmittedMarker(14) + "\r\n", 1},
		{"1049 is not 10490", "\x1b[?10490hx", "\x1b[?10490hx", 0},
		{"escape before the switch", "\x1b\x1b[?1049hx\x1b[?1049l", "\x1b\r\n" + OmittedMarker(17) + "\r\n", 1},
		{"cut short at the end", "x\x1b[?10", "x\x1b[?10", 0},
		{"other sequences", "\x1b]0;title\x07\x1bM\x1b[2J", "\x1b]0;title\x07\x1bM\x1b[2J", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, f := filtered(t, tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.spans, f.spans)
			// the same at every split in two and in single bytes
			for i := range len(tc.in) {
				got, _ := filtered(t, tc.in[:i], tc.in[i:])
				require.Equal(t, tc.want, got, "split at %d", i)
			}
			got, _ = filtered(t, strings.Split(tc.in, "")...)
			require.Equal(t, tc.want, got, "byte by byte")
		})
	}
}

func TestScreenFilterNote(t *testing.T) {
	_, f := filtered(t, "\x1b[?1049hab\x1b[?1049l\x1b[?1049hcd\x1b[?1049l")
	assert.Equal(t, "full-screen output omitted from the recording: 36 bytes in 2 spans", f.note())
	_, f = filtered(t, "plain")
	assert.Equal(t, "", f.note())
}
