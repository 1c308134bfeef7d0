package record

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A passthrough recording has no streams: only metadata and the footer.
func TestMetadataOnly(t *testing.T) {
	sd := newSession(t)
	w, err := Create(CreateOptions{Session: sd, Argv: []string{"vim", "notes"}, Cwd: "/w", Mode: ModePassthrough})
	require.NoError(t, err)
	code := 0
	require.NoError(t, w.Finish(Footer{Status: StatusExited, ExitCode: &code}))
	r, err := Open(sd, w.Name)
	require.NoError(t, err)
	defer r.Close()
	assert.True(t, r.MetadataOnly())
	assert.Equal(t, ModePassthrough, r.Meta.Mode)
	assert.Equal(t, []string{"vim", "notes"}, r.Meta.Argv)
	assert.Equal(t, StatusExited, r.Status)
	assert.Empty(t, r.Footer.Stored)
	n := 0
	require.NoError(t, r.Lines(LineOptions{}, func(Line) error { n++; return nil }))
	require.NoError(t, r.Lines(LineOptions{Tail: 5}, func(Line) error { n++; return nil }))
	assert.Zero(t, n)
	var raw bytes.Buffer
	_, err = r.CopyRaw(&raw, "")
	require.NoError(t, err)
	assert.Zero(t, raw.Len())
	chunks, err := r.Chunks()
	require.NoError(t, err)
	assert.Empty(t, chunks)
	assert.Zero(t, r.KeptBytes())

	piped := write(t, sd, [2]string{Stdout, "x\n"})
	assert.False(t, piped.MetadataOnly())
}
