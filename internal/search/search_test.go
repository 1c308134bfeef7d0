package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/termtext"
)

func newSession(t testing.TB, name string) *store.Session {
	st, err := store.CreateStore(filepath.Join(t.TempDir(), "store"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	sd, err := st.Session(name, true)
	require.NoError(t, err)
	t.Cleanup(func() { sd.Close() })
	return sd
}

type write struct{ stream, text string }

// record makes a finished recording of the writes; maxBytes > 0 caps it.
func makeRecording(t testing.TB, sd *store.Session, maxBytes, headBytes int64, writes ...write) string {
	w, err := record.Create(record.CreateOptions{Session: sd, Argv: []string{"t"}, Streams: []string{record.Stdout, record.Stderr}, MaxBytes: maxBytes, HeadBytes: headBytes})
	require.NoError(t, err)
	for i, wr := range writes {
		w.Sink(wr.stream).Arrived(time.Unix(0, int64(i+1)))
		_, err := w.Sink(wr.stream).Write([]byte(wr.text))
		require.NoError(t, err)
	}
	require.NoError(t, w.Finish(record.Footer{Status: record.StatusExited}))
	return w.Name
}

func open(t testing.TB, sd *store.Session, name string) *record.Recording {
	rec, err := record.Open(sd, name)
	require.NoError(t, err)
	t.Cleanup(func() { rec.Close() })
	return rec
}

func out(text string) write { return write{record.Stdout, text} }

// render prints hits the way rac out grep does, without the reference.
func render(hits []Hit) string {
	var b strings.Builder
	for _, h := range hits {
		for _, l := range h.Before {
			fmt.Fprintf(&b, "%s-%d-%s\n", h.Stream, l.N, l.Text)
		}
		fmt.Fprintf(&b, "%s:%d:%s\n", h.Stream, h.N, h.Text)
		for _, l := range h.After {
			fmt.Fprintf(&b, "%s-%d-%s\n", h.Stream, l.N, l.Text)
		}
	}
	return b.String()
}

func grep(t testing.TB, rec *record.Recording, o Options) []Hit {
	s, err := New(o)
	require.NoError(t, err)
	var hits []Hit
	require.NoError(t, s.Recording(rec, func(h Hit) error { hits = append(hits, h); return nil }))
	return hits
}

// readMatches is the definition the engine must meet: the lines 'rac out
// read --stream S' shows (cleaned) that hold the text.
func readMatches(t testing.TB, rec *record.Recording, o Options) string {
	var b strings.Builder
	needle := []byte(o.Text)
	if o.IgnoreCase {
		needle = bytes.ToLower(needle)
	}
	for _, s := range rec.Streams() {
		if o.Stream != "" && s != o.Stream {
			continue
		}
		require.NoError(t, rec.Lines(record.LineOptions{Stream: s}, func(l record.Line) error {
			if l.Marker {
				return nil
			}
			clean := termtext.CleanLine(l.Text)
			hay := clean
			if o.IgnoreCase {
				hay = asciiLower(nil, clean)
			}
			if bytes.Contains(hay, needle) {
				fmt.Fprintf(&b, "%s:%d:%s\n", s, l.N, clean)
			}
			return nil
		}))
	}
	return b.String()
}

func TestRecordingSemantics(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []write
		o      Options
		want   string
	}{
		{"literal, regex characters plain", []write{out("start\nvalue a.b*c(d) here\n")}, Options{Text: "a.b*c(d)"}, "stdout:2:value a.b*c(d) here\n"},
		{"regex not interpreted", []write{out("value a.b*c(d) here\n")}, Options{Text: "a.b.c"}, ""},
		{"case sensitive", []write{out("ERROR: disk full\nerror two\n")}, Options{Text: "error"}, "stdout:2:error two\n"},
		{"ignore case", []write{out("ERROR: disk full\nerror two\nErRoR three\n")}, Options{Text: "eRRor", IgnoreCase: true}, "stdout:1:ERROR: disk full\nstdout:2:error two\nstdout:3:ErRoR three\n"},
		{"ignore case folds ASCII only", []write{out("ÉCOLE\nécole\n")}, Options{Text: "école", IgnoreCase: true}, "stdout:2:école\n"},
		{"stderr after stdout", []write{out("a err\n"), {record.Stderr, "e err\n"}, out("b err\n")}, Options{Text: "err"}, "stdout:1:a err\nstdout:2:b err\nstderr:1:e err\n"},
		{"one stream", []write{out("a err\n"), {record.Stderr, "e err\n"}}, Options{Text: "err", Stream: record.Stderr}, "stderr:1:e err\n"},
		{"match inside colour", []write{out("start\n\x1b[31mcolour\x1b[0med error\n")}, Options{Text: "coloured err"}, "stdout:2:coloured error\n"},
		{"escape sequence hides a raw match", []write{out("x\x1b[31merr\n")}, Options{Text: "[31m"}, ""},
		{"crlf", []write{out("line one\r\nline two\r\n")}, Options{Text: "two"}, "stdout:2:line two\n"},
		{"crlf: the CR is no text", []write{out("line one\r\n")}, Options{Text: "one\r"}, ""},
		{"overwritten text is gone", []write{out("10%\r50%\r100%\n")}, Options{Text: "50%"}, ""},
		{"overwrite makes a match", []write{out("xxxxr\rerro\n")}, Options{Text: "error"}, "stdout:1:error\n"},
		{"backspace", []write{out("erx\bror\n")}, Options{Text: "error"}, "stdout:1:error\n"},
		{"bel inside the word", []write{out("abc err\aor def\n")}, Options{Text: "error"}, "stdout:1:abc error def\n"},
		{"other controls inside the word", []write{out("a\x00b\x01c\x7fd\x1ce\n")}, Options{Text: "abcde"}, "stdout:1:abcde\n"},
		{"c1 control inside the word", []write{out("er\u0085ror\n")}, Options{Text: "error"}, "stdout:1:error\n"},
		{"8-bit csi", []write{out("a\u009b31mred\n")}, Options{Text: "ared"}, "stdout:1:ared\n"},
		{"binary bytes kept", []write{out("\xff\xfebin ok\xc3\n")}, Options{Text: "bin ok"}, "stdout:1:\xff\xfebin ok\xc3\n"},
		{"last line without newline", []write{out("a\nlast err")}, Options{Text: "err"}, "stdout:2:last err\n"},
		{"line split over writes", []write{out("par"), out("tial err"), out("or\n")}, Options{Text: "error"}, "stdout:1:partial error\n"},
		{"needle spanning a newline finds nothing", []write{out("ab\ncd\n")}, Options{Text: "b\nc"}, ""},
		{"empty recording", nil, Options{Text: "x"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := newSession(t, "s")
			rec := open(t, sd, makeRecording(t, sd, 0, 0, tc.writes...))
			assert.Equal(t, tc.want, render(grep(t, rec, tc.o)))
			assert.Equal(t, tc.want, readMatches(t, rec, tc.o), "what read shows")
			if tc.o.Context == 0 {
				c := tc.o
				c.Context = 1
				var only []Hit
				for _, h := range grep(t, rec, c) {
					h.Before, h.After = nil, nil
					only = append(only, h)
				}
				assert.Equal(t, tc.want, render(only), "the line walk of -C finds the same hits")
			}
		})
	}
}

func TestMatchOffsets(t *testing.T) {
	sd := newSession(t, "s")
	rec := open(t, sd, makeRecording(t, sd, 0, 0, out("\x1b[1merror\x1b[0m and Error and errerror\n")))
	hits := grep(t, rec, Options{Text: "error"})
	require.Len(t, hits, 1)
	assert.Equal(t, "error and Error and errerror", string(hits[0].Text))
	assert.Equal(t, []Span{{0, 5}, {23, 28}}, hits[0].Matches)
	hits = grep(t, rec, Options{Text: "ERROR", IgnoreCase: true, Context: 2})
	require.Len(t, hits, 1)
	assert.Equal(t, []Span{{0, 5}, {10, 15}, {23, 28}}, hits[0].Matches)
	for _, m := range hits[0].Matches {
		assert.True(t, bytes.EqualFold([]byte("error"), hits[0].Text[m.Start:m.End]))
	}
	s, err := New(Options{Text: "aa"})
	require.NoError(t, err)
	_, spans := s.Match([]byte("aaaaa"))
	assert.Equal(t, []Span{{0, 2}, {2, 4}}, spans, "left to right, not overlapping, as grep -o")
}

func numbered(from, to int, f string) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, f+"\n", i)
	}
	return b.String()
}

