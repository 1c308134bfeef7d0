package agentrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	return b
}

// digestOf decodes a whole stream as the reader of a recording does.
func digestOf(t *testing.T, stream []byte, opt Options, failed bool) *Digest {
	t.Helper()
	f, ok := Sniff(stream)
	require.True(t, ok, "not recognised")
	dec := NewDecoder(f, opt)
	_, _, err := dec.Read(bytes.NewReader(stream), 0)
	require.NoError(t, err)
	return dec.Digest("", failed)
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream string
		want   Format
		ok     bool
	}{
		{"claude", string(fixture(t, "claude-pass.jsonl")), Format{ClaudeCode, StreamJSON, "2.1.328"}, true},
		{"codex", string(fixture(t, "codex-pass.jsonl")), Format{Codex, ExecJSON, ""}, true},
		{"gemini", string(fixture(t, "gemini-pass.jsonl")), Format{GeminiCLI, StreamJSON, ""}, true},
		{"claude json result", `{"type":"result","subtype":"success","is_error":false,"duration_ms":3,"num_turns":1,"result":"hi","session_id":"s"}` + "\n", Format{ClaudeCode, ResultJSON, ""}, true},
		{"noise first", "Warning: Basic terminal detected\n\n" + string(fixture(t, "gemini-pass.jsonl")), Format{GeminiCLI, StreamJSON, ""}, true},
		{"claude hook first", `{"type":"system","subtype":"hook_started","session_id":"s"}` + "\n", Format{ClaudeCode, StreamJSON, ""}, true},
		{"other json lines", `{"type":"init","level":"info","msg":"starting"}` + "\n" + `{"type":"result"}` + "\n", Format{}, false},
		{"a log", `{"time":"2026-01-01T00:00:00Z","level":"INFO","msg":"hello","session_id":"x"}` + "\n", Format{}, false},
		{"system without a session", `{"type":"system","subtype":"init"}` + "\n", Format{}, false},
		{"text", "hello\nworld\n", Format{}, false},
		{"too much noise", strings.Repeat("noise\n", DetectLines+1) + string(fixture(t, "codex-pass.jsonl")), Format{}, false},
		{"empty", "", Format{}, false},
		{"broken json", `{"type":"thread.started","thread_id":` + "\n", Format{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Sniff([]byte(tc.stream))
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The real streams of the three harnesses (captured from the pinned
// versions against the mock model APIs of internal/harnesstest: two
// shell calls, the second failing, then a final answer), field by field.
func TestDigestOfRealStreams(t *testing.T) {
	claude := digestOf(t, fixture(t, "claude-pass.jsonl"), Options{}, false)
	assert.Equal(t, Format{ClaudeCode, StreamJSON, "2.1.328"}, claude.Agent)
	r := claude.Result
	assert.Equal(t, "anthropic", r.Provider)
	assert.Equal(t, "claude-opus-5-5", r.Model)
	assert.Equal(t, "2.1.328", r.HarnessVersion)
	assert.Equal(t, "0c86a6a3-6059-49a6-bc95-80a2c359086c", r.SessionID)
	assert.Equal(t, "success", r.Subtype)
	assert.False(t, *r.IsError)
	assert.Equal(t, "end_turn", r.StopReason)
	assert.EqualValues(t, 3, *r.NumTurns)
	assert.EqualValues(t, 445, *r.DurationMS)
	assert.EqualValues(t, 122, *r.APIMS)
	assert.InDelta(t, 0.00042, *r.CostUSD, 1e-9)
	assert.EqualValues(t, 30, *r.Usage.Input)
	assert.EqualValues(t, 15, *r.Usage.Output)
	assert.EqualValues(t, 0, *r.Usage.CacheRead)
	assert.Equal(t, &Init{Reduced: true, Type: "system", Subtype: "init", Model: "claude-opus-5-5", Version: "2.1.328",
		PermissionMode: "bypassPermissions", SessionID: r.SessionID, ToolsCount: ptr(22), MCPServersCount: ptr(0)}, claude.Init)
	assert.Equal(t, []ToolCount{{"Bash", 2, 1}}, claude.Tools.Counts)
	assert.Equal(t, []Call{
		{Seq: 1, Name: "Bash", InputExcerpt: "echo hello; ls", ResultBytes: 15, Line: 2},
		{Seq: 2, Name: "Bash", InputExcerpt: "cat nosuchfile", ResultBytes: 54, IsError: true, Line: 4},
	}, claude.Tools.LastCalls)
	assert.True(t, claude.Tools.Complete)
	assert.Equal(t, &Failure{Kind: FailTool, Excerpt: "Bash: Exit code 1\ncat: nosuchfile: No such file or directory", Line: 5}, claude.Failure)
	assert.Equal(t, FinalText{Text: "all done here", Bytes: 13}, claude.Final)

	codex := digestOf(t, fixture(t, "codex-pass.jsonl"), Options{Argv: []string{"codex", "exec", "--json", "-m", "mock-model", "go"}}, false)
	assert.Equal(t, Format{Codex, ExecJSON, ""}, codex.Agent)
	assert.Equal(t, "openai", codex.Result.Provider)
	assert.Equal(t, "mock-model", codex.Result.Model)
	assert.Equal(t, "argv", codex.Result.ModelFrom)
	assert.Equal(t, "01a250e3-ff45-7472-83c2-d25f73047683", codex.Result.SessionID)
	assert.Equal(t, "completed", codex.Result.Subtype)
	assert.EqualValues(t, 1, *codex.Result.NumTurns)
	assert.EqualValues(t, 30, *codex.Result.Usage.Input)
	assert.Nil(t, codex.Result.CostUSD, "Codex gives tokens, no cost")
	assert.Equal(t, []ToolCount{{"command_execution", 2, 1}}, codex.Tools.Counts)
	assert.Equal(t, "/bin/bash -lc 'cat nosuchfile'", codex.Tools.LastCalls[1].InputExcerpt)
	assert.Equal(t, FailTool, codex.Failure.Kind)
	assert.Equal(t, "all done here", codex.Final.Text)

	gem := digestOf(t, fixture(t, "gemini-pass.jsonl"), Options{}, false)
	assert.Equal(t, Format{GeminiCLI, StreamJSON, ""}, gem.Agent)
	assert.Equal(t, "gemini-2.5-pro", gem.Result.Model, "init says auto; the result's stats name the model")
	assert.Equal(t, "success", gem.Result.Subtype)
	assert.EqualValues(t, 40, *gem.Result.Usage.Input)
	assert.Equal(t, []ToolCount{{"run_shell_command", 2, 0}}, gem.Tools.Counts)
	assert.Nil(t, gem.Failure, "Gemini's shell tool reports a failing command as a success")
	assert.Equal(t, "all done here", gem.Final.Text)
}

func ptr(n int) *int { return &n }

// The observer, fed the stream in any chunking, makes the digest the
// reader makes.
func TestObserverChunking(t *testing.T) {
	for _, name := range []string{"claude-pass.jsonl", "codex-pass.jsonl", "gemini-pass.jsonl"} {
		stream := fixture(t, name)
		want, err := digestOf(t, stream, Options{}, false).JSON()
		require.NoError(t, err)
		for _, size := range []int{1, 7, 100, 4096, len(stream)} {
			o := NewObserver(Options{})
			for b := stream; len(b) > 0; {
				n := min(size, len(b))
				_, _ = o.Write(b[:n])
				b = b[n:]
			}
			got, err := o.Digest(false).JSON()
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "%s in chunks of %d", name, size)
		}
	}
	o := NewObserver(Options{})
	_, _ = o.Write([]byte(`{"level":"info"}` + "\n" + strings.Repeat("x", 1<<20)))
	assert.Nil(t, o.Digest(false), "other JSON lines are no transcript")
	assert.Empty(t, o.head, "the observer keeps nothing once it has decided")
}

// claudeStream is a synthetic Claude Code stream: n Bash calls (every
// seventh failing), an Edit of each path, and a result.
func claudeStream(n int, paths []string, result string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"type":"system","subtype":"init","session_id":"s1","model":"claude-x","claude_code_version":"9.9.9","tools":["Bash","Edit"],"mcp_servers":[],"permissionMode":"default"}` + "\n")
	frame := func(v any) {
		j, _ := json.Marshal(v)
		b.Write(append(j, '\n'))
	}
	call := func(id, name string, input map[string]any, out string, isErr bool) {
		frame(map[string]any{"type": "assistant", "session_id": "s1", "message": map[string]any{"model": "claude-x", "content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}})
		frame(map[string]any{"type": "user", "session_id": "s1", "message": map[string]any{"content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": out, "is_error": isErr}}}})
	}
	for i := range n {
		call(fmt.Sprintf("t%d", i), fmt.Sprintf("Tool%02d", i%40), map[string]any{"command": fmt.Sprintf("step %d %s", i, strings.Repeat("arg ", 60))},
			strings.Repeat("output line\n", 50), i%7 == 0)
	}
	for i, p := range paths {
		call(fmt.Sprintf("e%d", i), "Edit", map[string]any{"file_path": p, "old_string": "a", "new_string": "b"}, "ok", false)
	}
	b.WriteString(result)
	return b.Bytes()
}

const bigResult = `{"type":"result","subtype":"error_max_turns","is_error":true,"num_turns":500,"duration_ms":1,"duration_api_ms":1,"total_cost_usd":1.5,"session_id":"s1","result":"`

// 500 tool calls and 50 paths: the digest is at most 8 KiB and every cut
// is stated.
func TestDigestBoundedWithEveryCutStated(t *testing.T) {
	var paths []string
	for i := range 50 {
		paths = append(paths, fmt.Sprintf("/work/project/src/module_%02d/%s.go", i, strings.Repeat("deep", 8)))
	}
	stream := claudeStream(500, paths, bigResult+strings.Repeat("final words ", 400)+`"}`+"\n")
	d := digestOf(t, stream, Options{}, true)
	d.Command = "claude -p " + strings.Repeat("x", 3000)
	j, err := d.JSON()
	require.NoError(t, err)
	assert.LessOrEqual(t, len(j), MaxJSON)
	var got Digest
	require.NoError(t, json.Unmarshal(j, &got))
	assert.EqualValues(t, 550, got.Tools.TotalCalls)
	assert.Less(t, got.Tools.ShownCalls, int(got.Tools.TotalCalls))
	assert.Len(t, got.Tools.LastCalls, got.Tools.ShownCalls)
	assert.Equal(t, 50, got.Artifacts.Count)
	assert.Less(t, len(got.Artifacts.Paths), got.Artifacts.Count)
	assert.True(t, got.Final.Truncated)
	assert.Equal(t, 41, got.Tools.ToolsTotal)
	assert.LessOrEqual(t, len(got.Tools.Counts), MaxCounts)
	assert.Equal(t, FailResult, got.Failure.Kind)
	assert.True(t, got.Failure.Truncated)
	assert.Contains(t, got.Cut, CutCommand)
	assert.Contains(t, got.Cut, CutCalls10)
	// the cuts come in the stated order, each only while still too big
	var order []string
	for _, s := range shrinkSteps {
		order = append(order, s.name)
	}
	last := -1
	for _, c := range got.Cut {
		if c == CutCommand || c == CutRef {
			continue
		}
		i := indexOf(order, c)
		require.GreaterOrEqual(t, i, 0, "unknown cut %q", c)
		assert.Greater(t, i, last, "cut %q out of order in %v", c, got.Cut)
		last = i
	}
	t.Logf("%d bytes, cuts %v", len(j), got.Cut)

	// a small run is cut nowhere
	small, err := digestOf(t, fixture(t, "claude-pass.jsonl"), Options{}, false).JSON()
	require.NoError(t, err)
	assert.Contains(t, string(small), `"cut":[]`)
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// Hostile strings everywhere (control characters escape to six bytes):
// the last resort still fits.
func TestDigestLastResort(t *testing.T) {
	ctl := strings.Repeat("\x01", 300)
	var b bytes.Buffer
	b.WriteString(`{"type":"system","subtype":"init","session_id":"` + strings.Repeat(`\u0001`, 300) + `","model":"` + strings.Repeat(`\u0001`, 300) + `"}` + "\n")
	for i := range 40 {
		fmt.Fprintf(&b, `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x%d","name":"%s%d","input":{}}]}}`+"\n", i, strings.Repeat(`\u0001`, 300), i)
	}
	d := digestOf(t, b.Bytes(), Options{}, true)
	d.Ref, d.Outcome = ctl, ctl
	j, err := d.JSON()
	require.NoError(t, err)
	assert.LessOrEqual(t, len(j), MaxJSON)
	assert.Contains(t, string(j), CutAll32)
}

// Every lifted string passes the redactor before it is cut: a secret at
// the edge of an excerpt is redacted whole, not cut into a piece the
// redactor no longer knows.
func TestLiftRedactsBeforeCutting(t *testing.T) {
	secret := "SECRET-" + strings.Repeat("k", 40)
	red := func(s string) string { return strings.ReplaceAll(s, secret, "[REDACTED]") }
	text := strings.Repeat("a", MaxExcerpt-20) + secret
	stream := claudeStream(0, nil, "")
	stream = append(stream, []byte(`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"z","name":"Bash","input":{"command":"`+strings.Repeat("b", MaxInputExcerpt-10)+secret+`"}}]}}`+"\n")...)
	tr, _ := json.Marshal(text)
	stream = append(stream, []byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"z","is_error":true,"content":`+string(tr)+`}]}}`+"\n")...)
	stream = append(stream, []byte(`{"type":"result","subtype":"success","is_error":false,"num_turns":1,"duration_ms":1,"session_id":"s1","result":"done `+secret+`"}`+"\n")...)
	d := digestOf(t, stream, Options{Redact: red}, false)
	j, err := d.JSON()
	require.NoError(t, err)
	assert.NotContains(t, string(j), "SECRET-")
	assert.NotContains(t, string(j), "kkkkkkkkkk", "a piece of the secret survived a cut")
	assert.Contains(t, d.Final.Text, "[REDACTED]")
	assert.Contains(t, d.Failure.Excerpt, "[REDACTED]")
}

// A string leaf over 64 KiB is cut, with a suffix that says how many
// bytes went, in the reduced frame and in the decoded view.
func TestLeafCut(t *testing.T) {
	big := strings.Repeat("é", 50<<10) // 100 KiB, two bytes a rune
	frame, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"content": []any{map[string]any{"type": "tool_result", "content": big}}}})
	red := Reduce(frame)
	var v struct {
		Message struct {
			Content []struct{ Content string }
		}
	}
	require.NoError(t, json.Unmarshal(red, &v))
	got := v.Message.Content[0].Content
	assert.Equal(t, MaxLeaf+len("…[rac: 36864 bytes cut]"), len(got))
	assert.True(t, strings.HasSuffix(got, "…[rac: 36864 bytes cut]"), got[len(got)-40:])
	var lines []string
	require.True(t, Decoded(frame, func(path, line string) { lines = append(lines, path+": "+line) }))
	assert.Equal(t, "message.content.content: "+got, lines[len(lines)-1])
	assert.Equal(t, "type: user", lines[0])
	// short leaves are left alone
	assert.Equal(t, "x", CutLeaf("x"))
}

// The init frame is reduced to its whitelist, marked.
func TestReduceInit(t *testing.T) {
	line := bytes.SplitN(fixture(t, "claude-pass.jsonl"), []byte("\n"), 2)[0]
	var got map[string]any
	require.NoError(t, json.Unmarshal(Reduce(line), &got))
	assert.Equal(t, map[string]any{
		Reduced: true, "type": "system", "subtype": "init", "model": "claude-opus-5-5", "claude_code_version": "2.1.328",
		"permissionMode": "bypassPermissions", "session_id": "0c86a6a3-6059-49a6-bc95-80a2c359086c",
		"tools_count": float64(22), "mcp_servers_count": float64(0),
	}, got)
	assert.Equal(t, []byte("not json"), Reduce([]byte("not json")))
}

// The failure is picked in the stated order.
func TestFailureOrder(t *testing.T) {
	toolErr := claudeStream(7, nil, "")
	d := digestOf(t, toolErr, Options{}, true)
	assert.Equal(t, FailTool, d.Failure.Kind, "the last tool error")
	assert.Equal(t, FailNoResult, NewDecoderDigest(t, `{"type":"thread.started","thread_id":"t"}`, true).Failure.Kind)
	assert.Nil(t, NewDecoderDigest(t, `{"type":"thread.started","thread_id":"t"}`, false).Failure, "still running: no result yet is no failure")
	dec := NewDecoder(Format{Codex, ExecJSON, ""}, Options{})
	dec.Frame(1, []byte(`{"type":"thread.started","thread_id":"t"}`))
	dec.Frame(2, []byte(`{"type":"turn.completed","usage":{}}`))
	assert.Equal(t, &Failure{Kind: FailStderr, Excerpt: "boom"}, dec.Digest("boom", true).Failure, "stderr, last")
	assert.Nil(t, dec.Digest("boom", false).Failure, "stderr only for a failed attempt")
	dec.Frame(3, []byte(`{"type":"error","message":"stream disconnected"}`))
	assert.Equal(t, FailEvent, dec.Digest("boom", true).Failure.Kind)
	dec.Frame(4, []byte(`{"type":"turn.failed","error":{"message":"unexpected status 400"}}`))
	f := dec.Digest("boom", true).Failure
	assert.Equal(t, &Failure{Kind: FailResult, Excerpt: "unexpected status 400", Line: 4}, f, "the result first")
}

func NewDecoderDigest(t *testing.T, stream string, failed bool) *Digest {
	t.Helper()
	return digestOf(t, []byte(stream+"\n"), Options{}, failed)
}

// The text is a few lines, and says what the digest says.
func TestWriteText(t *testing.T) {
	d := digestOf(t, fixture(t, "claude-pass.jsonl"), Options{}, false)
	d.Ref, d.Command, d.Outcome = "s/0001-claude", "claude -p go", "exited with code 0 after 1s"
	d.File = File{Stream: "stdout", BytesTotal: 7600, FramesTotal: 7}
	var b strings.Builder
	require.NoError(t, d.WriteText(&b))
	assert.Equal(t, `$ claude -p go
exited with code 0 after 1s; claude-code 2.1.328 stream-json, model claude-opus-5-5
result: success, 3 turns, $0.0004, tokens in 30 out 15 cache read 0 cache creation 0 thinking 0
tools: 2 calls, 1 error: Bash 2 (1 error)
failure (tool_error, line 5): Bash: Exit code 1 cat: nosuchfile: No such file or directory
final text: all done here
transcript: 7 frames, 7.4 KiB on stdout; rac out read s/0001-claude for all of it
`, b.String())
}

// Gemini CLI streams its answer in pieces: the final text is what came
// after the last tool call, its size counted whole however long.
func TestGeminiFinalText(t *testing.T) {
	dec := NewDecoder(Format{GeminiCLI, StreamJSON, ""}, Options{})
	frames := []string{
		`{"type":"init","timestamp":"t","session_id":"g","model":"m"}`,
		`{"type":"message","role":"assistant","content":"let me look","delta":true}`,
		`{"type":"tool_use","tool_name":"ls","tool_id":"a","parameters":{}}`,
		`{"type":"tool_result","tool_id":"a","status":"success","output":"x"}`,
		`{"type":"message","role":"assistant","content":"all ","delta":true}`,
		`{"type":"message","role":"assistant","content":"good","delta":true}`,
	}
	for i, f := range frames {
		dec.Frame(int64(i+1), []byte(f))
	}
	assert.Equal(t, FinalText{Text: "all good", Bytes: 8}, dec.Digest("", false).Final)
	for i := range 3 {
		dec.Frame(int64(10+i), []byte(`{"type":"message","role":"assistant","content":"`+strings.Repeat("z", 10000)+`","delta":true}`))
	}
	f := dec.Digest("", false).Final
	assert.Equal(t, 30008, f.Bytes)
	assert.True(t, f.Truncated)
	assert.LessOrEqual(t, len(f.Text), MaxFinalText)
}
