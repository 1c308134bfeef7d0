package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/agentrun"
)

// syntheticClaude is a Claude Code stream-json of n Bash calls, each
// result pad bytes long, then a result frame; extra goes into the
// first result.
func syntheticClaude(n, pad int, extra string) string {
	var b strings.Builder
	b.WriteString(`{"type":"system","subtype":"init","session_id":"s1","model":"claude-test","claude_code_version":"9.9.9","tools":["Bash"],"mcp_servers":[],"permissionMode":"default"}` + "\n")
	out := strings.Repeat("x", pad)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"type":"assistant","session_id":"s1","message":{"model":"claude-test","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"step %d"}}]}}`+"\n", i, i)
		res := out
		if i == 1 {
			res = extra + out
		}
		fmt.Fprintf(&b, `{"type":"user","session_id":"s1","message":{"content":[{"type":"tool_result","tool_use_id":"t%d","content":%q,"is_error":false}]}}`+"\n", i, res)
	}
	fmt.Fprintf(&b, `{"type":"result","subtype":"success","is_error":false,"num_turns":%d,"duration_ms":5,"total_cost_usd":0.25,"session_id":"s1","result":"all steps done"}`+"\n", n+1)
	return b.String()
}

// A 3 MiB transcript recorded with record.max_bytes 1 MiB stays under it;
// the digest states the seam in bytes and frames, and still reads the
// result frame from the kept tail.
func TestAgentTranscriptCapped(t *testing.T) {
	f := newFixture(t)
	f.set.MaxBytes, f.set.HeadBytes = 1<<20, 128<<10
	stream := syntheticClaude(1600, 1900, "")
	require.Greater(t, len(stream), 3<<20)
	ref := f.record([]string{"claude", "-p", "go", "--output-format", "stream-json", "--verbose"},
		map[string]string{StreamStdout: stream, StreamStderr: ""}, Outcome{Status: StatusExited})
	d, err := f.app().ExplainAgent(context.Background(), ref)
	require.NoError(t, err)
	require.NotNil(t, d)
	frames := int64(strings.Count(stream, "\n"))
	fl := d.File
	assert.True(t, fl.Truncated)
	assert.LessOrEqual(t, fl.BytesKept, int64(1<<20), "the recording holds more than record.max_bytes")
	assert.Equal(t, int64(len(stream)), fl.BytesTotal)
	assert.Equal(t, frames, fl.FramesTotal)
	require.NotNil(t, fl.Seam)
	assert.Equal(t, fl.BytesTotal-fl.BytesKept, fl.Seam.BytesDropped)
	assert.Positive(t, fl.Seam.FramesDropped)
	assert.Equal(t, fl.FramesTotal-fl.Seam.FramesDropped, fl.FramesKept)
	assert.LessOrEqual(t, fl.Seam.AfterByte, int64(128<<10))
	assert.Positive(t, fl.Seam.AfterFrame)
	assert.False(t, d.Tools.Complete, "frames are missing: the pairing cannot be complete")
	assert.Equal(t, "success", d.Result.Subtype, "the result frame is in the kept tail")
	assert.Equal(t, "all steps done", d.Final.Text)
	assert.Less(t, d.Tools.TotalCalls, int64(1600))
	assert.Positive(t, d.Frames.Unparsed, "the frames the seam went through")
	j, err := d.JSON()
	require.NoError(t, err)
	assert.LessOrEqual(t, len(j), agentrun.MaxJSON)

	var text strings.Builder
	require.NoError(t, d.WriteText(&text))
	assert.Contains(t, text.String(), fmt.Sprintf("recording cut after frame %d: %d frames", fl.Seam.AfterFrame, fl.Seam.FramesDropped))

	list, err := f.app().List(context.Background(), Scope{Session: "test"})
	require.NoError(t, err)
	assert.Equal(t, &ListAgent{Kind: agentrun.ClaudeCode, Format: agentrun.StreamJSON, Version: "9.9.9", Model: "claude-test", Outcome: "success"},
		list.Entries[0].Agent)
}

