package harnesstest

import (
	"fmt"
	"os"
	"path/filepath"
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
	for _, r := range rs[5:7] {
		assert.NotContains(t, r.Output, "cause (", "a passing run got a cause")
		assert.NotContains(t, r.Output, "rac: more:")
		assert.Regexp(t, refLine, r.Output)
	}
	assert.Equal(t, rs[7].Output, withoutRacLines(rs[8].Output), "a passing output within the window is not the same as without rac")
}

// Codex keeps about 10,000 characters of a result for a model it does not
// know (a head and a tail): the same four ways but the hook route (a
// Codex hook runs only once trusted; TestCodexHook covers it).
func TestCodexLongOutput(t *testing.T) {
	bin := need(t, "codex")
	needMCP(t)
	w := newWorld(t)
	w.writeBuild()
	m := newMock(t, openaiMCP{},
		Shell("./build.sh"),
		Shell(w.Rac+" run -- ./build.sh"),
		Shell(w.Rac+" run --summary -- ./build.sh"),
		mcpCall("run", map[string]any{"command": "./build.sh"}),
		Say("done"))
	h := w.harness(bin, append(codexEnv(w.codexMCPHome(m)), "RAC_MCP_RUN=true"), codexArgs(fullAccess, "")...)
	require.NoError(t, h.Err)
	checkLong(t, "Codex", results(t, m, 4), false, true)
}

// Gemini CLI: rac run and --summary (its hook route is TestGeminiHookResume's
// BeforeTool rewrite; its MCP registration is not driven here).
func TestGeminiLongOutput(t *testing.T) {
	bin := need(t, "gemini")
	w := newWorld(t)
	w.writeBuild()
	m := newMock(t, gemini{},
		Shell("./build.sh"),
		Shell("rac run -- ./build.sh"),
		Shell("rac run --summary -- ./build.sh"),
		Say("done"))
	require.NoError(t, w.gemini(bin, m, nil).Err)
	checkLong(t, "Gemini CLI", results(t, m, 3), false, false)
}

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
