package harnesstest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/agentrun"
)

// A headless run of each harness, recorded by rac run: the digest rac
// out explain gives, field by field against what the mock scripted.

// headless is one harness run headless with its event stream on stdout.
type headless struct {
	kind, bin string
	prov      provider
	// args and env of a run against m
	run func(w *World, m *Mock) (env, args []string)
	// write is a step that writes path with the harness's own file tool
	// (nil: none in its headless mode, see TestAgentRunPass)
	write func(path string) Step
	// fail is a tool call that fails as a tool call (an error result)
	fail func(w *World) Step
	// shell is how the stream shows a scripted shell command
	shell func(cmd string) string
	// the run's own word for a good end, the failed call's tool and
	// what its result says
	ok, failTool, failText string
}

func headlessHarnesses() []headless {
	same := func(cmd string) string { return cmd }
	return []headless{
		{
			kind: agentrun.ClaudeCode, bin: "claude", prov: anthropic{},
			run: func(w *World, m *Mock) ([]string, []string) { return claudeEnv(m), claudeArgs() },
			write: func(p string) Step {
				return Step{Tool: "Write", Input: map[string]any{"file_path": p, "content": "hello\n"}}
			},
			fail:  func(*World) Step { return Shell("cat nosuchfile") },
			shell: same, ok: "success", failTool: "Bash", failText: "nosuchfile",
		},
		{
			kind: agentrun.Codex, bin: "codex", prov: openai{},
			run: func(w *World, m *Mock) ([]string, []string) {
				return codexEnv(w.codexHome(m)), codexArgs(fullAccess, "")
			},
			fail:  func(*World) Step { return Shell("cat nosuchfile") },
			shell: func(cmd string) string { return "/bin/bash -lc '" + cmd + "'" }, ok: "completed", failTool: "command_execution", failText: "nosuchfile",
		},
		{
			kind: agentrun.GeminiCLI, bin: "gemini", prov: gemini{},
			run: func(w *World, m *Mock) ([]string, []string) {
				return geminiEnv(m, w.geminiHome()), []string{"-p", "go", "--yolo", "--output-format", "stream-json"}
			},
			write: func(p string) Step {
				return Step{Tool: "write_file", Input: map[string]any{"file_path": p, "content": "hello\n"}}
			},
			// Gemini's shell tool reports a failing command as a success
			// (the exit code is in its output): a file tool fails as a call
			fail: func(w *World) Step {
				return Step{Tool: "read_file", Input: map[string]any{"file_path": filepath.Join(w.WD, "nosuchfile")}}
			},
			shell: same, ok: "success", failTool: "read_file", failText: "not found",
		},
	}
}

// underRac runs the harness headless under rac run; it returns the
// harness's outcome and the recording's reference.
func (w *World) underRac(h headless, m *Mock) (Harness, string) {
	w.t.Helper()
	bin := need(w.t, h.bin)
	env, args := h.run(w, m)
	out := w.harness(w.Rac, env, append([]string{"run", "--", bin}, args...)...)
	sess, name := refOf(w.t, out.Stderr)
	return out, sess + "/" + name
}

// out runs rac out ... and returns its stdout.
func (w *World) out(args ...string) string {
	w.t.Helper()
	cmd := exec.Command(w.Rac, append([]string{"out"}, args...)...)
	cmd.Dir, cmd.Env = w.WD, w.Env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	require.NoError(w.t, err, "rac out %v: %s", args, stderr.String())
	return string(b)
}

// digest is rac out explain --json's digest of ref, checked to be one.
func (w *World) digest(ref string) agentrun.Digest {
	w.t.Helper()
	j := w.out("explain", "--json", ref)
	assert.LessOrEqual(w.t, len(j), agentrun.MaxJSON+1)
	var d agentrun.Digest
	require.NoError(w.t, json.Unmarshal([]byte(j), &d), j)
	require.Equal(w.t, agentrun.ShowsAgent, d.Shows, "explain did not see a transcript:\n%s", j)
	w.t.Logf("digest: %s", j)
	return d
}

// checkFile holds the digest's file facts to the recording's stdout.
func (w *World) checkFile(d agentrun.Digest, ref string) {
	w.t.Helper()
	// the bytes as recorded, read through rac: the run's detached gc may
	// have compressed the stream already, and then no file holds them
	b := []byte(w.out("read", "--raw", "--stream", "stdout", ref))
	sum := sha256.Sum256(b)
	// bytes_total is what the harness printed, before redaction
	assert.Positive(w.t, d.File.BytesTotal)
	d.File.BytesTotal = int64(len(b))
	assert.Equal(w.t, agentrun.File{
		Stream: "stdout", BytesTotal: int64(len(b)), BytesKept: int64(len(b)),
		FramesTotal: int64(strings.Count(string(b), "\n")), FramesKept: int64(strings.Count(string(b), "\n")),
		SHA256: hex.EncodeToString(sum[:]),
	}, d.File)
	assert.Zero(w.t, d.Frames.Unparsed, "a frame did not parse")
}

