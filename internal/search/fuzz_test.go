package search

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// FuzzMatchesCleanLines: for any text of lines with any control bytes, any
// needle, with or without folding, and any block size, the block engine
// reports line n iff the cleaned line n holds the needle (folding: both
// sides ASCII-lowered), with its cleaned text and the offsets of every
// match. An empty needle stands for a piece of the first cleaned line, so
// long needles (the skip finder) match too.
func FuzzMatchesCleanLines(f *testing.F) {
	f.Add([]byte("abc err\aor def\nplain error\r\n\x1b[31mERR\x1b[0mOR\n10%\r100% error"), []byte("error"), false, uint8(7))
	f.Add([]byte("x\x00y\u0085z\u009b1mq\nab\b\bERROR here and there and everywhere at once\n"), []byte(""), true, uint8(0))
	f.Add([]byte(strings.Repeat("the same line over and over again with the needle at the end\n", 20)), []byte("over again with the needle at the end"), true, uint8(3))
	f.Fuzz(func(t *testing.T, text, needle []byte, fold bool, block uint8) {
		lines := bytes.Split(text, []byte{'\n'})
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1] // text ended with a newline: no last line
		}
		if len(needle) == 0 {
			if len(lines) == 0 {
				return
			}
			c := termtext.CleanLine(lines[0])
			needle = c[len(c)/4 : len(c)-len(c)/4]
			if len(needle) == 0 {
				return
			}
		}
		s, err := New(Options{Text: string(needle), IgnoreCase: fold})
		require.NoError(t, err)
		lowerIf := func(b []byte) []byte {
			if fold {
				return asciiLower(nil, b)
			}
			return b
		}
		var want []Hit
		for i, l := range lines {
			clean := termtext.CleanLine(l)
			if bytes.Contains(lowerIf(clean), lowerIf(needle)) {
				want = append(want, Hit{Stream: record.Stdout, N: int64(i + 1), Text: clean})
			}
		}
		var got []Hit
		st := &state{s: s, fn: func(h Hit) error {
			_, spans := s.Match([]byte(string(h.Text))) // the cleaned text cleans to itself
			require.Equal(t, spans, h.Matches, "line %d", h.N)
			for _, m := range h.Matches {
				require.Equal(t, lowerIf(needle), lowerIf(h.Text[m.Start:m.End]))
			}
			h.Matches = nil
			got = append(got, h)
			return nil
		}}
		buf := make([]byte, int(block)%64+1) // tiny blocks: lines across blocks, lines longer than a block
		require.NoError(t, st.piece(record.Piece{R: bytes.NewReader(text), FirstLine: 1}, record.Stdout, &buf))
		require.Equal(t, want, got)
	})
}

// FuzzCompressedLikeRaw: for any content, needle, folding, frame size and
// region size, grep of the compressed recording (its filter's region map
// skipping the scan for bytes cleaning acts on where it says there are
// none) finds the same hits, with the same matches, as grep of the raw
// recording, and those are the lines 'rac out read' shows holding the
// needle.
func FuzzCompressedLikeRaw(f *testing.F) {
	f.Add([]byte("plain line\nabc err\aor def\nplain error\r\n\x1b[31mERR\x1b[0mOR\n10%\r100% error\nmore plain text error\n"), []byte("error"), false, uint16(7), uint8(2))
	f.Add([]byte("x\x00y\u0085z\u009b1mq\nab\b\bERROR here and there\r\n\r"), []byte("error"), true, uint16(3), uint8(0))
	f.Add([]byte(strings.Repeat("a line of plain text\n", 20)+"cur\x1b[1mrent\x1b[0m text\n"+strings.Repeat("plain text again\n", 20)), []byte("current text"), false, uint16(64), uint8(3))
	f.Fuzz(func(t *testing.T, data, needle []byte, fold bool, frame uint16, rlog uint8) {
		if len(needle) == 0 || len(data) == 0 {
			return
		}
		o := Options{Text: string(needle), IgnoreCase: fold}
		sd := newSession(t, "s")
		var writes []write
		for i := 0; i < len(data); i += 97 {
			writes = append(writes, out(string(data[i:min(i+97, len(data))])))
		}
		name := makeRecording(t, sd, 0, 0, writes...)
		raw := grep(t, open(t, sd, name), o)
		want := readMatches(t, open(t, sd, name), o)
		require.Equal(t, want, render(raw))
		rec := open(t, sd, name)
		_, err := rec.Compress(record.CompressOptions{FrameSize: 1 + int(frame), MinSize: -1, AllGrams: true, RegionLog: 1 + int(rlog%8)})
		require.NoError(t, err)
		require.Equal(t, raw, grep(t, open(t, sd, name), o))
	})
}
