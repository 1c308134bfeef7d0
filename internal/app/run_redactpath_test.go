package app

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/redact/redacttest"
)

// A fast command through the redactor: the pipe hands rac pieces of any
// size, the stage hands its buffers to the redactor, which redacts them
// where they lie and counts their newlines for the pump (the count
// Received holds) and passes them on to the store's line index. What is
// stored is the redactor's output for the whole stream, and every count
// is exact.
func TestRunRedactsAFastCommandWhole(t *testing.T) {
	data := redacttest.MixedCorpus(6<<20, 46)
	long := strings.Repeat("0123456789abcdef", 12<<10) // longer than a region
	data = append(data, long+" password=Tq9xCorrectHorse "+long+"\n"...)
	data = append(data, redacttest.MixedCorpus(1<<20, 47)...)
	data = append(data, "no newline at the end"...)

	f := newFixture(t)
	in := filepath.Join(t.TempDir(), "in")
	require.NoError(t, os.WriteFile(in, data, 0o600))
	r, err := redact.New(redact.Config{Environ: f.appEnv().Environ(), EnvNames: f.set.RedactEnvNames})
	require.NoError(t, err)
	want := r.Bytes(data)
	require.NotEqual(t, len(data), len(want), "the corpus holds secrets")

	files := newRunFiles(t)
	res, err := f.app().Run(context.Background(), f.runReq(files, "cat", in))
	require.NoError(t, err)
	assert.Equal(t, StreamCounts{Bytes: int64(len(data)), Lines: int64(bytes.Count(data, []byte{'\n'})) + 1},
		res.Outcome.Received[StreamStdout])

	stored := f.read(ReadRequest{Ref: res.Ref, Stream: StreamStdout, Raw: true})
	require.Equal(t, string(want), stored, "stored as the redactor redacts the whole stream")
	// The line index: lines read by number are the stored lines.
	lines := strings.SplitAfter(string(want), "\n")
	for _, at := range []int{1, 1000, len(lines) / 3, len(lines) / 2, len(lines) - 2} {
		got := f.read(ReadRequest{Ref: res.Ref, Stream: StreamStdout, Raw: true, Lines: fmt.Sprintf("%d:%d", at, at+2)})
		require.Equal(t, strings.Join(lines[at-1:at+2], ""), got, "lines %d-%d", at, at+2)
	}
}