func TestAgentRunPass(t *testing.T) {
	for _, h := range headlessHarnesses() {
		t.Run(h.bin, func(t *testing.T) {
			need(t, h.bin)
			w := newWorld(t)
			script := []Step{Shell("echo one"), Shell("echo two; ls")}
			made := filepath.Join(w.WD, "made.txt")
			if h.write != nil {
				script = append(script, h.write(made))
			}
			script = append(script, Say("finished the work"))
			m := newMock(t, h.prov, script...)
			out, ref := w.underRac(h, m)
			require.NoError(t, out.Err)
			d := w.digest(ref)
			assert.Equal(t, h.kind, d.Agent.Kind)
			assert.Equal(t, "exited", d.Status)
			assert.Equal(t, 0, *d.ExitCode)
			assert.Equal(t, h.ok, d.Result.Subtype)
			assert.False(t, *d.Result.IsError)
			assert.NotEmpty(t, d.Result.SessionID)
			assert.NotEmpty(t, d.Result.Model)
			require.NotNil(t, d.Result.Usage.Input)
			assert.Positive(t, *d.Result.Usage.Input)
			assert.Positive(t, *d.Result.Usage.Output)
			if h.kind == agentrun.ClaudeCode {
				require.NotNil(t, d.Result.CostUSD, "Claude Code reports its cost")
				assert.Equal(t, d.Result.HarnessVersion, d.Agent.Version)
				assert.NotEmpty(t, d.Agent.Version)
			}
			calls := len(script) - 1
			assert.EqualValues(t, calls, d.Tools.TotalCalls)
			assert.Equal(t, calls, d.Tools.ShownCalls)
			assert.True(t, d.Tools.Complete)
			require.Len(t, d.Tools.LastCalls, calls)
			assert.Equal(t, h.shell("echo one"), d.Tools.LastCalls[0].InputExcerpt)
			assert.Equal(t, h.shell("echo two; ls"), d.Tools.LastCalls[1].InputExcerpt)
			for i, c := range d.Tools.LastCalls {
				assert.EqualValues(t, i+1, c.Seq)
				assert.False(t, c.IsError, "call %d", i)
				assert.GreaterOrEqual(t, c.ResultBytes, int64(0), "call %d has no result", i)
			}
			if h.write != nil {
				assert.Equal(t, agentrun.Artifacts{Count: 1, Paths: []string{made}}, d.Artifacts)
				assert.FileExists(t, made)
			} else {
				// Codex names files in file_change items, made by its
				// apply_patch tool, which 0.169.0 does not offer the mock's
				// models (a scripted apply_patch call made no item): its
				// shell calls name no files
				assert.Equal(t, 0, d.Artifacts.Count)
			}
			assert.Nil(t, d.Failure)
			assert.Equal(t, agentrun.FinalText{Text: "finished the work", Bytes: len("finished the work")}, d.Final)
			assert.Empty(t, d.Cut)
			w.checkFile(d, ref)

			// list: the row's model and outcome
			var list []struct {
				Ref   string `json:"ref"`
				Agent *struct{ Kind, Model, Outcome string }
			}
			require.NoError(t, json.Unmarshal([]byte(w.out("list", "--json", "--session", strings.Split(ref, "/")[0])), &list))
			require.Len(t, list, 1)
			require.NotNil(t, list[0].Agent)
			assert.Equal(t, h.kind, list[0].Agent.Kind)
			assert.Equal(t, d.Result.Model, list[0].Agent.Model)
			assert.Equal(t, h.ok, list[0].Agent.Outcome)
			// the text form
			text := w.out("explain", ref)
			assert.Contains(t, text, "finished the work")
			assert.Contains(t, text, "tools: ")
		})
	}
}

