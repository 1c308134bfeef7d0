package search

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// blockHits runs the block engine over text with a block of blockSize
// bytes and a line cap of maxLine, rendered as render does.
func blockHits(t *testing.T, text []byte, needle string, blockSize, maxLine int) string {
	t.Helper()
	s, err := New(Options{Text: needle})
	require.NoError(t, err)
	var hits []Hit
	st := &state{s: s, maxLine: maxLine, fn: func(h Hit) error { hits = append(hits, h); return nil }}
	buf := make([]byte, blockSize)
	require.NoError(t, st.piece(record.Piece{R: bytes.NewReader(text), FirstLine: 1}, record.Stdout, &buf))
	assert.Len(t, buf, blockSize, "the pooled block keeps its size")
	return render(hits)
}

// cappedLines is the definition for a line cap: 'rac out read' shows the
// first maxLine bytes of a line, cleaned (record.Lines), and a hit is a
// shown line holding the text.
func cappedLines(text []byte, needle string, maxLine int) string {
	lines := bytes.Split(text, []byte{'\n'})
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	var b strings.Builder
	for i, l := range lines {
		clean := termtext.CleanLine(l[:min(len(l), maxLine)])
		if bytes.Contains(clean, []byte(needle)) {
			fmt.Fprintf(&b, "%s:%d:%s\n", record.Stdout, i+1, clean)
		}
	}
	return b.String()
}

func TestLongLines(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	for _, tc := range []struct {
		name, text, needle string
		want               string
	}{
		{"match inside the cap", x(10) + "needle" + x(30) + "\nneedle two\n", "needle",
			"stdout:1:" + x(10) + "needle" + x(4) + "\nstdout:2:needle two\n"},
		{"match past the cap is not shown, so not found", x(30) + "needle\nnext\n", "needle", ""},
		{"match across the cap", x(17) + "needle\nneedle\n", "needle", "stdout:2:needle\n"},
		{"line numbers after a long line", x(100) + "\n" + x(100) + "\nthe needle\n", "needle", "stdout:3:the needle\n"},
		{"long last line without newline", "a needle\n" + x(50) + "needle" + x(50), "needle", "stdout:1:a needle\n"},
		{"line of exactly the cap", x(14) + "needle\n", "needle", "stdout:1:" + x(14) + "needle\n"},
		{"long line ends in the last block", x(40) + "\nneedle", "needle", "stdout:2:needle\n"},
		{"crlf past the cap", x(20) + "\r\nneedle\r\n", "needle", "stdout:2:needle\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const maxLine = 20
			require.Equal(t, tc.want, cappedLines([]byte(tc.text), tc.needle, maxLine), "the definition")
			for _, block := range []int{1, 3, 7, 20} { // the block is never longer than the cap
				assert.Equal(t, tc.want, blockHits(t, []byte(tc.text), tc.needle, block, maxLine), "block %d", block)
			}
		})
	}
}

// TestLongLinesProperty: random lines around the cap, random blocks, the
// engine agrees with the definition (a fixed seed: the same cases every
// run; FuzzMatchesCleanLines covers lines under the cap).
func TestLongLinesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	for i := range 2000 {
		maxLine := 1 + rng.IntN(40)
		var text []byte
		for range rng.IntN(8) {
			for range rng.IntN(3 * maxLine) {
				text = append(text, "ab\r\x1b[m"[rng.IntN(6)])
			}
			if rng.IntN(5) > 0 {
				text = append(text, '\n')
			}
		}
		needle := []string{"ab", "ba", "a", "abab", "\x1b"}[rng.IntN(5)]
		want := cappedLines(text, needle, maxLine)
		block := 1 + rng.IntN(maxLine)
		require.Equal(t, want, blockHits(t, text, needle, block, maxLine), "case %d: %q, needle %q, block %d, cap %d", i, text, needle, block, maxLine)
	}
}

// lineReader yields one line of n bytes of 'x', the needle at offset at,
// a newline and a last line "the needle": no memory for the input.
type lineReader struct {
	n, at, off int64
	needle     string
}

func (r *lineReader) Read(p []byte) (int, error) {
	tail := "\nthe " + r.needle + "\n"
	total := r.n + int64(len(tail))
	if r.off >= total {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.off < total {
		var src string
		switch {
		case r.off >= r.n:
			src = tail[r.off-r.n:]
		case r.off >= r.at && r.off < r.at+int64(len(r.needle)):
			src = r.needle[r.off-r.at:]
		case r.off < r.at:
			src = xs[:min(int64(len(xs)), r.at-r.off)]
		default:
			src = xs[:min(int64(len(xs)), r.n-r.off)]
		}
		c := copy(p[k:], src)
		k += c
		r.off += int64(c)
	}
	return k, nil
}

var xs = strings.Repeat("x", 64<<10)

// TestLongLineMemory: a 96 MiB line costs the search O(record.MaxLineText),
// not O(line): doubling the block up to the line's length would allocate
// about twice the line (192 MiB), the cap about twice the cap (32 MiB),
// plus the kept hit (the cap) and its cleaning.
func TestLongLineMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 96 MiB")
	}
	const n = 96 << 20
	s, err := New(Options{Text: "needle"})
	require.NoError(t, err)
	var hits []Hit
	st := &state{s: s, fn: func(h Hit) error { hits = append(hits, Hit{N: h.N, Text: h.Text[len(h.Text)-10:]}); return nil }}
	bp := blockPool.Get().(*[]byte)
	defer blockPool.Put(bp)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	// one needle 2 MiB in (past the first block: found), one past the cap
	// (not shown by read: not found)
	r := &lineReader{n: n, at: 2 << 20, needle: "needle"}
	require.NoError(t, st.piece(record.Piece{R: r, FirstLine: 1}, record.Stdout, bp))
	r2 := &lineReader{n: n, at: record.MaxLineText + 5, needle: "needle"}
	require.NoError(t, st.piece(record.Piece{R: r2, FirstLine: 1}, record.Stdout, bp))
	runtime.ReadMemStats(&after)
	require.Len(t, hits, 3)
	assert.Equal(t, int64(1), hits[0].N)
	assert.Equal(t, int64(2), hits[1].N, "the line after the long one")
	assert.Equal(t, "the needle", string(hits[1].Text))
	assert.Equal(t, int64(2), hits[2].N, "the needle past the cap is not shown")
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d MiB for two %d MiB lines", alloc>>20, n>>20)
	assert.Less(t, alloc, uint64(5*record.MaxLineText), "memory must not grow with the line")
	assert.Len(t, *bp, 1<<20, "the pooled block keeps its size")
}

