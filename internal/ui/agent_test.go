package ui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/agentrun"
	"github.com/rac-cli/rac/internal/explain"
)

// TestAgentDigest: colour off is WriteText byte for byte; colour on
// paints the command, the outcome by status, the labels and the failure,
// and is the same text under the escapes.
func TestAgentDigest(t *testing.T) {
	dec := agentrun.NewDecoder(agentrun.Format{Kind: agentrun.Codex, Format: agentrun.ExecJSON}, agentrun.Options{})
	for i, f := range []string{
		`{"type":"thread.started","thread_id":"t1"}`,
		`{"type":"item.started","item":{"id":"i1","type":"command_execution","command":"make test"}}`,
		`{"type":"item.completed","item":{"id":"i1","type":"command_execution","command":"make test","aggregated_output":"FAIL\n","exit_code":2,"status":"failed"}}`,
		`{"type":"turn.failed","error":{"message":"unexpected status 401"}}`,
	} {
		dec.Frame(int64(i+1), []byte(f))
	}
	code := 1
	d := dec.Digest("", true)
	d.Ref, d.Command, d.Status, d.ExitCode, d.Outcome = "s/0001-codex", "codex exec --json go", explain.StatusExited, &code, "exited with code 1"
	var want, plain, coloured bytes.Buffer
	require.NoError(t, d.WriteText(&want))
	require.NoError(t, AgentDigest(&plain, newPalette(), d))
	require.NoError(t, AgentDigest(&coloured, onPalette(), d))
	assert.Equal(t, want.String(), plain.String())
	assert.Equal(t, plain.String(), sgr.ReplaceAllString(coloured.String(), ""))
	lines := strings.Split(coloured.String(), "\n")
	assert.Equal(t, "\x1b[1m$ codex exec --json go\x1b[22m", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "\x1b[31mexited with code 1\x1b[0m; codex exec-json"), lines[1])
	assert.Contains(t, coloured.String(), "\x1b[31mfailure (result, line 4): unexpected status 401\x1b[0m\n")
	assert.Contains(t, coloured.String(), "\x1b[2mtools:\x1b[22m 1 call, 1 error")

	var js bytes.Buffer
	require.NoError(t, AgentDigestJSON(&js, d))
	assert.True(t, strings.HasPrefix(js.String(), `{"ref":"s/0001-codex"`) && strings.HasSuffix(js.String(), "}\n"), js.String())
}
