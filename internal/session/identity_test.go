package session

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	uuidA = "0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"
	uuidB = "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a"
)

// terminal is the top of most fake chains: init, then a login shell that
// leads a process session on a terminal.
func terminal(extra ...lvl) []lvl {
	return append([]lvl{
		{set: []string{"PATH=/usr/bin", "HOME=/home/u"}},
		{setsid: true, tty: 34816, argv: []string{"-bash"}},
	}, extra...)
}

func identify(t *testing.T, o Options) Identity {
	t.Helper()
	id, err := Identify(o)
	require.NoError(t, err)
	require.True(t, ValidName(id.Name), "invalid name %q", id.Name)
	checkReport(t, id)
	return id
}

// checkReport asserts the report's shape: every rule once, in order, the
// chosen one taken, the ones before it skipped, the ones after not reached.
func checkReport(t *testing.T, id Identity) {
	t.Helper()
	require.Len(t, id.Report, len(Rules))
	seenTaken := false
	for i, rep := range id.Report {
		assert.Equal(t, Rules[i], rep.Rule)
		assert.NotEmpty(t, rep.Why, "rule %s has no reason", rep.Rule)
		switch {
		case rep.Rule == id.Rule:
			assert.True(t, rep.Taken && rep.Reached, "rule %s chose the session but is not taken", rep.Rule)
			seenTaken = true
		case seenTaken:
			assert.False(t, rep.Taken || rep.Reached, "rule %s after the taken one", rep.Rule)
		default:
			assert.True(t, rep.Reached && !rep.Taken, "rule %s before the taken one", rep.Rule)
		}
	}
	assert.True(t, seenTaken)
}

func explain(t *testing.T, id Identity) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, id.WriteExplain(&b))
	return b.String()
}

func TestFlagAndEnv(t *testing.T) {
	f, _ := chain(terminal(lvl{})...)
	env := envMap(map[string]string{"RAC_SESSION": "from-env", "CLAUDE_CODE_SESSION_ID": uuidA})

	id := identify(t, Options{Flag: "work", Getenv: env, Proc: f})
	assert.Equal(t, Identity{Name: "work", Rule: RuleFlag, Source: "--session"}, withoutReport(id))

	id = identify(t, Options{Getenv: env, Proc: f})
	assert.Equal(t, Identity{Name: "from-env", Rule: RuleEnv, Source: "RAC_SESSION", Var: "RAC_SESSION"}, withoutReport(id))

	for _, bad := range []string{"Work", "-x", "a/b", "..", strings.Repeat("a", 65), "a b", "é"} {
		_, err := Identify(Options{Flag: bad, Getenv: env, Proc: f})
		require.ErrorIs(t, err, ErrInvalidName, "flag %q", bad)
		assert.Contains(t, err.Error(), NameForm)
		assert.Contains(t, err.Error(), "--session")

		_, err = Identify(Options{Getenv: envMap(map[string]string{"RAC_SESSION": bad}), Proc: f})
		require.ErrorIs(t, err, ErrInvalidName, "RAC_SESSION %q", bad)
		assert.Contains(t, err.Error(), "RAC_SESSION")
	}
}

func withoutReport(id Identity) Identity {
	id.Report = nil
	return id
}