func TestContext(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		o    Options
		want string
	}{
		{"before and after", numbered(1, 50, "%d") + "needle-in-50\n" + numbered(51, 60, "%d"), Options{Text: "needle", Context: 2},
			"stdout-49-49\nstdout-50-50\nstdout:51:needle-in-50\nstdout-52-51\nstdout-53-52\n"},
		{"merged as grep merges it", numbered(1, 20, "l%d"), Options{Text: "l1", Context: 1},
			"stdout:1:l1\nstdout-2-l2\nstdout-9-l9\nstdout:10:l10\nstdout:11:l11\nstdout:12:l12\nstdout:13:l13\nstdout:14:l14\nstdout:15:l15\nstdout:16:l16\nstdout:17:l17\nstdout:18:l18\nstdout:19:l19\nstdout-20-l20\n"},
		{"overlapping windows show each line once", "a\nx\nb\nx\nc\n", Options{Text: "x", Context: 2},
			"stdout-1-a\nstdout:2:x\nstdout-3-b\nstdout:4:x\nstdout-5-c\n"},
		{"context is cleaned", "\x1b[1mbold\x1b[0m\nhit\r\nover\rOV\n", Options{Text: "hit", Context: 1},
			"stdout-1-bold\nstdout:2:hit\nstdout-3-OVer\n"},
		{"at the ends", "hit\nmid\nhit\n", Options{Text: "hit", Context: 5},
			"stdout:1:hit\nstdout-2-mid\nstdout:3:hit\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := newSession(t, "s")
			rec := open(t, sd, makeRecording(t, sd, 0, 0, out(tc.text)))
			assert.Equal(t, tc.want, render(grep(t, rec, tc.o)))
		})
	}
}

