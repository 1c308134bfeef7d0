package main

import (
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/require"
)

// TestSandboxScripts runs testdata/sandbox_*.txtar: the store's fallback
// places when a sandbox forbids writes (issue 14). Most need a folder
// rac cannot write, so they skip as root; the real read-only sandbox is
// Codex's, in internal/harnesstest (make harness).
func TestSandboxScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "sandbox_*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	p := scriptParams(t, "")
	p.Dir, p.Files = "", files
	testscript.Run(t, p)
}
