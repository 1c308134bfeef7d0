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
)

// capped records data on stdout, in writes of at most w bytes, with a cap
// of a few KiB, and reopens it (finished, or as a killed recorder leaves it).
func capped(t *testing.T, data string, w int, finish bool) (*Recording, StreamCut) {
	t.Helper()
	sd := newSession(t)
	wr, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout}, MaxBytes: 4 << 10, HeadBytes: 1 << 10})
	require.NoError(t, err)
	for i := 0; i < len(data); i += w {
		_, err := wr.Sink(Stdout).Write([]byte(data[i:min(i+w, len(data))]))
		require.NoError(t, err)
	}
	cut := *wr.cap.cuts[Stdout]
	if finish {
		require.NoError(t, wr.Finish(Footer{Status: StatusExited}))
	} else {
		wr.closeFiles()
	}
	r, err := Open(sd, wr.Name)
	require.NoError(t, err)
	t.Cleanup(func() { r.Close() })
	require.Positive(t, cut.DroppedBytes, "the cap must cut")
	return r, cut
}

// want is the oracle: every kept run of data split into lines, each
// fragment numbered by the line its first byte belongs to (the kept tail
// of a cut line is that line), with the marker at the gap.
func want(data string, c StreamCut) []string {
	var out []string
	frag := func(lo, hi int64) {
		for lo < hi {
			n := strings.Count(data[:lo], "\n") + 1
			i := strings.IndexByte(data[lo:hi], '\n')
			end := hi
			if i >= 0 {
				end = lo + int64(i)
			}
			out = append(out, fmt.Sprintf("stdout:%d:%s", n, short(data[lo:end])))
			lo = end + 1
		}
	}
	frag(0, c.HeadEnd)
	out = append(out, "stdout:0:"+short(CutMarker(Stdout, c)))
	frag(c.KeptFrom, int64(len(data)))
	return out
}

// short keeps failures readable: a long line as its start and length.
func short(s string) string {
	if len(s) > 24 {
		return fmt.Sprintf("%s...(%d)", s[:8], len(s))
	}
	return s
}

func lines(t *testing.T, r *Recording, o LineOptions) []string {
	t.Helper()
	var out []string
	require.NoError(t, r.Lines(o, func(l Line) error {
		out = append(out, fmt.Sprintf("%s:%d:%s", l.Stream, l.N, short(string(l.Text))))
		return nil
	}))
	return out
}

// tailOf is the last n lines of full, with the marker when it comes just
// before them.
func tailOf(full []string, n int) []string {
	i := len(full)
	for k := 0; k < n && i > 0; {
		i--
		if !strings.HasPrefix(full[i], "stdout:0:") {
			k++
		}
	}
	if i > 0 && strings.HasPrefix(full[i-1], "stdout:0:") {
		i--
	}
	return full[i:]
}

// rangeOf is lines from..to of full, with the marker when lines on both
// sides of it are asked for, lines it stands for, or the kept tail's first
// (which may be the end of a longer line).
func rangeOf(full []string, lastHead, firstTail, from, to int64) []string {
	var out []string
	marker := from <= firstTail && to > lastHead || from <= lastHead && to >= firstTail
	for _, l := range full {
		var n int64
		fmt.Sscanf(l, "stdout:%d:", &n)
		if n == 0 {
			if marker {
				out = append(out, l)
			}
			continue
		}
		if n >= from && n <= to {
			out = append(out, l)
		}
	}
	return out
}

func lineNo(l string) int64 {
	var n int64
	fmt.Sscanf(l, "stdout:%d:", &n)
	return n
}

// cutInputs are outputs whose lines cross the head's end and the kept
// tail's start at every offset of interest: one line longer than the cap,
// lines ending just before, at and after a segment boundary, an empty
// line at the seam, and no newline at all.
func cutInputs() map[string]string {
	seq := func(n, width int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%0*d\n", width, i)
		}
		return b.String()
	}
	in := map[string]string{
		"one long line":        strings.Repeat("x", 20000),
		"one long line ended":  strings.Repeat("x", 20000) + "\n",
		"long line then short": strings.Repeat("y", 9000) + "\nlast\n",
		"short then long":      "first\n" + strings.Repeat("z", 9000),
		"numbers":              seq(3000, 5),
		"numbers no final nl":  strings.TrimSuffix(seq(3000, 5), "\n"),
		"empty lines":          strings.Repeat("\n", 9000),
		"mixed lengths":        seq(200, 3) + strings.Repeat("q", 3000) + "\n" + seq(400, 7) + strings.Repeat("r", 2500),
	}
	// a line boundary at each offset around a segment boundary (1 KiB)
	for _, k := range []int{1, 2, 1023, 1024, 1025} {
		in[fmt.Sprintf("period %d", k)] = strings.Repeat(strings.Repeat("a", k-1)+"\n", 12000/k+2)
	}
	return in
}

