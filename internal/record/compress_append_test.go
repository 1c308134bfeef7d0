package record

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A stream that ended with no stated outcome is open to rac record
// --append, which goes on writing the raw files: gc leaves it raw, and
// compresses it once an outcome is stated.
func TestCompressLeavesAnAppendableStreamRaw(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Slug: "ci-log", Source: SourceStdin, Streams: []string{Combined}})
	require.NoError(t, err)
	_, err = w.Sink(Combined).Write([]byte(strings.Repeat("building module ok\n", 2000)))
	require.NoError(t, err)
	require.NoError(t, w.Finish(Footer{Status: StatusStreamEnded}))

	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	st, err := r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.Zero(t, st.Files, "an appendable stream was compressed")
	require.NoError(t, r.Close())

	re, err := Reopen(ReopenOptions{Session: sd, Name: w.Name})
	require.NoError(t, err)
	_, err = re.W.Sink(Combined).Write([]byte("deployed\n"))
	require.NoError(t, err)
	code := 0
	require.NoError(t, re.W.Finish(Footer{Status: StatusExited, ExitCode: &code}))

	r, err = Open(sd, w.Name)
	require.NoError(t, err)
	defer r.Close()
	st, err = r.Compress(CompressOptions{})
	require.NoError(t, err)
	assert.NotZero(t, st.Files, "a stated outcome is final: compressed")
}
