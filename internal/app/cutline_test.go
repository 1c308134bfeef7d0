package app

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/explain"
)

// The last line of an incomplete recording, without its newline, may be
// cut: grep's hits (with and without context, the MCP tool's too) and
// explain's lines say so, and a whole line never does.
func TestCutLineMarkedInGrepAndExplain(t *testing.T) {
	f := newFixture(t)
	f.set.RedactEnabled = false // a redactor holds a line back until its newline
	ctx := context.Background()
	rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"build"}, Streams: []string{StreamStdout, StreamStderr}})
	require.NoError(t, err)
	w, err := rec.Stream(StreamStdout)
	require.NoError(t, err)
	_, err = w.Write([]byte("error: whole line\nerror: half a li"))
	require.NoError(t, err)
	require.NoError(t, rec.Abandon()) // as a recorder killed: no footer

	for _, c := range []int{0, 1} {
		var hits []GrepHit
		_, err := f.app().GrepEach(ctx, GrepRequest{Text: "error", Context: c, Scope: Scope{Session: "test"}}, 1<<10, func(h GrepHit) error {
			hits = append(hits, h)
			return nil
		})
		require.NoError(t, err)
		require.Len(t, hits, 2, "context %d", c)
		assert.False(t, hits[0].Cut, "a whole line is not cut (context %d)", c)
		assert.True(t, hits[1].Cut, "the last line without its newline is (context %d)", c)
		assert.Equal(t, int64(2), hits[1].Line)

	}

	rep, err := f.app().Explain(ctx, rec.Ref())
	require.NoError(t, err)
	var cut []explain.Line
	for _, l := range rep.Lines {
		if l.Cut {
			cut = append(cut, l)
		}
	}
	require.Len(t, cut, 1, "%+v", rep.Lines)
	assert.Equal(t, 2, cut[0].Line)
	var text strings.Builder
	require.NoError(t, rep.WriteText(&text))
	assert.Contains(t, text.String(), "stdout:2: error: half a li\n[rac: line 2 of stdout may be cut: the recorder was killed before its newline]\n")
	j, err := rep.JSON()
	require.NoError(t, err)
	assert.Contains(t, string(j), `"text":"error: half a li","count":1`)
	assert.Equal(t, 1, strings.Count(string(j), `"cut":true`))
}
