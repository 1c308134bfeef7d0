package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/mcpserver"
)

// explain of a recorded agent transcript answers with the digest: its
// text, and its JSON as the structured content, within the budget.
func TestExplainAgentTranscript(t *testing.T) {
	f := newFixture(t)
	stream := filepath.Join(t.TempDir(), "gemini.jsonl")
	frames := []string{
		`{"type":"init","timestamp":"t","session_id":"g1","model":"gemini-test"}`,
		`{"type":"tool_use","timestamp":"t","tool_name":"read_file","tool_id":"r1","parameters":{"file_path":"/nope"}}`,
		`{"type":"tool_result","timestamp":"t","tool_id":"r1","status":"error","output":"","error":{"type":"x","message":"File not found: /nope"}}`,
		`{"type":"message","timestamp":"t","role":"assistant","content":"gave up: ` + strings.Repeat("w", 3000) + `","delta":true}`,
		`{"type":"result","timestamp":"t","status":"success","stats":{"input_tokens":40,"output_tokens":20,"cached":0,"duration_ms":9}}`,
	}
	require.NoError(t, os.WriteFile(stream, []byte(strings.Join(frames, "\n")+"\n"), 0o600))
	ref := f.record(t, "s1", true, "cat", stream)
	cs := f.connect(t, mcpserver.Options{Budget: budget})
	res, text, sc := call(t, cs, budget, "explain", map[string]any{"ref": ref})
	require.False(t, res.IsError, text)
	assert.Equal(t, "agent", sc["shows"])
	assert.Equal(t, "gemini-cli", sc["agent"].(map[string]any)["kind"])
	assert.Equal(t, "gemini-test", sc["result"].(map[string]any)["model"])
	assert.Equal(t, "tool_error", sc["failure"].(map[string]any)["kind"])
	assert.Equal(t, true, sc["final"].(map[string]any)["truncated"], "the final text is cut to 2 KiB")
	assert.Contains(t, text, "failure (tool_error, line 3): read_file: File not found: /nope\n")
	assert.Contains(t, text, "tools: 1 call, 1 error: read_file 1 (1 error)\n")

	assert.Empty(t, sc["cut"])

	// the smallest budget: the digest shrinks in its stated order to fit
	// beside the text (call holds the result to the budget)
	small := mcpserver.MinBudget
	cs = f.connect(t, mcpserver.Options{Budget: int64(small)})
	res, text, sc = call(t, cs, small, "explain", map[string]any{"ref": ref})
	require.False(t, res.IsError, text)
	assert.Equal(t, "agent", sc["shows"])
	assert.Contains(t, sc["cut"], "final text cut to 512 bytes")
	assert.Contains(t, text, "tools: 1 call")
}
