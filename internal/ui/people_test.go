package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/explain"
	"github.com/rac-cli/rac/internal/search"
)

func onPalette() *Palette {
	p := newPalette()
	p.set(true)
	return p
}

// TestGrepHit: grep's shape without colour, and with it each match
// highlighted at search's offsets, the rest the same text.
func TestGrepHit(t *testing.T) {
	h := search.Hit{Stream: "stderr", N: 7, Text: []byte("an error, another error"),
		Matches: []search.Span{{Start: 3, End: 8}, {Start: 18, End: 23}},
		Before:  []search.Line{{N: 6, Text: []byte("before")}}, After: []search.Line{{N: 8, Text: []byte("after \x9b2J")}}}
	var plain, coloured bytes.Buffer
	require.NoError(t, GrepHit(&plain, newPalette(), "s/0001-make", h, true))
	require.NoError(t, GrepHit(&coloured, onPalette(), "s/0001-make", h, true))
	assert.Equal(t, "--\n"+
		"s/0001-make-stderr-6-before\n"+
		"s/0001-make:stderr:7:an error, another error\n"+
		"s/0001-make-stderr-8-after \uFFFD2J\n", plain.String(), "a raw C1 byte is defused")
	assert.Equal(t, plain.String(), sgr.ReplaceAllString(coloured.String(), ""))
	assert.Contains(t, coloured.String(),
		"\x1b[35ms/0001-make\x1b[0m\x1b[36m:\x1b[0mstderr\x1b[36m:\x1b[0m\x1b[32m7\x1b[0m\x1b[36m:\x1b[0m"+
			"an \x1b[31;1merror\x1b[0;22m, another \x1b[31;1merror\x1b[0;22m\n")

	// a match next to a raw C1 byte: the spans are offsets before defusing
	b0 := search.Hit{Stream: "stdout", N: 2, Text: []byte("\x9bab\x9b"), Matches: []search.Span{{Start: 1, End: 3}}}
	coloured.Reset()
	require.NoError(t, GrepHit(&coloured, onPalette(), "s/1", b0, false))
	assert.Contains(t, coloured.String(), "\uFFFD\x1b[31;1mab\x1b[0;22m\uFFFD\n")

	// stdout has no stream field; a span not from the text is ignored
	var b bytes.Buffer
	require.NoError(t, GrepWriter(onPalette())(&b, "s/2", search.Hit{Stream: "stdout", N: 1, Text: []byte("ok"),
		Matches: []search.Span{{Start: 0, End: 9}}}, false))
	assert.Equal(t, "s/2:1:ok\n", sgr.ReplaceAllString(b.String(), ""))
}

func explainReport(t *testing.T, status string, code int, out string) *explain.Report {
	t.Helper()
	r, err := explain.Explain(explain.Input{
		Meta:    explain.Meta{Ref: "s/0001-go", Argv: []string{"go", "test"}, Cwd: "/src", Status: status, ExitCode: &code},
		Streams: []explain.Stream{{Name: "stdout", R: strings.NewReader(out)}},
	})
	require.NoError(t, err)
	return r
}

// TestExplain: colour off is WriteText byte for byte; colour on paints
// the outcome by status and the cause lines, and is the same text under
// the escapes.
func TestExplain(t *testing.T) {
	r := explainReport(t, explain.StatusExited, 1, "ok\n--- FAIL: TestAdd (0.00s)\nadd_test.go:8: got 5, want 4\nFAIL\n")
	var want, plain, coloured bytes.Buffer
	require.NoError(t, r.WriteText(&want))
	require.NoError(t, Explain(&plain, newPalette(), r))
	require.NoError(t, Explain(&coloured, onPalette(), r))
	assert.Equal(t, want.String(), plain.String())
	assert.Equal(t, -1, bytes.IndexByte(plain.Bytes(), 0x1b))
	assert.Equal(t, plain.String(), sgr.ReplaceAllString(coloured.String(), ""))
	lines := strings.Split(coloured.String(), "\n")
	assert.Equal(t, "\x1b[1m$ go test  # in /src\x1b[22m", lines[0])
	assert.Equal(t, "\x1b[31mexited with code 1\x1b[0m", lines[1], "no start time: no duration")
	assert.Contains(t, coloured.String(), "\x1b[36mstdout:3:\x1b[0m \x1b[31madd_test.go:8: got 5, want 4\x1b[0m")
	require.NotEmpty(t, r.Rest, "a short output: its other lines follow")
	assert.Contains(t, coloured.String(), "\x1b[36mstdout:1:\x1b[0m ok\n", "the rest of a short output is not red")

	ok := explainReport(t, explain.StatusExited, 0, "all good\n")
	coloured.Reset()
	require.NoError(t, Explain(&coloured, onPalette(), ok))
	assert.Contains(t, coloured.String(), "\n\x1b[32mexited with code 0\x1b[0m\n")
	assert.Contains(t, coloured.String(), "\x1b[36mstdout:1:\x1b[0m all good\n", "tail lines are not red")

	var js bytes.Buffer
	require.NoError(t, ExplainJSON(&js, ok))
	assert.True(t, strings.HasPrefix(js.String(), "{") && strings.HasSuffix(js.String(), "}\n"), js.String())
}

