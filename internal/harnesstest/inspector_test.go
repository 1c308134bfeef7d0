package harnesstest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envInspector is the MCP Inspector's CLI (scripts/harness.sh installs it).
const envInspector = "RAC_HARNESS_INSPECTOR"

// The official MCP Inspector CLI, a generic client that converts its
// --tool-arg values by the schema's "type", lists rac-mcp's tools and
// calls every one, run with argv too.
func TestInspectorCallsEveryTool(t *testing.T) {
	if os.Getenv(envOn) != "1" {
		t.Skipf("the real-harness suite runs with %s=1 (make harness)", envOn)
	}
	insp := os.Getenv(envInspector)
	if _, err := os.Stat(insp); insp == "" || err != nil {
		t.Skipf("SKIP: the MCP Inspector is not installed (%s=%q)", envInspector, insp)
	}
	needMCP(t)
	w := newWorld(t)
	rac, err := filepath.EvalSymlinks(os.Getenv(envRac))
	require.NoError(t, err)
	racMCP := filepath.Join(filepath.Dir(rac), "rac-mcp")
	out := w.RunEnv([]string{"RAC_SESSION=insp"}, "sh", "-c", w.Rac+" run -- sh -c 'seq 1 20; echo \"error: it broke\" >&2; exit 1' 2>&1; true")
	require.Contains(t, out, "rac: ref insp/0001-sh")
	call := func(args ...string) map[string]any {
		t.Helper()
		cmd := exec.Command(insp, append([]string{"--cli", racMCP, "--rac", rac}, args...)...)
		cmd.Dir, cmd.Env = w.WD, append(append([]string(nil), w.Env...), "RAC_MCP_RUN=true")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		require.NoError(t, err, "%v: %s%s", args, b, stderr.String())
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m), "%v: %s", args, b)
		return m
	}
	tools := call("--method", "tools/list")["tools"].([]any)
	var names []string
	for _, tl := range tools {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	assert.ElementsMatch(t, []string{"list", "read", "grep", "explain", "run"}, names)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "session=insp", "limit=5"}, "insp/0001-sh"},
		{[]string{"read", "ref=insp/1", "stream=combined", "lines=2:3"}, "2: 2"},
		{[]string{"grep", "text=BROKE", "ignore_case=true", "all_sessions=true"}, "error: it broke"},
		{[]string{"explain", "ref=insp/1"}, "error: it broke"},
		{[]string{"run", `argv=["sh","-c","echo from-argv"]`, "session=insp", "timeout_seconds=60"}, "from-argv"},
	} {
		args := []string{"--method", "tools/call", "--tool-name", c.args[0]}
		for _, a := range c.args[1:] {
			args = append(args, "--tool-arg", a)
		}
		res := call(args...)
		b, _ := json.Marshal(res)
		assert.NotEqual(t, true, res["isError"], "%v: %s", c.args, b)
		assert.True(t, strings.Contains(string(b), c.want), "%v: %q not in %s", c.args, c.want, b)
	}
}
