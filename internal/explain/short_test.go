package explain

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A failed run's output of at most ShortOutput non-blank lines is shown
// whole: the line without an error word that names the cause comes after
// the generic line explain picked; one line more and only the cause is
// shown.
func TestShortOutputWhole(t *testing.T) {
	code := 1
	run := func(out string) *Report {
		rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
			Streams: []Stream{{Name: "stderr", R: strings.NewReader(out)}}})
		require.NoError(t, err)
		return rep
	}
	short := "rsync: --delete-afterwards: unknown option\nrsync error: syntax or usage error (code 1)\n"
	rep := run(short)
	assert.Equal(t, ShowsCause, rep.Shows)
	require.Len(t, rep.Lines, 1)
	require.Len(t, rep.Rest, 1)
	assert.Equal(t, "rsync: --delete-afterwards: unknown option", rep.Rest[0].Text)
	assert.Contains(t, rep.String(), "cause (1 of 1 matching lines), then the rest of the short output:\nstderr:2: rsync error")
	b, err := rep.JSON()
	require.NoError(t, err)
	var j struct {
		Rest []struct{ Text string } `json:"rest"`
	}
	require.NoError(t, json.Unmarshal(b, &j))
	require.Len(t, j.Rest, 1)

	long := strings.Repeat("copying a file\n", ShortOutput-1) + short
	rep = run(long)
	assert.Empty(t, rep.Rest, "more than ShortOutput lines: only the cause")
	assert.NotContains(t, rep.String(), "rest of the short output")
}