func TestContextLinesAreFlagged(t *testing.T) {
	sd := newSession(t, "s")
	rec := open(t, sd, makeRecording(t, sd, 0, 0, out("a\nhit\nb\n")))
	hits := grep(t, rec, Options{Text: "hit", Context: 1})
	require.Len(t, hits, 1)
	assert.Equal(t, []Line{{N: 1, Text: []byte("a")}}, hits[0].Before)
	assert.Equal(t, []Line{{N: 3, Text: []byte("b")}}, hits[0].After)
}

// TestLikeRead: on big, cut, coloured and CRLF recordings, with and
// without context, the engine finds exactly the lines read shows holding
// the text, numbered as read numbers them.
func TestLikeRead(t *testing.T) {
	var big strings.Builder
	for i := 1; i <= 30000; i++ {
		switch {
		case i%997 == 0:
			fmt.Fprintf(&big, "line %d \x1b[31mERR\x1b[0mOR here\n", i)
		case i%1009 == 0:
			fmt.Fprintf(&big, "line %d err\aor bell\r\n", i)
		case i%1013 == 0:
			fmt.Fprintf(&big, "line %d progress 10%%\r100%% error done\n", i)
		case i%1019 == 0:
			fmt.Fprintf(&big, "line %d cur\x1b[1mrent\x1b[0m error\n", i)
		default:
			fmt.Fprintf(&big, "line %d plain text of a build log status=ok\n", i)
		}
	}
	chunks := func(s string, n int) []write {
		var ws []write
		for len(s) > 0 {
			k := min(n, len(s))
			ws = append(ws, out(s[:k]))
			s = s[k:]
		}
		return ws
	}
	longLine := strings.Repeat("x", 3<<20) + " error at the end of a long line\n"
	for _, tc := range []struct {
		name        string
		writes      []write
		max, head   int64
		wantCut     bool
		wantAtLeast int
	}{
		{"big", chunks(big.String(), 70000), 0, 0, false, 50},
		{"cut", chunks(big.String(), 7000), 256 << 10, 64 << 10, true, 10},
		{"cut mid-line, tiny segments", chunks(big.String(), 333), 64 << 10, 16 << 10, true, 1},
		{"line longer than a block", []write{out("a error\n"), out(longLine), out("b error")}, 0, 0, false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := newSession(t, "s")
			rec := open(t, sd, makeRecording(t, sd, tc.max, tc.head, tc.writes...))
			if tc.wantCut {
				require.NotNil(t, rec.Footer)
				require.True(t, rec.Footer.Truncated, "the recording was cut")
			}
			for _, o := range []Options{{Text: "error"}, {Text: "ERROR", IgnoreCase: true}, {Text: "plain text of a build log status"}, {Text: "LINE 5", IgnoreCase: true}} {
				want := readMatches(t, rec, o)
				got := render(grep(t, rec, o))
				require.Equal(t, want, got, "%+v", o)
				if o.Text == "error" {
					assert.GreaterOrEqual(t, strings.Count(got, "\n"), tc.wantAtLeast)
				}
				c := o
				c.Context = 1
				var only []Hit
				for _, h := range grep(t, rec, c) {
					h.Before, h.After = nil, nil
					only = append(only, h)
				}
				require.Equal(t, want, render(only), "with context %+v", o)
			}
			// compressed, with its 4-gram filter: the same hits, and a
			// text no line holds skips the stream; regions of 512 bytes,
			// so that most are clean and the scan for bytes cleaning
			// acts on skips them
			var wants []string
			opts := []Options{{Text: "error"}, {Text: "ERROR", IgnoreCase: true}, {Text: "LINE 5", IgnoreCase: true}, {Text: "current error"}, {Text: "zzz-no-such-text"}}
			for _, o := range opts {
				wants = append(wants, readMatches(t, rec, o))
			}
			_, err := rec.Compress(record.CompressOptions{FrameSize: 4 << 10, AllGrams: true, RegionLog: 9})
			require.NoError(t, err)
			z := open(t, sd, rec.Name)
			require.False(t, z.MayHold(record.Stdout, []byte("zzz-no-such-text")), "the filter is there")
			for i, o := range opts {
				require.Equal(t, wants[i], render(grep(t, z, o)), "compressed %+v", o)
				o.Context = 2
				var only []Hit
				for _, h := range grep(t, z, o) {
					h.Before, h.After = nil, nil
					only = append(only, h)
				}
				require.Equal(t, wants[i], render(only), "compressed, with context %+v", o)
			}
		})
	}
}

