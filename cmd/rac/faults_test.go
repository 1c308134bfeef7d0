package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/require"
)

// TestFaultScripts runs the fault suite's testscripts,
// testdata/faults_*.txtar here (other scripts of this folder are not
// its): fast regression cases, part of every test run. The slow,
// randomised suite is internal/faults (make faults).
func TestFaultScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "faults_*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	p := scriptParams(t, "")
	p.Dir, p.Files = "", files
	testscript.Run(t, p)
}