// TestLongLineRecording: through a real recording, grep agrees with what
// read shows of a line longer than record.MaxLineText.
func TestLongLineRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 17 MiB")
	}
	sd := newSession(t, "s")
	long := strings.Repeat("x", 3<<20) + "needle one" + strings.Repeat("y", record.MaxLineText) + "needle two\n"
	name := makeRecording(t, sd, 0, 0, out("first needle\n"), out(long), out("last needle\n"))
	rec := open(t, sd, name)
	o := Options{Text: "needle"}
	want := readMatches(t, rec, o)
	got := render(grep(t, rec, o))
	require.Equal(t, want, got)
	assert.Equal(t, 3, strings.Count(got, "\n"))
	assert.Contains(t, got, "stdout:3:last needle\n")
	assert.NotContains(t, got, "needle two")
	// compressed, searched in its frames: the long line is copied out of
	// them up to the cap, the rest skipped
	_, err := rec.Compress(record.CompressOptions{MinSize: -1})
	require.NoError(t, err)
	z := open(t, sd, name)
	ps, closeFn, err := z.Pieces(record.Stdout)
	require.NoError(t, err)
	closeFn()
	require.NotNil(t, ps[0].Frames, "compressed: searched in its frames")
	assert.Equal(t, want, render(grep(t, z, o)))
}

// framedHits runs framed over text given in frames of the sizes cycled
// from sizes, with a line cap of maxLine, rendered as render does, with
// the cut flag of each hit.
func framedHits(t *testing.T, text []byte, needle string, sizes []int, maxLine int, openEnd bool) (string, []bool) {
	t.Helper()
	s, err := New(Options{Text: needle})
	require.NoError(t, err)
	var hits []Hit
	st := &state{s: s, maxLine: maxLine, openEnd: openEnd, fn: func(h Hit) error { hits = append(hits, h); return nil }}
	frames := func(fn func([]byte) error) error {
		for i, at := 0, 0; at < len(text); i++ {
			n := min(sizes[i%len(sizes)], len(text)-at)
			// a copy each time: framed must keep nothing of a frame
			b := append([]byte(nil), text[at:at+n]...)
			if err := fn(b); err != nil {
				return err
			}
			clear(b)
			at += n
		}
		return nil
	}
	require.NoError(t, st.framed(record.Piece{Frames: frames, FirstLine: 1}, record.Stdout))
	var cuts []bool
	for _, h := range hits {
		cuts = append(cuts, h.Cut)
	}
	return render(hits), cuts
}

// TestFramedLikePiece: searching a piece in its frames, in place, gives
// piece's hits (and cut flags) for any split into frames, line cap and
// long lines, and meets the definition.
func TestFramedLikePiece(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		maxLine := 1 + rng.IntN(40)
		var b strings.Builder
		for range rng.IntN(12) {
			for range rng.IntN(3 * maxLine) {
				b.WriteByte("ab\x1bn\r"[rng.IntN(5)])
			}
			b.WriteByte('\n')
		}
		if rng.IntN(2) == 0 {
			b.WriteString(strings.Repeat("a", rng.IntN(2*maxLine))) // a last line without its newline
		}
		text := []byte(b.String())
		needle := []string{"a", "ab", "na", "bb", "aaa"}[rng.IntN(5)]
		var sizes []int
		for range 1 + rng.IntN(4) {
			sizes = append(sizes, 1+rng.IntN(3*maxLine))
		}
		openEnd := rng.IntN(2) == 0
		got, cuts := framedHits(t, text, needle, sizes, maxLine, openEnd)
		require.Equal(t, cappedLines(text, needle, maxLine), got, "case %d: %q, needle %q, frames %v, cap %d", i, text, needle, sizes, maxLine)
		// piece's cut flags, with a block as long as the cap
		s, err := New(Options{Text: needle})
		require.NoError(t, err)
		var want []bool
		st := &state{s: s, maxLine: maxLine, openEnd: openEnd, fn: func(h Hit) error { want = append(want, h.Cut); return nil }}
		buf := make([]byte, maxLine)
		require.NoError(t, st.piece(record.Piece{R: bytes.NewReader(text), FirstLine: 1}, record.Stdout, &buf))
		require.Equal(t, want, cuts, "case %d: %q, needle %q, frames %v, cap %d", i, text, needle, sizes, maxLine)
	}
}
