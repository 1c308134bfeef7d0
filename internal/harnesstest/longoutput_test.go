package harnesstest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// causeLine is the one line of a long failing build that says why.
const causeLine = "src/parser.c:217:14: error: 'tok' undeclared (first use in this function)"

// writeBuild writes build.sh into the working folder: 3,000 lines of
// progress (about 100 KB) with causeLine as line 1,501, exit 2
// (BUILD_EXIT=0: the same output, passing); and a
// Makefile whose one target runs it (make is one of hook.wrap's programs).
func (w *World) writeBuild() {
	w.t.Helper()
	script := `#!/bin/sh
i=1
while [ $i -le 3000 ]; do
  if [ $i -eq 1501 ]; then echo "` + strings.ReplaceAll(causeLine, "'", `'"'"'`) + `"; else printf 'compiling module %04d of 3000: src/mod%04d.c -> build/mod%04d.o\n' $i $i $i; fi
  i=$((i+1))
done
exit ${BUILD_EXIT:-2}
`
	script = strings.ReplaceAll(script, `'"'"'`, `'`)
	require.NoError(w.t, os.WriteFile(filepath.Join(w.WD, "build.sh"), []byte(script), 0o755))
	require.NoError(w.t, os.WriteFile(filepath.Join(w.WD, "Makefile"), []byte("all:\n\t./build.sh\n"), 0o600))
}

// longRow is one line of the table the long-output tests log: what the
// model received for one way of running the failing build.
type longRow struct {
	how        string
	chars      int
	cause, ref bool
}

func logLongRows(t *testing.T, harness string, rows []longRow) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "measured (%s, the failing 3,000-line build, causal line 1,501):\n", harness)
	fmt.Fprintf(&b, "| %-34s | %8s | %-5s | %-5s |\n", "how", "chars", "cause", "ref")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %-34s | %8d | %-5v | %-5v |\n", r.how, r.chars, r.cause, r.ref)
	}
	t.Log(b.String())
}

// checkLong checks the results of the long failing build run four or
// five ways, in this order: without rac, rac run -- CMD, rac run
// --summary -- CMD, then optionally the hook route (hook: true), then
// optionally the MCP run tool (mcp: true); it logs what the model got.
func checkLong(t *testing.T, harness string, rs []ToolResult, hook, mcp bool) {
	t.Helper()
	row := func(how string, r ToolResult) longRow {
		return longRow{how: how, chars: len(r.Output), cause: strings.Contains(r.Output, causeLine),
			ref: refLine.MatchString(r.Output) || startLine.MatchString(r.Output)}
	}
	rows := []longRow{row("without rac", rs[0])}
	assert.NotContains(t, rs[0].Output, causeLine, "%s now keeps the middle of a long failure: update docs/agents.md", harness)
	// the start line's hint, and with run.agent_view (rac's stdout is the
	// file the harness captures) the cause and the reference at the end
	starts := []struct {
		how string
		r   ToolResult
	}{{"rac run -- CMD", rs[1]}}
	causes := []struct {
		how string
		r   ToolResult
	}{{"rac run --summary -- CMD", rs[2]}}
	next := 3
	if hook {
		starts = append(starts, struct {
			how string
			r   ToolResult
		}{"hook route", rs[next]})
		next++
	}
	if mcp {
		causes = append(causes, struct {
			how string
			r   ToolResult
		}{"MCP run", rs[next]})
	}
	for _, c := range starts {
		rows = append(rows, row(c.how, c.r))
		sess, name := refOf(t, c.r.Output)
		ref := sess + "/" + name
		assert.Contains(t, c.r.Output, "rac: recording "+ref+" (cut? rac out explain "+ref+")", "%s: the start line's hint", c.how)
		assert.Contains(t, c.r.Output, causeLine, "%s: the cause in the first result (run.agent_view)", c.how)
		assert.Contains(t, c.r.Output, "rac: ref "+ref, "%s: the end line in the first result (run.agent_view)", c.how)
		assert.Contains(t, c.r.Output, "not shown, kept for the harness's window: rac out read "+ref, "%s: what was held back", c.how)
	}
	for _, c := range causes {
		rows = append(rows, row(c.how, c.r))
		assert.Contains(t, c.r.Output, causeLine, "%s: the cause in the first result", c.how)
		assert.Regexp(t, refLine, c.r.Output, "%s: the reference", c.how)
	}
	assert.Contains(t, rs[2].Output, "rac: more: rac out read ", "--summary names the command to read around the cause")
	logLongRows(t, harness, rows)
}

