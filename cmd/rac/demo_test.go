//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// make demo, as a new user runs it: scripts/demo.sh with nothing in the
// environment but PATH and HOME (no agent, no RAC_*, no terminal), and
// again with settings that would hide the reference (an agent's variables,
// RAC_RUN_ANNOUNCE=none): the recording is read back from a second session
// by the reference the first one printed.
func TestDemoScript(t *testing.T) {
	lookPathT(t, "git")
	ensureSignalBins(t)
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "demo.sh"))
	require.NoError(t, err)
	for _, extra := range [][]string{nil, {"CLAUDECODE=1", "RAC_RUN_ANNOUNCE=none", "RAC_SESSION=mine"}} {
		cmd := exec.Command("bash", script, signalBins.rac)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, extra...)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		text := string(out)
		ref := regexp.MustCompile(`(?m)^rac: ref (demo-one/0001-git-log)$`).FindStringSubmatch(text)
		require.NotNil(t, ref, "no reference in:\n%s", text)
		_, after, ok := strings.Cut(text, "== shell 2 (session demo-two): rac out read "+ref[1]+"\n")
		require.True(t, ok, text)
		require.Regexp(t, `^[0-9a-f]+ second commit\n[0-9a-f]+ first commit\n`, after, "the second session reads the recording back")
	}
}