// The core issue's rule: RAC_SESSION wins unless it was inherited from
// above the agent harness.
func TestEnvInheritedFromAboveHarness(t *testing.T) {
	claude := []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=" + uuidA}
	tests := []struct {
		name     string
		levels   []lvl
		proc     Proc // nil: the chain
		wantRule string
		wantName string
	}{
		{
			name:     "exported in the shell that started the harness",
			levels:   terminal(lvl{set: []string{"RAC_SESSION=work"}}, lvl{setsid: true, set: claude}, lvl{}),
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA,
		},
		{
			name:     "exported at login, harness id",
			levels:   []lvl{{set: []string{"RAC_SESSION=work"}}, {setsid: true, tty: 1}, {}, {setsid: true, set: claude}, {}},
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA,
		},
		{
			name:     "exported above a harness with only a marker",
			levels:   terminal(lvl{set: []string{"RAC_SESSION=work"}}, lvl{setsid: true, set: []string{"GEMINI_CLI=1"}}, lvl{}),
			wantRule: RuleAgentMarker,
		},
		{
			name:     "set in the call's own command",
			levels:   terminal(lvl{}, lvl{setsid: true, set: claude}, lvl{set: []string{"RAC_SESSION=mine"}}),
			wantRule: RuleEnv, wantName: "mine",
		},
		{
			name:     "set in the call overrides one exported above",
			levels:   terminal(lvl{set: []string{"RAC_SESSION=work"}}, lvl{setsid: true, set: claude}, lvl{set: []string{"RAC_SESSION=mine"}}),
			wantRule: RuleEnv, wantName: "mine",
		},
		{
			name:     "injected by the harness together with its id",
			levels:   terminal(lvl{}, lvl{setsid: true, set: append([]string{"RAC_SESSION=chosen"}, claude...)}, lvl{}),
			wantRule: RuleEnv, wantName: "chosen",
		},
		{
			name:     "unreadable harness, exported above it",
			levels:   terminal(lvl{set: []string{"RAC_SESSION=work"}, unreadable: true}, lvl{setsid: true, set: []string{"CODEX_THREAD_ID=t-1"}}, lvl{}),
			wantRule: RuleHarnessID, wantName: DerivedName("codex", "t-1"),
		},
		{
			name:     "unreadable harness, set in the call",
			levels:   terminal(lvl{unreadable: true}, lvl{setsid: true, set: []string{"CODEX_THREAD_ID=t-1"}}, lvl{set: []string{"RAC_SESSION=mine"}}),
			wantRule: RuleEnv, wantName: "mine",
		},
		{
			name:     "no process table: table order",
			levels:   terminal(lvl{set: []string{"RAC_SESSION=work"}}, lvl{setsid: true, set: claude}, lvl{}),
			proc:     noProcTable{},
			wantRule: RuleEnv, wantName: "work",
		},
		{
			name:     "exported above, no agent",
			levels:   terminal(lvl{set: []string{"RAC_SESSION=work"}}, lvl{}),
			wantRule: RuleEnv, wantName: "work",
		},
		{
			name:     "exported in every ancestor, harness id injected",
			levels:   []lvl{{set: []string{"RAC_SESSION=work"}}, {}, {setsid: true, set: claude}, {}},
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, env := chain(tt.levels...)
			var p Proc = f
			if tt.proc != nil {
				p = tt.proc
			}
			id := identify(t, Options{Getenv: env, Proc: p})
			assert.Equal(t, tt.wantRule, id.Rule)
			if tt.wantName != "" {
				assert.Equal(t, tt.wantName, id.Name)
			}
			if tt.wantRule != RuleEnv {
				assert.Contains(t, id.Report[1].Why, "RAC_SESSION")
				assert.True(t, id.FromAgent)
			}
		})
	}
}