// Claude Code keeps the start of a long result (a failure: about 5 KB of
// head and 5 KB of tail of its first 30,000 characters), so without rac
// the model never sees the error of a long failing build. With rac: the
// start line names the reference and what to run when the output is cut
// (rac run, and the hook route of agent-init claude's functions), and
// --summary and the MCP run tool carry the cause and the reference in the
// first tool result.
func TestClaudeLongOutput(t *testing.T) {
	bin := need(t, "claude")
	needMCP(t)
	w := newWorld(t)
	w.writeBuild()
	w.agentInit("claude", "--user")
	w.agentInit("claude", "--mcp", "--project")
	m := newMock(t, anthropic{},
		Shell("./build.sh"),
		Shell("rac run -- ./build.sh"),
		Shell("rac run --summary -- ./build.sh"),
		Shell("make"),
		mcpCall("run", map[string]any{"command": "./build.sh"}),
		// the same output, passing: no invented cause
		Shell("BUILD_EXIT=0 rac run --summary -- ./build.sh"),
		Shell("BUILD_EXIT=0 rac run -- ./build.sh"),
		// a passing output within the window: the same bytes but rac's lines
		Shell("seq 1 2000"),
		Shell("rac run -- seq 1 2000"),
		Say("done"))
	h := w.claude(bin, m, []string{"RAC_MCP_RUN=true"})
	require.NoError(t, h.Err)
	rs := results(t, m, 9)
	checkLong(t, "Claude Code", rs[:5], true, true)
	checkPassingLong(t, rs[5:7])
	assert.Equal(t, rs[7].Output, withoutRacLines(rs[8].Output), "a passing output within the window is not the same as without rac")
}

// checkPassingLong checks the results of the long build run passing
// (BUILD_EXIT=0), with --summary and plainly: no invented cause, and the
// reference.
func checkPassingLong(t *testing.T, rs []ToolResult) {
	t.Helper()
	for _, r := range rs {
		assert.NotContains(t, r.Output, "cause (", "a passing run got a cause")
		assert.NotContains(t, r.Output, "rac: more:")
		assert.Regexp(t, refLine, r.Output)
	}
}

// geminiPGID is the process group line Gemini CLI ends a shell result
// with: a pid, other from call to call.
var geminiPGID = regexp.MustCompile(`(?m)^Process Group PGID: \d+\n`)

// geminiRacLine is one of rac's lines right after Gemini's "Output: "
// (Gemini reads stdout and stderr as they come: rac's start or end line
// may come first).
var geminiRacLine = regexp.MustCompile(`Output: rac: (recording|ref) [^\n]*\n`)

// geminiHookNote is the note Gemini CLI appends to the result of a call
// whose input a hook changed (rac's BeforeTool hook puts RAC_SESSION in
// front of rac's own commands).
const geminiHookNote = "\n\n[System] Tool input parameters were modified by a hook before execution."

// geminiBody is a Gemini shell result without what differs from call to
// call or names rac's part: the process group line, the hook's note, and
// rac's lines after "Output: " (withoutRacLines takes the others).
func geminiBody(out string) string {
	out = geminiPGID.ReplaceAllString(out, "")
	out = strings.TrimSuffix(out, geminiHookNote)
	for geminiRacLine.MatchString(out) {
		out = geminiRacLine.ReplaceAllString(out, "Output: ")
	}
	return out
}