// TestBellFound is the review's bug: read shows "abc error def", so grep
// must find it, with or without context.
func TestBellFound(t *testing.T) {
	sd := newSession(t, "s")
	rec := open(t, sd, makeRecording(t, sd, 0, 0, out("before\nabc err\aor def\nafter\n")))
	assert.Equal(t, "stdout:2:abc error def\n", render(grep(t, rec, Options{Text: "error"})))
	assert.Equal(t, "stdout-1-before\nstdout:2:abc error def\nstdout-3-after\n", render(grep(t, rec, Options{Text: "error", Context: 1})))
}

func TestStop(t *testing.T) {
	sd := newSession(t, "s")
	rec := open(t, sd, makeRecording(t, sd, 0, 0, out(numbered(1, 100, "hit %d"))))
	for _, ctx := range []int{0, 2} {
		s, err := New(Options{Text: "hit", Context: ctx})
		require.NoError(t, err)
		n := 0
		require.NoError(t, s.Recording(rec, func(Hit) error { n++; return ErrStop }))
		assert.Equal(t, 1, n)
		boom := fmt.Errorf("boom")
		assert.Equal(t, boom, s.Recording(rec, func(Hit) error { return boom }))
	}
}

func TestNewRejects(t *testing.T) {
	_, err := New(Options{})
	assert.ErrorIs(t, err, ErrEmptyText)
	_, err = New(Options{Text: "x", Context: -1})
	assert.Error(t, err)
	_, err = New(Options{Text: "x", Stream: "stdin"})
	assert.ErrorContains(t, err, `unknown stream "stdin"`)
}

func TestUnreadableStreamIsAnError(t *testing.T) {
	sd := newSession(t, "s")
	name := makeRecording(t, sd, 0, 0, out("x\n"))
	dir := filepath.Join(sd.Store.Path, "sessions", sd.Name, name)
	require.NoError(t, os.Remove(filepath.Join(dir, record.Stdout)))
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, record.Stdout)))
	rec := open(t, sd, name)
	s, err := New(Options{Text: "root"})
	require.NoError(t, err)
	assert.Error(t, s.Recording(rec, func(Hit) error { return nil }), "a symlinked stream is never followed")
}