func TestCappedLinesAgree(t *testing.T) {
	for name, data := range cutInputs() {
		for _, w := range []int{1 << 20, 700, 1} {
			if w == 1 && len(data) > 10000 {
				continue
			}
			for _, finish := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/w%d/finish=%v", name, w, finish), func(t *testing.T) {
					r, c := capped(t, data, w, finish)
					full := want(data, c)
					assert.Equal(t, full, lines(t, r, LineOptions{Stream: Stdout}), "stream")
					assert.Equal(t, full, lines(t, r, LineOptions{}), "merged")
					var nonMarker []string
					for _, l := range full {
						if lineNo(l) != 0 {
							nonMarker = append(nonMarker, l)
						}
					}
					for _, n := range []int{1, 2, 3, 5, len(nonMarker) / 2, len(nonMarker) - 1, len(nonMarker), len(nonMarker) + 3} {
						if n < 1 {
							continue
						}
						assert.Equal(t, tailOf(full, n), lines(t, r, LineOptions{Stream: Stdout, Tail: int64(n)}), "stream tail %d", n)
						assert.Equal(t, tailOf(full, n), lines(t, r, LineOptions{Tail: int64(n)}), "merged tail %d", n)
					}
					lastHead, firstTail := int64(0), int64(0)
					for i, l := range full {
						if lineNo(l) == 0 {
							lastHead, firstTail = lineNo(full[max(i-1, 0)]), lineNo(full[i+1])
						}
					}
					last := lineNo(full[len(full)-1])
					for _, rg := range [][2]int64{
						{1, 1}, {lastHead, lastHead}, {lastHead, firstTail}, {lastHead + 1, lastHead + 1},
						{firstTail - 1, firstTail - 1}, {firstTail, firstTail}, {firstTail, firstTail + 1},
						{last - 1, last}, {last, last}, {1, last},
					} {
						if rg[0] < 1 || rg[1] < rg[0] {
							continue
						}
						assert.Equal(t, rangeOf(full, lastHead, firstTail, rg[0], rg[1]),
							lines(t, r, LineOptions{Stream: Stdout, From: rg[0], To: rg[1]}), "lines %d:%d", rg[0], rg[1])
					}
					// Pieces: the kept runs, each numbered by its first byte's line
					pieces, closeFn, err := r.Pieces(Stdout)
					require.NoError(t, err)
					defer closeFn()
					require.Len(t, pieces, 2)
					for i, p := range pieces {
						lo, hi := int64(0), c.HeadEnd
						if i == 1 {
							lo, hi = c.KeptFrom, int64(len(data))
						}
						b, err := io.ReadAll(p.R)
						require.NoError(t, err)
						assert.Equal(t, data[lo:hi], string(b), "piece %d", i)
						assert.Equal(t, int64(strings.Count(data[:lo], "\n")+1), p.FirstLine, "piece %d", i)
					}
					var raw bytes.Buffer
					_, err = r.CopyRaw(&raw, Stdout)
					require.NoError(t, err)
					assert.Equal(t, data[:c.HeadEnd]+data[c.KeptFrom:], raw.String())
				})
			}
		}
	}
}

// TestWriteCountedSameAsWrite: a sink given the newline count of each
// write (the pump's, with no filter between) stores exactly what a sink
// counting by itself does: the same files byte for byte (data, tail
// segments, line index, cut) and the same stored counts, capped or not.
func TestWriteCountedSameAsWrite(t *testing.T) {
	record := func(t *testing.T, data string, w int, maxBytes int64, counted bool) (*Recording, map[string][]byte) {
		sd := newSession(t)
		wr, err := Create(CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{Stdout}, MaxBytes: maxBytes, HeadBytes: 1 << 10})
		require.NoError(t, err)
		for i := 0; i < len(data); i += w {
			p := []byte(data[i:min(i+w, len(data))])
			if counted {
				_, err = wr.Sink(Stdout).WriteCounted(p, int64(bytes.Count(p, []byte{'\n'})))
			} else {
				_, err = wr.Sink(Stdout).Write(p)
			}
			require.NoError(t, err)
		}
		require.NoError(t, wr.Finish(Footer{Status: StatusExited}))
		r, err := Open(sd, wr.Name)
		require.NoError(t, err)
		t.Cleanup(func() { r.Close() })
		files := map[string][]byte{}
		ents, err := os.ReadDir(r.Dir())
		require.NoError(t, err)
		for _, e := range ents {
			switch e.Name() {
			case MetaFile, FooterFile, ChunksFile, LockFile: // times and pids differ
				continue
			}
			b, err := os.ReadFile(filepath.Join(r.Dir(), e.Name()))
			require.NoError(t, err)
			files[e.Name()] = b
		}
		return r, files
	}
	for name, data := range cutInputs() {
		for _, w := range []int{1 << 20, 700, 3} {
			for _, maxBytes := range []int64{0, 4 << 10} {
				t.Run(fmt.Sprintf("%s/w%d/max%d", name, w, maxBytes), func(t *testing.T) {
					r1, f1 := record(t, data, w, maxBytes, false)
					r2, f2 := record(t, data, w, maxBytes, true)
					assert.Equal(t, f1, f2)
					assert.Equal(t, r1.Footer.Stored, r2.Footer.Stored)
					assert.Equal(t, r1.Footer.Cut, r2.Footer.Cut)
					if maxBytes > 0 {
						assert.NotEmpty(t, r2.Footer.Cut, "the cap must cut")
					}
				})
			}
		}
	}
}