// Any other JSON lines are no transcript: explain as before, list as
// before.
func TestAgentNotATranscript(t *testing.T) {
	f := newFixture(t)
	stream := `{"type":"init","level":"info","msg":"starting"}` + "\n" + `{"type":"result","status":"ok"}` + "\n"
	ref := f.record([]string{"server"}, map[string]string{StreamStdout: stream, StreamStderr: ""}, Outcome{Status: StatusExited})
	d, err := f.app().ExplainAgent(context.Background(), ref)
	require.NoError(t, err)
	assert.Nil(t, d)
	rep, err := f.app().Explain(context.Background(), ref)
	require.NoError(t, err)
	assert.Equal(t, "pass", rep.Shows)
	list, err := f.app().List(context.Background(), Scope{Session: "test"})
	require.NoError(t, err)
	assert.Nil(t, list.Entries[0].Agent)
	b, err := json.Marshal(list.Entries[0])
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"agent"`, "list --json is unchanged for other recordings")
}

// A recording made without redaction still gives a redacted digest: the
// strings are redacted as they are lifted.
func TestAgentDigestRedactsUnredactedRecording(t *testing.T) {
	f := newFixture(t)
	f.set.RedactEnabled = false
	stream := syntheticClaude(2, 10, "the token is "+testSecret+"\n")
	stream = strings.Replace(stream, "step 2", "echo "+testSecret, 1)
	stream = strings.Replace(stream, `"is_error":false}]}}`, `"is_error":true}]}}`, 1)
	ref := f.record([]string{"claude", "-p"}, map[string]string{StreamStdout: stream, StreamStderr: ""}, Outcome{Status: StatusExited})
	require.Contains(t, f.read(ReadRequest{Ref: ref, Raw: true}), testSecret, "the recording is not redacted: the test tests nothing")
	d, err := f.app().ExplainAgent(context.Background(), ref)
	require.NoError(t, err)
	j, err := d.JSON()
	require.NoError(t, err)
	assert.NotContains(t, string(j), testSecret)
	assert.Contains(t, d.Failure.Excerpt, "the token is [REDACTED:")
	assert.Contains(t, d.Tools.LastCalls[1].InputExcerpt, "echo [REDACTED:")
}

// A transcript fed by rac record, and continued by an append after a
// reconnect: the note spans both parts (the second has no first frame of
// its own), and explain digests the whole stream.
func TestAgentTranscriptRecordedAndAppended(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	stream := syntheticClaude(4, 10, "")
	lines := strings.SplitAfter(stream, "\n")
	first, second := strings.Join(lines[:5], ""), strings.Join(lines[5:], "")
	res, err := f.app().Record(ctx, RecordRequest{In: strings.NewReader(first), Cmd: "claude -p go --output-format stream-json --verbose"})
	require.NoError(t, err)
	list, err := f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	require.NotNil(t, list.Entries[0].Agent, "rac record notes a transcript too")
	assert.Empty(t, list.Entries[0].Agent.Outcome, "no result yet")

	code := 0
	_, err = f.app().Record(ctx, RecordRequest{In: strings.NewReader(second), Append: res.Ref, Stated: StatedOutcome{ExitCode: &code}})
	require.NoError(t, err)
	list, err = f.app().List(ctx, Scope{Session: "test"})
	require.NoError(t, err)
	assert.Equal(t, &ListAgent{Kind: agentrun.ClaudeCode, Format: agentrun.StreamJSON, Version: "9.9.9", Model: "claude-test", Outcome: "success"},
		list.Entries[0].Agent)
	rec, err := f.app().Open(res.Ref)
	require.NoError(t, err)
	defer rec.Close()
	assert.Equal(t, int64(len(lines)-1), rec.Footer.Agent.Frames, "frames of both parts")

	d, err := f.app().ExplainAgent(ctx, res.Ref)
	require.NoError(t, err)
	require.NotNil(t, d)
	assert.EqualValues(t, 4, d.Tools.TotalCalls)
	assert.True(t, d.Tools.Complete)
	assert.Equal(t, "all steps done", d.Final.Text)
}