// Codex keeps about 10,000 characters of a result for a model it does not
// know (a head and a tail): the same five ways, the hook route being
// agent-init codex's PreToolUse hook (run once trusted: the test passes
// --dangerously-bypass-hook-trust, as TestCodexHook does), which rewrites
// the model's make into rac run -- make by rac's absolute path, and the
// MCP route agent-init codex --mcp's [mcp_servers.rac] (RAC_MCP_RUN
// reaches rac-mcp through its env_vars), called in Codex's namespace
// form (openaiMCP).
func TestCodexLongOutput(t *testing.T) {
	bin := need(t, "codex")
	needMCP(t)
	w := newWorld(t)
	w.writeBuild()
	m := newMock(t, openaiMCP{},
		Shell("./build.sh"),
		Shell(w.Rac+" run -- ./build.sh"),
		Shell(w.Rac+" run --summary -- ./build.sh"),
		Shell("make"),
		mcpCall("run", map[string]any{"command": "./build.sh"}),
		// the same output, passing: no invented cause
		Shell("BUILD_EXIT=0 "+w.Rac+" run --summary -- ./build.sh"),
		Shell("BUILD_EXIT=0 "+w.Rac+" run -- ./build.sh"),
		// a passing output within the window: the same bytes but rac's lines
		Shell("seq 1 1000"),
		Shell(w.Rac+" run -- seq 1 1000"),
		Say("done"))
	home := w.codexMCPHome(m)
	w.RunEnv([]string{"CODEX_HOME=" + home}, w.Rac, "agent-init", "codex", "--user")
	args := codexArgs(fullAccess, "")
	args = append(args[:len(args)-1], "--dangerously-bypass-hook-trust", "go")
	h := w.harness(bin, append(codexEnv(home), "RAC_MCP_RUN=true"), args...)
	require.NoError(t, h.Err)
	cmds := codexCommands(t, h)
	require.Len(t, cmds, 8, "the shell calls Codex ran")
	assert.Contains(t, cmds[3], " run -- make", "the hook did not rewrite make")
	// (d) went through MCP: Codex started rac-mcp from agent-init codex
	// --mcp's registration and called its run tool, once
	assert.Equal(t, []string{"rac/run completed"}, codexMCPCalls(t, h), "the MCP calls Codex made")
	rs := results(t, m, 9)
	assert.False(t, rs[4].IsError, "MCP run: %.300s", rs[4].Output)
	checkLong(t, "Codex", rs[:5], true, true)
	checkPassingLong(t, rs[5:7])
	// Codex puts stdout first, then stderr (rac's lines)
	_, without := codexOutput(t, rs[7])
	_, with := codexOutput(t, rs[8])
	assert.Equal(t, without, withoutRacLines(with), "a passing output within the window is not the same as without rac")
}

// codexMCPCalls are the MCP tool calls Codex's JSON events report done,
// as "SERVER/TOOL STATUS".
func codexMCPCalls(t *testing.T, h Harness) []string {
	t.Helper()
	var calls []string
	for _, l := range strings.Split(h.Stdout, "\n") {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type   string `json:"type"`
				Server string `json:"server"`
				Tool   string `json:"tool"`
				Status string `json:"status"`
			} `json:"item"`
		}
		if json.Unmarshal([]byte(l), &ev) == nil && ev.Type == "item.completed" && ev.Item.Type == "mcp_tool_call" {
			calls = append(calls, ev.Item.Server+"/"+ev.Item.Tool+" "+ev.Item.Status)
		}
	}
	return calls
}

// Gemini CLI: the same five ways, the hook route being agent-init
// gemini's BeforeTool hook (no trust step), the MCP route agent-init
// gemini --mcp's registration of rac-mcp in the same settings file.
func TestGeminiLongOutput(t *testing.T) {
	bin := need(t, "gemini")
	needMCP(t)
	w := newWorld(t)
	w.writeBuild()
	gh := w.geminiHome()
	w.RunEnv([]string{"GEMINI_CLI_HOME=" + gh}, w.Rac, "agent-init", "gemini", "--user")
	w.RunEnv([]string{"GEMINI_CLI_HOME=" + gh}, w.Rac, "agent-init", "gemini", "--mcp", "--user")
	m := newMock(t, gemini{},
		Shell("./build.sh"),
		Shell("rac run -- ./build.sh"),
		Shell("rac run --summary -- ./build.sh"),
		Shell("make"),
		Step{Tool: geminiMCPTool("run"), Input: map[string]any{"command": "./build.sh"}},
		Shell("BUILD_EXIT=0 rac run --summary -- ./build.sh"),
		Shell("BUILD_EXIT=0 rac run -- ./build.sh"),
		Shell("seq 1 2000"),
		Shell("rac run -- seq 1 2000"),
		Say("done"))
	h := w.harness(bin, append(geminiEnv(m, gh), "RAC_MCP_RUN=true"), "-p", "go", "--yolo", "--output-format", "json")
	require.NoError(t, h.Err)
	if len(m.Results()) != 9 {
		t.Logf("tools offered: %v", offeredTools(m))
	}
	rs := results(t, m, 9)
	checkLong(t, "Gemini CLI", rs[:5], true, true)
	checkPassingLong(t, rs[5:7])
	assert.Equal(t, geminiBody(rs[7].Output), withoutRacLines(geminiBody(rs[8].Output)), "a passing output within the window is not the same as without rac")
}

