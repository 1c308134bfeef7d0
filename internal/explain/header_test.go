package explain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The header counts what is shown and what matched: a line brought in
// beside a matching one (the detail under a heading, the message above a
// stack trace, a failed test's last output line) counts as matching, so the
// header never shows more lines than matched ("cause (2 of 1 matching
// lines)"), and a line is never counted twice.
func TestHeaderCounts(t *testing.T) {
	code := 1
	for _, out := range []string{
		"Compiling styles\nError: Summary\n\n  Undefined variable: $primary-color\n",
		"build\nCMake Error at CMakeLists.txt:4 (project):\n  project called with incorrect number of arguments\n",
		"Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nValueError: bad value\n",
		"a\nerror: one\nerror: two\nwarning: three\n",
		strings.Repeat("[ci] step 1/9: ok\n", 5) + "recieved\ncheck failed: the checker reported problems\n" + strings.Repeat("[ci] post 1/9: ok\n", 5),
		"%Warning-WIDTH: acc.v:2:27: Operator expects 4 bits\n" + strings.Repeat("  ... In instance acc\n", MaxTail+1) + "%Error: Exiting due to 1 warning(s)\n",
	} {
		rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
			Streams: []Stream{{Name: "stderr", R: strings.NewReader(out)}}})
		require.NoError(t, err)
		if rep.Shows != ShowsCause {
			continue
		}
		header := strings.Split(rep.String(), "\n")[2]
		var shown, matched int
		_, err = fmt.Sscanf(header, "cause (%d of %d matching lines)", &shown, &matched)
		require.NoError(t, err, header)
		assert.Equal(t, len(rep.Lines), shown, "%q", out)
		assert.LessOrEqual(t, shown, matched, "%s\n%s", header, rep.String())
		assert.LessOrEqual(t, matched, strings.Count(out, "\n"), "%s: more matching lines than lines", header)
		for _, l := range rep.Lines {
			assert.Equal(t, 1, l.Count, "a line counted twice: %+v", l)
		}
	}
}