func TestAgentRunToolFails(t *testing.T) {
	for _, h := range headlessHarnesses() {
		t.Run(h.bin, func(t *testing.T) {
			need(t, h.bin)
			w := newWorld(t)
			m := newMock(t, h.prov, Shell("echo fine"), h.fail(w), Say("could not read it"))
			out, ref := w.underRac(h, m)
			require.NoError(t, out.Err)
			rs := results(t, m, 2)
			d := w.digest(ref)
			assert.Equal(t, h.ok, d.Result.Subtype, "a failed tool call does not fail the run")
			assert.EqualValues(t, 2, d.Tools.TotalCalls)
			require.Len(t, d.Tools.LastCalls, 2)
			assert.False(t, d.Tools.LastCalls[0].IsError)
			failed := d.Tools.LastCalls[1]
			assert.True(t, failed.IsError)
			assert.Equal(t, h.failTool, failed.Name)
			var errs int64
			for _, c := range d.Tools.Counts {
				if c.Name == h.failTool {
					errs = c.Errors
				}
			}
			assert.EqualValues(t, 1, errs)
			require.NotNil(t, d.Failure)
			assert.Equal(t, agentrun.FailTool, d.Failure.Kind)
			assert.True(t, strings.HasPrefix(d.Failure.Excerpt, h.failTool+": "), d.Failure.Excerpt)
			// the excerpt is what the model was told, as the stream says it
			assert.Contains(t, strings.ToLower(d.Failure.Excerpt), h.failText)
			t.Logf("the model got: %q", rs[1].Output)
			assert.Equal(t, "could not read it", d.Final.Text)
		})
	}
}

func TestAgentRunAPIError(t *testing.T) {
	for _, h := range headlessHarnesses() {
		t.Run(h.bin, func(t *testing.T) {
			need(t, h.bin)
			w := newWorld(t)
			m := newMock(t, h.prov, Shell("echo fine"), Step{APIError: 400})
			out, ref := w.underRac(h, m)
			require.Error(t, out.Err, "the harness should fail on a refused request")
			d := w.digest(ref)
			assert.Equal(t, "exited", d.Status)
			assert.NotZero(t, *d.ExitCode)
			assert.EqualValues(t, 1, d.Tools.TotalCalls)
			require.NotNil(t, d.Failure)
			assert.Contains(t, []string{agentrun.FailResult, agentrun.FailEvent}, d.Failure.Kind)
			assert.Contains(t, d.Failure.Excerpt, apiErrorMessage, "the failure does not say what the API answered")
			if d.Result.IsError != nil {
				assert.True(t, *d.Result.IsError)
			}
			var list []struct {
				Agent *struct{ Outcome string }
			}
			require.NoError(t, json.Unmarshal([]byte(w.out("list", "--json", "--session", strings.Split(ref, "/")[0])), &list))
			require.NotNil(t, list[0].Agent)
			assert.NotEqual(t, h.ok, list[0].Agent.Outcome)
		})
	}
}

// A secret the agent met in a tool result is on rac's disk nowhere, and
// in the digest nowhere: redacted on the way in, and again when lifted.
func TestAgentRunSecret(t *testing.T) {
	secret := "ghp_" + "R4cS3cr3tT0k3nF0rTh3H4rn3ssT3st00012"
	require.Len(t, secret, 40)
	for _, h := range headlessHarnesses() {
		t.Run(h.bin, func(t *testing.T) {
			need(t, h.bin)
			w := newWorld(t)
			require.NoError(t, os.WriteFile(filepath.Join(w.WD, "creds.txt"), []byte("token="+secret+"\n"), 0o600))
			m := newMock(t, h.prov, Shell("cat creds.txt"), Say("read it"))
			out, ref := w.underRac(h, m)
			require.NoError(t, out.Err)
			rs := results(t, m, 1)
			require.Contains(t, rs[0].Output, secret, "the model did not get the secret: the test tests nothing")
			require.Contains(t, out.Stdout, secret, "the stream did not carry the secret")
			dir := strings.TrimSpace(w.out("path", ref))
			require.NoError(t, filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
				require.NoError(t, err)
				if e.Type().IsRegular() {
					b, err := os.ReadFile(p)
					require.NoError(t, err)
					assert.NotContains(t, string(b), secret, "the secret is on disk in %s", p)
				}
				return nil
			}))
			j := w.out("explain", "--json", ref)
			assert.NotContains(t, j, secret)
			assert.NotContains(t, w.out("explain", ref), secret)
			d := w.digest(ref)
			assert.EqualValues(t, 1, d.Tools.TotalCalls)
			assert.Positive(t, d.Tools.LastCalls[0].ResultBytes)
			hits := w.out("grep", "--decoded", "--session", strings.Split(ref, "/")[0], "token=")
			assert.Contains(t, hits, "token=[REDACTED:")
			assert.NotContains(t, hits, secret)
		})
	}
}