// geminiMCPTool is the name Gemini CLI gives rac-mcp's tool (server
// "rac").
func geminiMCPTool(tool string) string { return "mcp_rac_" + tool }

// Commands in a pipeline or a substitution under an agent write into the
// pipe the same bytes as without rac: with agent-init claude's functions
// (git is wrapped), git log | head, git log | grep and $(git log) give the
// model what command git gives it, but for rac's own lines on stderr.
func TestClaudePipelinesKeepTheirBytes(t *testing.T) {
	bin := need(t, "claude")
	w := newWorld(t)
	w.agentInit("claude", "--user")
	cmds := []string{
		"git log --format=%H%n%s%n%b | head -2",
		"git log --format=%s | grep first",
		`echo "$(git log --format=%H:%s)" | od -c`,
	}
	var steps []Step
	for _, c := range cmds {
		steps = append(steps, Shell(c), Shell(strings.ReplaceAll(c, "git log", "command git log")))
	}
	m := newMock(t, anthropic{}, append(steps, Say("done"))...)
	require.NoError(t, w.claude(bin, m, nil).Err)
	rs := results(t, m, 2*len(cmds))
	for i, c := range cmds {
		with, without := rs[2*i], rs[2*i+1]
		assert.Contains(t, with.Output, "rac: recording ", "%s: git was not wrapped (the test tests nothing)", c)
		assert.Equal(t, without.Output, withoutRacLines(with.Output), "%s: the pipe got other bytes with rac", c)
	}
}

// The same for Codex (stdout and stderr are two pipes: rac's lines come
// after the output) and Gemini CLI (its result names the call's process
// group, a pid), with rac run typed in front of git log: the pipe and
// the substitution get git's bytes. Gemini CLI refuses a command with a
// substitution outright ("Command injection detected"), with or without
// rac, so it runs the two pipelines and the test pins the refusal.
func TestPipelinesKeepTheirBytes(t *testing.T) {
	pipes := []string{
		"git log --format=%H%n%s%n%b | head -2",
		"git log --format=%s | grep first",
	}
	subst := `echo "$(git log --format=%H:%s)" | od -c`
	for _, h := range []struct {
		bin  string
		cmds []string
		rac  func(w *World) string
		prov provider
		run  func(w *World, m *Mock) Harness
		body func(t *testing.T, r ToolResult) string
	}{
		{"codex", append(pipes, subst), func(w *World) string { return w.Rac }, openai{},
			func(w *World, m *Mock) Harness { return w.codex(w.binOf("codex"), m, fullAccess, "") },
			func(t *testing.T, r ToolResult) string { _, out := codexOutput(t, r); return out }},
		{"gemini", pipes, func(*World) string { return "rac" }, gemini{},
			func(w *World, m *Mock) Harness { return w.gemini(w.binOf("gemini"), m, nil) },
			func(_ *testing.T, r ToolResult) string { return geminiBody(r.Output) }},
	} {
		t.Run(h.bin, func(t *testing.T) {
			need(t, h.bin)
			w := newWorld(t)
			var steps []Step
			for _, c := range h.cmds {
				steps = append(steps, Shell(c), Shell(strings.Replace(c, "git log", h.rac(w)+" run -- git log", 1)))
			}
			if h.bin == "gemini" {
				steps = append(steps, Shell(subst))
			}
			m := newMock(t, h.prov, append(steps, Say("done"))...)
			require.NoError(t, h.run(w, m).Err)
			rs := results(t, m, len(steps))
			if h.bin == "gemini" {
				assert.Contains(t, rs[len(steps)-1].Output, "Command injection detected",
					"Gemini CLI now runs a command substitution: add it to the commands compared")
			}
			for i, c := range h.cmds {
				without, with := rs[2*i], rs[2*i+1]
				assert.Contains(t, with.Output, "rac: recording ", "%s: rac did not record (the test tests nothing)", c)
				assert.Equal(t, h.body(t, without), withoutRacLines(h.body(t, with)), "%s: the pipe got other bytes with rac", c)
			}
		})
	}
}
