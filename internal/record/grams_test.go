package record

import (
	"bytes"
	"fmt"
	"io"
	"math"
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

// FuzzRegionsHoldEverySpecial: for any content, frame size and region
// size, every byte of the kept stream that termtext.IndexSpecial finds
// (judged in the piece it is in, as a search judges it in any block of
// that piece) lies in a run Filter.Special reports, from any offset
// before it in the same region run.
func FuzzRegionsHoldEverySpecial(f *testing.F) {
	f.Add([]byte("plain line\nabc err\aor def\nplain error\r\n\x1b[31mERR\x1b[0mOR\n10%\r100% error\nmore plain text here\n"), uint16(7), uint8(2))
	f.Add([]byte("x\x00y\u0085z\u009b1mq\nab\b\bERROR here\n"), uint16(3), uint8(0))
	f.Add([]byte("12345\r678\r\n\r"), uint16(1), uint8(1))
	f.Add([]byte(strings.Repeat("a line of plain text\n", 50)+"\xc2\x9b31m\n"+strings.Repeat("b\n", 40)), uint16(64), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, frame uint16, rlog uint8) {
		sd := newSession(t)
		var writes [][2]string
		for i := 0; i < len(data); i += 97 {
			writes = append(writes, [2]string{Stdout, string(data[i:min(i+97, len(data))])})
		}
		r := write(t, sd, writes...)
		_, err := r.Compress(CompressOptions{FrameSize: 1 + int(frame), MinSize: -1, AllGrams: true, RegionLog: 1 + int(rlog%8)})
		require.NoError(t, err)
		r2 := reopen(t, r)
		flt := r2.Filter(Stdout)
		if len(data) == 0 || flt == nil {
			return // no stream, or a filter that does not pay even so
		}
		ps, closeFn, err := r2.Pieces(Stdout)
		require.NoError(t, err)
		defer closeFn()
		var off int64
		for _, p := range ps {
			body, err := io.ReadAll(p.R)
			require.NoError(t, err)
			for from := 0; from < len(body); {
				j := termtext.IndexSpecial(body[from:])
				if j < 0 {
					break
				}
				at := off + int64(from+j)
				start, end := flt.Special(at)
				require.Equal(t, at, start, "special byte %q at %d", body[from+j], at)
				require.Greater(t, end, at)
				// from the start of the piece: the first run reported
				// starts at or before it
				s0, _ := flt.Special(off)
				require.True(t, s0 >= 0 && s0 <= at, "run from %d: %d, special at %d", off, s0, at)
				from += j + 1
			}
			off += int64(len(body))
		}
	})
}

// Plain output's regions are clean, so a search scans only the regions
// around the few lines a cleaning acts on.
func TestRegionsClean(t *testing.T) {
	sd := newSession(t)
	plain := strings.Repeat("connection closed by peer\n", 4000) // 104,000 bytes
	body := plain + "cur\x1b[0mrent\n" + plain
	r := write(t, sd, [2]string{Stdout, body})
	_, err := r.Compress(CompressOptions{FrameSize: 16 << 10, AllGrams: true, RegionLog: 12})
	require.NoError(t, err)
	flt := reopen(t, r).Filter(Stdout)
	require.NotNil(t, flt)
	at := int64(len(plain) + 3)
	start, end := flt.Special(0)
	assert.Equal(t, at&^(1<<12-1), start, "the one region with the escape")
	assert.Equal(t, start+1<<12, end)
	start, _ = flt.Special(end)
	assert.Equal(t, int64(-1), start, "none after it")
	assert.Nil(t, reopen(t, r).Filter(Stderr), "no filter: nil, which says everything may")
	start, end = (*Filter)(nil).Special(5)
	assert.Equal(t, [2]int64{5, math.MaxInt64}, [2]int64{start, end})
}
