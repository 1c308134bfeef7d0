package record

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/termtext"
)

// holdsLine is the definition a filter must never contradict: some line
// of the stream, cleaned as a search cleans it (its first MaxLineText
// bytes), holds text, ASCII folded.
func holdsLine(raw []byte, text []byte) bool {
	lines := bytes.Split(raw, []byte{'\n'})
	for _, l := range lines {
		clean := termtext.CleanLine(l[:min(len(l), MaxLineText)])
		if bytes.Contains(lowerAll(clean), lowerAll(text)) {
			return true
		}
	}
	return false
}

func lowerAll(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = lowerASCII(c)
	}
	return out
}

// FuzzGramsHoldEveryMatch: for any content (control bytes, escapes,
// carriage returns, any case) and any text, a compressed stream's filter
// never rules out a text some cleaned line holds, folded or not.
func FuzzGramsHoldEveryMatch(f *testing.F) {
	f.Add([]byte("abc err\aor def\nplain error\r\n\x1b[31mERR\x1b[0mOR\n10%\r100% error"), []byte("error"), uint16(7))
	f.Add([]byte("x\x00y\u0085z\u009b1mq\nab\b\bERROR here\n"), []byte(""), uint16(3))
	f.Add([]byte("con\x1b[1mnection refused\nConnection Refused\n"), []byte("connection refused"), uint16(5))
	f.Add([]byte("12345\r678\n"), []byte("678"), uint16(1))
	f.Fuzz(func(t *testing.T, data, text []byte, frame uint16) {
		if len(text) == 0 {
			// a piece of a cleaned line, which must be held
			lines := bytes.Split(data, []byte{'\n'})
			c := termtext.CleanLine(lines[len(lines)/2])
			text = c[len(c)/4 : len(c)-len(c)/4]
		}
		sd := newSession(t)
		var writes [][2]string
		for i := 0; i < len(data); i += 97 {
			writes = append(writes, [2]string{Stdout, string(data[i:min(i+97, len(data))])})
		}
		r := write(t, sd, writes...)
		_, err := r.Compress(CompressOptions{FrameSize: 1 + int(frame), MinSize: -1, AllGrams: true})
		require.NoError(t, err)
		r2 := reopen(t, r)
		if holdsLine(data, text) {
			assert.True(t, r2.MayHold(Stdout, text), "text %q", text)
			upper := make([]byte, len(text))
			for i, c := range text {
				if c >= 'a' && c <= 'z' {
					c -= 'a' - 'A'
				}
				upper[i] = c
			}
			assert.True(t, r2.MayHold(Stdout, upper), "text %q", upper)
		}
	})
}

// A text no line holds is ruled out (the filter is used); one across the
// boundary of two tail segments of a capped stream, or in a line a
// cleaning rewrites, is not.
func TestGramsRuleOut(t *testing.T) {
	sd := newSession(t)
	body := strings.Repeat("connection closed by peer\n", 500) + "cur\x1b[0mrent \x1b[31mstate\x1b[0m\n" + strings.Repeat("retrying in 5s\n", 500)
	r := write(t, sd, [2]string{Stdout, body})
	_, err := r.Compress(CompressOptions{FrameSize: 4 << 10, AllGrams: true})
	require.NoError(t, err)
	r2 := reopen(t, r)
	assert.Contains(t, names(t, r2.Dir()), gramsPfx+Stdout)
	for _, text := range []string{"connection closed", "CLOSED BY", "retrying", "current state", "in 5s"} {
		assert.True(t, r2.MayHold(Stdout, []byte(text)), text)
	}
	for _, text := range []string{"connection refused", "zzz-no-such-text", "timeout"} {
		assert.False(t, r2.MayHold(Stdout, []byte(text)), text)
	}
	assert.True(t, r2.MayHold(Stdout, []byte("zzz")), "under four bytes: cannot tell")
	assert.True(t, r2.MayHold(Stdout, []byte("dead")), "hex digits only: left out, cannot tell")
	assert.False(t, r2.MayHold(Stdout, []byte("deadlock")), "but for the rest of the text")
	assert.True(t, r2.MayHold(Stderr, []byte("zzz")), "no filter: cannot tell")

	// a damaged filter says nothing
	p := filepath.Join(r2.Dir(), gramsPfx+Stdout)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	b[len(b)-1] ^= 0xff
	require.NoError(t, os.WriteFile(p, b, 0o600))
	assert.True(t, reopen(t, r).MayHold(Stdout, []byte("zzz-no-such-text")))
}

// In a capped stream lines cross from one tail segment into the next:
// every piece of every kept line is held, wherever the files split it.
func TestGramsAcrossSegments(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "%03d %s|%s\n", i, strings.Repeat("ab", 150+i), strings.Repeat("cd", 150-i))
	}
	r, _ := capped(t, b.String(), 7, true)
	_, err := r.Compress(CompressOptions{FrameSize: 512, MinSize: -1, AllGrams: true})
	require.NoError(t, err)
	r2 := reopen(t, r)
	require.Contains(t, names(t, r2.Dir()), gramsPfx+Stdout)
	ps, closeFn, err := r2.Pieces(Stdout)
	require.NoError(t, err)
	defer closeFn()
	n := 0
	for _, p := range ps {
		body, err := io.ReadAll(p.R)
		require.NoError(t, err)
		for _, l := range bytes.Split(body, []byte{'\n'}) {
			for at := 0; at+12 <= len(l); at += 5 {
				require.True(t, r2.MayHold(Stdout, l[at:at+12]), "%q", l[at:at+12])
				n++
			}
		}
	}
	assert.Greater(t, n, 500)
	assert.False(t, r2.MayHold(Stdout, []byte("abcdzz")))
}

// The filter is written only where it pays: a stream too small for it
// (4 KiB against a few hundred compressed bytes) has none.
func TestGramsOnlyWherePaying(t *testing.T) {
	sd := newSession(t)
	r := write(t, sd, [2]string{Stdout, strings.Repeat("the same line again\n", 2000)})
	_, err := r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.NotContains(t, names(t, r.Dir()), gramsPfx+Stdout)
	assert.True(t, reopen(t, r).MayHold(Stdout, []byte("zzz")))
}
