package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/require"
)

// TestPeopleScripts runs testdata/people_*.txtar: what rac out list, read,
// grep and explain show people, end to end through the binary.
func TestPeopleScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "people_*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	p := scriptParams(t, "")
	p.Dir, p.Files = "", files
	testscript.Run(t, p)
}