// pagerStreams are test streams whose stdout is a file, the pager's
// output.
func pagerStreams(t *testing.T) (*IOStreams, *bytes.Buffer, string) {
	t.Helper()
	s, _, _, errOut := Test()
	path := filepath.Join(t.TempDir(), "screen")
	f, err := os.Create(path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = f.Close() })
	s.OutFile = f
	return s, errOut, path
}

// TestPager: what is written goes through the pager, with rac's own lines
// when stderr is a terminal, and the streams are put back after.
func TestPager(t *testing.T) {
	s, errOut, screen := pagerStreams(t)
	s.SetStderrTTY(true)
	out := s.Out
	s.StartPager(`sed 's/^/paged: /'`, []string{"PATH=" + os.Getenv("PATH")})
	_, err := s.Out.Write([]byte("one\ntwo\n"))
	require.NoError(t, err)
	s.Printer().Infof("a note")
	require.NoError(t, s.StopPager(nil))
	b, err := os.ReadFile(screen)
	require.NoError(t, err)
	assert.Equal(t, "paged: one\npaged: two\npaged: rac: a note\n", string(b))
	assert.Empty(t, errOut.String())
	assert.Same(t, out, s.Out, "stdout is put back")
	s.Printer().Infof("after")
	assert.Equal(t, "rac: after\n", errOut.String())
}

// TestPagerQuit: a pager that ends before reading everything (q) makes
// the writes fail, and StopPager calls that success.
func TestPagerQuit(t *testing.T) {
	s, _, _ := pagerStreams(t)
	s.StartPager("exit 0", nil)
	var err error
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	for i := 0; i < 1000 && err == nil; i++ { // the pipe's buffer fills, then the pager is gone
		_, err = s.Out.Write(chunk)
	}
	require.ErrorIs(t, err, errPagerQuit)
	assert.NoError(t, s.StopPager(err))
	assert.EqualError(t, s.StopPager(os.ErrClosed), os.ErrClosed.Error(), "no pager: the error as is")
}

// TestPagerMissing: a pager that does not start is a warning, and the
// text goes to stdout as without one.
func TestPagerMissing(t *testing.T) {
	s, errOut, _ := pagerStreams(t)
	s.OutFile = nil
	s.StartPager("less -R", nil)
	assert.Nil(t, s.pager, "no terminal file: no pager")
	s2, errOut2, _ := pagerStreams(t)
	s2.StartPager("no-such-pager-rac", []string{"PATH=/nonexistent"})
	require.NoError(t, s2.StopPager(nil), "sh ran, the command was not found: the pager's own status")
	assert.Empty(t, errOut.String())
	assert.Contains(t, errOut2.String(), "no-such-pager-rac", "the shell says so on rac's stderr")
}

// TestTerminalWidthColumns: a terminal that does not say its width takes
// $COLUMNS, else 80; a pipe is never cut.
func TestTerminalWidthColumns(t *testing.T) {
	for _, tc := range []struct {
		columns string
		tty     bool
		want    int
	}{{"", true, 80}, {"132", true, 132}, {"junk", true, 80}, {"-3", true, 80}, {"132", false, 0}} {
		s, _, _, _ := Test()
		s.SetStdoutTTY(tc.tty)
		s.SetColorMode(config.ColorNever, env(map[string]string{"COLUMNS": tc.columns}))
		assert.Equal(t, tc.want, s.TerminalWidth(), "COLUMNS=%q tty=%t", tc.columns, tc.tty)
	}
}

// GrepWriter reuses its buffer from hit to hit: each hit still comes out
// as GrepHit writes it, after a longer one and after one over the bound
// it keeps.
func TestGrepWriterReuse(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 70<<10)
	hits := []search.Hit{
		{Stream: "stdout", N: 7, Text: []byte("a long line: " + string(long[:300])), Matches: []search.Span{{Start: 2, End: 6}}},
		{Stream: "stderr", N: 8, Text: []byte("short"), Matches: []search.Span{{Start: 0, End: 5}},
			Before: []search.Line{{N: 6, Text: []byte("before")}}, After: []search.Line{{N: 9, Text: []byte("after\xc2\x9b")}}},
		{Stream: "stdout", N: 10, Text: long, Matches: []search.Span{{Start: 1, End: 3}}},
		{Stream: "stdout", N: 11, Text: []byte("after the huge one"), Matches: []search.Span{{Start: 0, End: 5}}},
	}
	for _, pal := range []*Palette{newPalette(), onPalette()} {
		wr := GrepWriter(pal)
		for i, h := range hits {
			var want, got bytes.Buffer
			require.NoError(t, GrepHit(&want, pal, "s/0001-make", h, i > 0))
			require.NoError(t, wr(&got, "s/0001-make", h, i > 0))
			assert.Equal(t, want.String(), got.String(), "hit %d", i)
		}
	}
}
