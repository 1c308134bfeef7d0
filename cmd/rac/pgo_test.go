package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPGOProfileCoversRedaction: default.pgo, which go build uses for rac
// by itself, is a CPU profile of the redacting writer (make pgo). A profile
// that lost the writer's hot path (an empty one, one of the wrong
// benchmark) would build rac without the gains docs/secrets.md states.
func TestPGOProfileCoversRedaction(t *testing.T) {
	f, err := os.Open("default.pgo")
	require.NoError(t, err, "cmd/rac/default.pgo: make pgo writes it")
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err, "default.pgo is a gzipped pprof profile")
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	for _, fn := range []string{
		"internal/redact.(*engine).region",
		"internal/redact.(*engine).quietHit",
		"internal/redact.(*automaton).scanMask",
		"internal/redact.(*engine).analyze",
	} {
		require.True(t, bytes.Contains(raw, []byte(fn)), "default.pgo has no samples in %s: make pgo", fn)
	}
}
