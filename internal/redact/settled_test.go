package redact

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// settledRun redacts lines with one Lines (after a cut when cut is set),
// line by line, and returns each line's redacted form and the indexes i
// at which Settled said a new Lines could take over from lines[i] on.
func settledRun(r *Redactor, lines []string, cut bool) (full []string, points []int) {
	l := r.NewLines()
	if cut {
		l = r.NewLinesAfterCut()
	}
	defer func() { _ = l.Close() }()
	full = make([]string, len(lines))
	for i, ln := range lines {
		if i > 0 && l.Settled() {
			points = append(points, i)
		}
		full[i] = string(l.Line([]byte(ln)))
	}
	return full, points
}

// fromPoint redacts lines[i:] with a new Lines, as a pass that starts at
// a settled point does.
func fromPoint(r *Redactor, lines []string, i, n int) []string {
	l := r.NewLines()
	defer func() { _ = l.Close() }()
	return allLines(l, lines[i:min(len(lines), i+n)])
}

// requireSettledExact checks the promise of Settled on text: from every
// point it named, a new Lines gives the lines after it exactly as the
// pass from the stream's start (or the cut) did; every tenth point is
// checked to the end of the text, the others for the next 64 lines, the
// reach of any block state a wrong point would have lost.
func requireSettledExact(t *testing.T, r *Redactor, text string, cut bool) (points, lines int) {
	t.Helper()
	ls := splitLines(text)
	full, pts := settledRun(r, ls, cut)
	for k, i := range pts {
		n := 64
		if k%10 == 0 {
			n = len(ls)
		}
		got := fromPoint(r, ls, i, n)
		require.Equal(t, full[i:i+len(got)], got, "a pass from settled line %d", i+1)
	}
	return len(pts), len(ls)
}

// Settled names only points where nothing is open: a pass started there
// gives what the pass from the start gives, on the fixtures, the mixed
// corpus (build logs, kubectl output, keys), the wild corpus (586 secrets
// in the contexts real tools print them) and the secrets corpus, whole
// and after a cut.
func TestSettledPointsAreExact(t *testing.T) {
	r := mustNew(t, Config{})
	var wild, secrets strings.Builder
	for _, c := range loadWild(t) {
		wild.WriteString(c.In + "\n")
	}
	for _, c := range redacttest.LoadCorpus(t, filepath.Join(corpusDir, "secrets.txt")) {
		secrets.WriteString(c.In + "\n")
	}
	texts := map[string]string{
		"fixtures": "a\n" + pemKey + "b\n" + kubeYAML + "c\n" + kubeJSON + "  key: |\n" + indent(pemKey, "    ") + "done\n",
		"mixed":    string(redacttest.MixedCorpus(256<<10, 11)),
		"wild":     wild.String(),
		"secrets":  secrets.String(),
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			for _, cut := range []bool{false, true} {
				points, lines := requireSettledExact(t, r, text, cut)
				require.Greater(t, points, lines/4, "most lines of output leave nothing open")
			}
		})
	}
}

// Inside a key, a data block or a JSON data object, and while the
// after-cut rule masks, no point is settled: these are the places a
// window must not start a pass from.
func TestSettledNotInsideBlocks(t *testing.T) {
	r := mustNew(t, Config{})
	for _, c := range []struct {
		text string
		open []int // lines (from 1) before which a block is open
	}{
		{"a\n" + pemKey + "b\n", []int{3, 4, 5, 6, 7}},
		{kubeYAML, []int{3, 4}},
		{kubeJSON, []int{4, 5, 6}},
	} {
		ls := splitLines(c.text)
		_, pts := settledRun(r, ls, false)
		for _, n := range c.open {
			require.NotContains(t, pts, n-1, "settled before line %d of\n%s", n, c.text)
		}
	}
	// after a cut, the lines the rule masks come before any settled point
	ls := splitLines("  dbhost: c2VjcmV0LXBhc3N3b3JkLTEyMw==\n  settings.json: ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp\nkind: Secret\nok\n")
	_, pts := settledRun(r, ls, true)
	require.Equal(t, []int{3}, pts)

	// a failed Lines is never settled
	r2 := mustNew(t, Config{})
	r2.testHook = func(line []byte) {
		if strings.Contains(string(line), "BOOM") {
			panic("boom")
		}
	}
	l := r2.NewLines()
	l.Line([]byte("BOOM"))
	require.True(t, l.Failed())
	require.False(t, l.Settled())
	_ = l.Close()
}

// FuzzSettled holds the promise of Settled for any text: a pass from any
// point it names agrees with the pass from the start to the end.
func FuzzSettled(f *testing.F) {
	for _, s := range []string{
		"a\n" + pemKey + "b\n", kubeYAML, kubeJSON, "  key: |\n" + indent(pemKey, "    ") + "x\n",
		"password: |\n  hunter2hunter2\n  more\nnext: 1\n",
		"\x1b[32m" + pemKey + "\x1b[0m\nok\n",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	r := mustNew(f, Config{})
	f.Fuzz(func(t *testing.T, text string, cut bool) {
		if len(text) > 4<<10 || strings.Count(text, "\n") > 200 {
			return
		}
		ls := splitLines(text)
		full, pts := settledRun(r, ls, cut)
		for _, i := range pts {
			require.Equal(t, full[i:], fromPoint(r, ls, i, len(ls)), "a pass from settled line %d", i+1)
		}
	})
}