func TestInheritedInvalidEnvIsNotAnError(t *testing.T) {
	f, env := chain(terminal(lvl{set: []string{"RAC_SESSION=Not Valid\x1b[31m"}}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=" + uuidA}}, lvl{})...)
	id := identify(t, Options{Getenv: env, Proc: f})
	assert.Equal(t, RuleHarnessID, id.Rule)
	out := explain(t, id)
	assert.NotContains(t, out, "\x1b", "a control character reached the report")
	assert.Contains(t, out, `Not Valid\x1b[31m`)

	// The same value set in the call itself is the user's: refused.
	f, env = chain(terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=" + uuidA}}, lvl{set: []string{"RAC_SESSION=Not Valid"}})...)
	_, err := Identify(Options{Getenv: env, Proc: f})
	require.ErrorIs(t, err, ErrInvalidName)
}

func TestHarnessID(t *testing.T) {
	tests := []struct {
		name     string
		levels   []lvl
		proc     Proc
		wantRule string
		wantName string
		wantVar  string
	}{
		{
			name:     "one id",
			levels:   terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=" + strings.ToUpper(uuidA)}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA, wantVar: "CLAUDE_CODE_SESSION_ID",
		},
		{
			name:     "not a uuid",
			levels:   terminal(lvl{}, lvl{setsid: true, set: []string{"AMP_CURRENT_THREAD_ID=  T-Thread/42  "}}, lvl{}),
			wantRule: RuleHarnessID, wantName: DerivedName("amp", "T-Thread/42"), wantVar: "AMP_CURRENT_THREAD_ID",
		},
		{
			name: "nested: the inner agent's id injected nearer wins over table order",
			levels: terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=" + uuidA}},
				lvl{}, lvl{setsid: true, set: []string{"CODEX_THREAD_ID=" + uuidB}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "codex-" + uuidB, wantVar: "CODEX_THREAD_ID",
		},
		{
			name: "nested the other way round",
			levels: terminal(lvl{}, lvl{setsid: true, set: []string{"CODEX_THREAD_ID=" + uuidB}},
				lvl{}, lvl{setsid: true, set: []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=" + uuidA}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA, wantVar: "CLAUDE_CODE_SESSION_ID",
		},
		{
			name:     "two ids injected together: table order",
			levels:   terminal(lvl{}, lvl{setsid: true, set: []string{"CODEX_THREAD_ID=" + uuidB, "CLAUDE_CODE_SESSION_ID=" + uuidA}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA,
		},
		{
			name: "nested, no process table: table order",
			levels: terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=" + uuidA}},
				lvl{}, lvl{setsid: true, set: []string{"CODEX_THREAD_ID=" + uuidB}}, lvl{}),
			proc:     noProcTable{},
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA,
		},
		{
			name:     "goose id needs GOOSE_TERMINAL",
			levels:   terminal(lvl{}, lvl{setsid: true, set: []string{"AGENT_SESSION_ID=" + uuidA}}, lvl{}),
			wantRule: RuleProcessSession,
		},
		{
			name:     "goose id with GOOSE_TERMINAL",
			levels:   terminal(lvl{}, lvl{setsid: true, set: []string{"AGENT_SESSION_ID=" + uuidA, "GOOSE_TERMINAL=1"}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "goose-" + uuidA,
		},
		{
			name:     "blank id is not an id",
			levels:   terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=  ", "CODEX_THREAD_ID=" + uuidB}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "codex-" + uuidB,
		},
		{
			name: "an agent with only a marker inside an agent with an id",
			levels: terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=" + uuidA}},
				lvl{}, lvl{setsid: true, set: []string{"GEMINI_CLI=1"}}, lvl{}),
			wantRule: RuleAgentMarker,
		},
		{
			name: "a nearer marker of the same agent does not override its id",
			levels: terminal(lvl{}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=" + uuidA}},
				lvl{set: []string{"CLAUDECODE=1"}}, lvl{}),
			wantRule: RuleHarnessID, wantName: "claude-" + uuidA,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, env := chain(tt.levels...)
			var p Proc = f
			if tt.proc != nil {
				p = tt.proc
			}
			id := identify(t, Options{Getenv: env, Proc: p})
			assert.Equal(t, tt.wantRule, id.Rule)
			if tt.wantName != "" {
				assert.Equal(t, tt.wantName, id.Name)
			}
			if tt.wantVar != "" {
				assert.Equal(t, tt.wantVar, id.Var)
			}
			if id.Rule == RuleHarnessID {
				assert.True(t, id.FromAgent)
				assert.Equal(t, strings.TrimSpace(env(id.Var)), id.RawID)
			}
		})
	}
}

// agentCall is a chain for calls of one harness: the harness at pid 20
// injects the marker into each call (pid 30, its own process session).
func agentCall(marker string, harness lvl, call lvl) []lvl {
	call.set = append(call.set, marker)
	return terminal(harness, call, lvl{})
}

func TestAgentMarker(t *testing.T) {
	t.Run("the harness is the injection boundary", func(t *testing.T) {
		f, env := chain(agentCall("GEMINI_CLI=1", lvl{}, lvl{setsid: true})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleAgentMarker, id.Rule)
		assert.True(t, id.FromAgent)
		assert.Equal(t, "gemini", id.Source)
		assert.Equal(t, "GEMINI_CLI", id.Var)
		assert.True(t, strings.HasPrefix(id.Name, "agent-gemini-"), id.Name)
		assert.Equal(t, "boot=boot-1 pid=20 start=1200", id.RawID)

		// Another call of the same harness: a new process, a new process
		// session, a fresh terminal, one level deeper: same session.
		f2, env2 := chain(agentCall("GEMINI_CLI=1", lvl{}, lvl{setsid: true, tty: 99})...)
		f2.procs[30].st.Start, f2.procs[40].st.Start = 5000, 5001
		f2.procs[55] = &fakeProcess{st: ProcStat{PID: 55, PPID: 40, SID: 30, Start: 5002}, env: f2.procs[40].env}
		f2.self = 55
		assert.Equal(t, id.Name, identify(t, Options{Getenv: env2, Proc: f2}).Name)

		// The same pid reused by another harness after a restart, or after
		// a reboot: never the same session.
		f3, env3 := chain(agentCall("GEMINI_CLI=1", lvl{}, lvl{setsid: true})...)
		f3.procs[20].st.Start = 7777
		assert.NotEqual(t, id.Name, identify(t, Options{Getenv: env3, Proc: f3}).Name)
		f4, env4 := chain(agentCall("GEMINI_CLI=1", lvl{}, lvl{setsid: true})...)
		f4.boot = "boot-2"
		assert.NotEqual(t, id.Name, identify(t, Options{Getenv: env4, Proc: f4}).Name)
	})

	t.Run("an unreadable environment is a boundary", func(t *testing.T) {
		// Codex marks itself non-dumpable; its calls see CODEX_SANDBOX.
		f, env := chain(terminal(lvl{unreadable: true}, lvl{setsid: true, set: []string{"CODEX_SANDBOX=seccomp"}}, lvl{})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleAgentMarker, id.Rule)
		assert.True(t, strings.HasPrefix(id.Name, "agent-codex-"), id.Name)
		assert.Contains(t, id.RawID, "pid=20 ")
		assert.Contains(t, explain(t, id), "cannot read")
	})

	t.Run("CLAUDE_PID alive and older than rac", func(t *testing.T) {
		f, env := chain(agentCall("CLAUDECODE=1", lvl{}, lvl{setsid: true, set: []string{"CLAUDE_PID=10"}})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleAgentMarker, id.Rule)
		assert.Contains(t, id.RawID, "pid=10 ")
		assert.Contains(t, explain(t, id), "CLAUDE_PID=10: alive")
	})

	for _, bad := range []string{"CLAUDE_PID=999", "CLAUDE_PID=x", "CLAUDE_PID=-1", "CLAUDE_PID=77"} {
		t.Run("ignored "+bad, func(t *testing.T) {
			f, env := chain(agentCall("CLAUDECODE=1", lvl{}, lvl{setsid: true, set: []string{bad}})...)
			// pid 77 is alive but started after rac: the harness's pid,
			// reused by another process.
			f.procs[77] = &fakeProcess{st: ProcStat{PID: 77, PPID: 1, SID: 77, Start: 99999}}
			id := identify(t, Options{Getenv: env, Proc: f})
			assert.Equal(t, RuleAgentMarker, id.Rule)
			assert.Contains(t, id.RawID, "pid=20 ", "fell back to the injection boundary")
			assert.Contains(t, explain(t, id), "ignored")
		})
	}

	t.Run("OPENCODE_PID", func(t *testing.T) {
		f, env := chain(agentCall("OPENCODE=1", lvl{}, lvl{setsid: true, set: []string{"OPENCODE_PID=10"}})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.True(t, strings.HasPrefix(id.Name, "agent-opencode-"), id.Name)
		assert.Contains(t, id.RawID, "pid=10 ")
	})

	t.Run("nearest marker wins", func(t *testing.T) {
		f, env := chain(terminal(lvl{}, lvl{set: []string{"CLAUDECODE=1"}}, lvl{}, lvl{setsid: true, set: []string{"QWEN_CODE=1"}}, lvl{})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.True(t, strings.HasPrefix(id.Name, "agent-qwen-"), id.Name)
	})

	t.Run("markers injected together: table order", func(t *testing.T) {
		f, env := chain(agentCall("AI_AGENT=x", lvl{}, lvl{setsid: true, set: []string{"CURSOR_AGENT=1"}})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.True(t, strings.HasPrefix(id.Name, "agent-cursor-"), id.Name)
	})

	t.Run("set in every ancestor: no harness, falls through", func(t *testing.T) {
		f, env := chain(append([]lvl{{set: []string{"AGENT=1"}}}, lvl{setsid: true, tty: 5, argv: []string{"-zsh"}}, lvl{})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleProcessSession, id.Rule)
		assert.Contains(t, id.Report[3].Why, "every ancestor")
	})

	t.Run("no process table: falls through", func(t *testing.T) {
		_, env := chain(agentCall("GEMINI_CLI=1", lvl{}, lvl{setsid: true})...)
		id := identify(t, Options{Getenv: env, Proc: noProcTable{}})
		assert.Equal(t, RuleDefault, id.Rule)
		assert.Contains(t, id.Report[3].Why, "no process table")
	})
}

func TestProcessSession(t *testing.T) {
	t.Run("one terminal: every shell and script in it shares", func(t *testing.T) {
		f, env := chain(terminal(lvl{})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleProcessSession, id.Rule)
		assert.True(t, strings.HasPrefix(id.Name, "tty-"), id.Name)
		assert.False(t, id.FromAgent)
		assert.Empty(t, id.Report[5].Hint, "an interactive terminal needs no hint")

		f2, env2 := chain(terminal(lvl{argv: []string{"bash", "script.sh"}}, lvl{})...)
		assert.Equal(t, id.Name, identify(t, Options{Getenv: env2, Proc: f2}).Name)

		f3, env3 := chain(terminal(lvl{})...)
		f3.procs[10].st.Start = 1 // another terminal's shell with the same pid
		assert.NotEqual(t, id.Name, identify(t, Options{Getenv: env3, Proc: f3}).Name)
		f3.procs[10].st.Start, f3.boot = f.procs[10].st.Start, "boot-2"
		assert.NotEqual(t, id.Name, identify(t, Options{Getenv: env3, Proc: f3}).Name)
	})

	t.Run("an unrecognised agent calling setsid: one session per call, and a hint", func(t *testing.T) {
		f, env := chain(terminal(lvl{}, lvl{setsid: true, argv: []string{"bash", "-c", "rac run -- make"}}, lvl{})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleProcessSession, id.Rule)
		assert.Contains(t, id.Report[5].Hint, "RAC_SESSION")
		assert.Contains(t, explain(t, id), "  hint: ")

		f2, env2 := chain(terminal(lvl{}, lvl{setsid: true, argv: []string{"bash", "-c", "rac run -- make"}}, lvl{})...)
		f2.procs[30].st.Start = 3333 // the next call: a new session leader
		assert.NotEqual(t, id.Name, identify(t, Options{Getenv: env2, Proc: f2}).Name)
	})

	t.Run("a fresh terminal per call with sh -lc gets the hint too", func(t *testing.T) {
		f, env := chain(terminal(lvl{}, lvl{setsid: true, tty: 77, argv: []string{"/bin/sh", "-lc", "rac run -- ls"}}, lvl{})...)
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Contains(t, id.Report[5].Hint, "RAC_SESSION")
	})

	t.Run("leader gone: keyed on the oldest ancestor in the session", func(t *testing.T) {
		f, env := chain(terminal(lvl{setsid: true, tty: 0}, lvl{}, lvl{})...)
		delete(f.procs, 20) // the leader exited; 30 was reparented
		f.procs[30].st.PPID = 1
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleProcessSession, id.Rule)
		assert.Contains(t, explain(t, id), "is gone")

		// A sibling run in the same orphaned session shares it.
		f.procs[41] = &fakeProcess{st: ProcStat{PID: 41, PPID: 30, SID: 20, Start: 9999}, env: f.procs[40].env}
		f.self = 41
		assert.Equal(t, id.Name, identify(t, Options{Getenv: env, Proc: f}).Name)
	})

	t.Run("session not visible: default", func(t *testing.T) {
		f, env := chain(terminal(lvl{})...)
		f.procs[f.self].st.SID = 0
		id := identify(t, Options{Getenv: env, Proc: f})
		assert.Equal(t, RuleDefault, id.Rule)
	})
}

func TestDefaultOnlyWithoutProcessTable(t *testing.T) {
	id := identify(t, Options{Getenv: envMap(nil), Proc: noProcTable{}})
	assert.Equal(t, "default", id.Name)
	assert.Equal(t, RuleDefault, id.Rule)
	assert.Contains(t, id.Report[6].Hint, "RAC_SESSION")
}

func TestNilOptionsUseTheSystem(t *testing.T) {
	id, err := Identify(Options{})
	require.NoError(t, err)
	assert.True(t, ValidName(id.Name))
	checkReport(t, id)
}

func TestExplain(t *testing.T) {
	f, env := chain(terminal(lvl{set: []string{"RAC_SESSION=work", "TMUX=/tmp/tmux-1000/default,77,0", "TMUX_PANE=%3"}},
		lvl{setsid: true, set: []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=" + uuidA}}, lvl{})...)
	id := identify(t, Options{Getenv: env, Proc: f})
	out := explain(t, id)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var ruleLines []string
	for _, l := range lines {
		if strings.HasPrefix(l, "rule ") {
			ruleLines = append(ruleLines, l)
		} else {
			assert.True(t, strings.HasPrefix(l, "  saw ") || strings.HasPrefix(l, "  hint: "), "line %q", l)
		}
	}
	require.Len(t, ruleLines, 7)
	for i, r := range Rules {
		assert.True(t, strings.HasPrefix(ruleLines[i], "rule "+string(rune('1'+i))+" "+r+": "), ruleLines[i])
	}
	assert.Contains(t, ruleLines[0], "skipped: --session not given")
	assert.Contains(t, ruleLines[1], "skipped: RAC_SESSION was inherited from above the agent harness")
	assert.Contains(t, ruleLines[2], "taken: ")
	assert.Contains(t, ruleLines[3], "not reached")
	assert.Contains(t, out, "CLAUDE_CODE_SESSION_ID=0b7e6f4a… (claude)")
	assert.NotContains(t, out, uuidA, "ids are shortened")
	assert.Contains(t, out, "RAC_SESSION=work: injected by pid 10, 3 levels up")
	assert.Contains(t, out, "saw TMUX=/tmp/tmux-1000/default,77,0 TMUX_PANE=%3 (tmux)")

	// A failing writer is reported.
	require.Error(t, id.WriteExplain(failWriter{}))
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestQuoteShort(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"abc":              "abc",
		"0123456789":       "01234567…",
		"a\x1b[2Jb":        `a\x1b[2Jb`,
		"\xff\xfe":         `\xff\xfe`,
		"héllo wörld":      "héllo wö…",
		"tab\there":        `tab\there`,
		"\u202egnp.exe":    `\u202egnp.exe`,
		"\u202egnp.exe!":   `\u202egnp.exe…`,
		`quote"back\slash`: `quote\"ba…`,
	} {
		assert.Equal(t, want, quoteShort(in, 8), "input %q", in)
	}
}
