//go:build linux

package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stand-in harness: this test binary re-executed as a small agent
// harness that runs each "tool call" as `bash -c SCRIPT`, in a new process
// session (setsid, stdin on /dev/null, as Codex and Claude Code do), on a
// fresh pty (as Gemini CLI and Aider do), or plainly, injecting its marker
// and optionally its id into the calls' environment only. A call runs the
// test binary again, which prints what Identify says, on the real /proc.
//
//	TESTBIN -test.run=^TestStandinHelper$ -- rac-session-helper standin SPEC
//	TESTBIN -test.run=^TestStandinHelper$ -- rac-session-helper identify OUT
//	TESTBIN -test.run=^TestStandinHelper$ -- rac-session-helper hold N
//
// hold starts a chain of N processes, each the parent of the next; the
// last prints its pid and waits for stdin to close (the benchmark's real
// ancestor chain).

const helperMagic = "rac-session-helper"

// standinSpec tells a stand-in what to do.
type standinSpec struct {
	Inject map[string]string // into every call's environment, never the stand-in's own
	Calls  []standinCall
	Self   string // file the stand-in writes its own pid and session to
}

type standinCall struct {
	Mode   string // setsid, pty or plain
	Script string // run as bash -c Script
}

// helperResult is what one call saw.
type helperResult struct {
	Name, Rule, Source, Var, RawID string
	FromAgent                      bool
	Err                            string
	PID, SID, TTY                  int
}

func TestStandinHelper(t *testing.T) {
	args := flag.Args()
	if len(args) < 3 || args[0] != helperMagic {
		t.Skip("runs only as a helper process of the stand-in harness tests")
	}
	var err error
	switch args[1] {
	case "identify":
		err = helperIdentify(args[2])
	case "standin":
		err = helperStandin(args[2])
	case "hold":
		err = helperHold(args[2])
	default:
		err = fmt.Errorf("unknown role %q", args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

func helperIdentify(out string) error {
	id, err := Identify(Options{})
	res := helperResult{Name: id.Name, Rule: id.Rule, Source: id.Source, Var: id.Var, RawID: id.RawID, FromAgent: id.FromAgent}
	if err != nil {
		res.Err = err.Error()
	}
	st, err := SystemProc().Stat(os.Getpid())
	if err != nil {
		return err
	}
	res.PID, res.SID, res.TTY = st.PID, st.SID, st.TTY
	return writeJSON(out, res)
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

func helperStandin(specJSON string) error {
	var spec standinSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		return err
	}
	if spec.Self != "" {
		st, err := SystemProc().Stat(os.Getpid())
		if err != nil {
			return err
		}
		if err := writeJSON(spec.Self, st); err != nil {
			return err
		}
	}
	env := os.Environ()
	for k, v := range spec.Inject {
		env = append(env, k+"="+v)
	}
	for _, c := range spec.Calls {
		if err := runCall(c, env); err != nil {
			return fmt.Errorf("%s call %q: %w", c.Mode, c.Script, err)
		}
	}
	return nil
}

func helperHold(arg string) error {
	var n int
	if _, err := fmt.Sscan(arg, &n); err != nil {
		return err
	}
	if n <= 1 {
		fmt.Println(os.Getpid())
		_, err := io.Copy(io.Discard, os.Stdin)
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, "-test.run=^TestStandinHelper$", "--", helperMagic, "hold", fmt.Sprint(n-1))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}

func runCall(c standinCall, env []string) error {
	cmd := exec.Command("bash", "-c", c.Script)
	cmd.Env = env
	switch c.Mode {
	case "setsid", "plain":
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr // stdin stays /dev/null
		if c.Mode == "setsid" {
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		}
		return cmd.Run()
	case "pty":
		ptmx, err := pty.Start(cmd) // a new session with the pty as its terminal
		if err != nil {
			return err
		}
		copied := make(chan struct{})
		go func() {
			// Ends with EIO once every holder of the terminal is gone.
			_, _ = io.Copy(os.Stderr, ptmx)
			close(copied)
		}()
		err = cmd.Wait()
		<-copied
		return errors.Join(err, ptmx.Close())
	}
	return fmt.Errorf("unknown mode %q", c.Mode)
}

// harnessRig runs stand-ins from a test.
type harnessRig struct {
	dir string
	exe string
	mu  sync.Mutex
	n   int
}

func newRig(t *testing.T) *harnessRig {
	exe, err := os.Executable()
	require.NoError(t, err)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found: the stand-in runs its calls as bash -c")
	}
	return &harnessRig{dir: t.TempDir(), exe: exe}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (r *harnessRig) file(tag string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	return filepath.Join(r.dir, fmt.Sprintf("%s-%d.json", tag, r.n))
}

func (r *harnessRig) helper(role, arg string) string {
	return shellQuote(r.exe) + " -test.run=^TestStandinHelper$ -- " + helperMagic + " " + role + " " + shellQuote(arg)
}

// call is one tool call that reports what Identify says into out. With
// fork, bash stays alive as the call's parent (it has more to do after
// the command), as in real harnesses' wrappers; without, bash execs it.
type call struct {
	mode   string
	prefix string // shell text before the command, e.g. "RAC_SESSION=mine "
	fork   bool
	out    string
}

func (c call) script(r *harnessRig) string {
	s := c.prefix + r.helper("identify", c.out)
	if c.fork {
		s += "; status=$?; exit $status"
	}
	return s
}

// calls is the usual set: every mode, and bash both exec'ing the command
// and staying as its parent (each helper process costs a start-up, so not
// every combination).
func (r *harnessRig) calls(tag, prefix string) []call {
	var cs []call
	for _, c := range []struct {
		mode string
		fork bool
	}{{"setsid", false}, {"setsid", true}, {"pty", true}, {"plain", false}} {
		cs = append(cs, call{mode: c.mode, prefix: prefix, fork: c.fork, out: r.file(tag)})
	}
	return cs
}

// spec is the stand-in spec running cs with inject.
func (r *harnessRig) spec(inject map[string]string, self string, cs ...call) standinSpec {
	s := standinSpec{Inject: inject, Self: self}
	for _, c := range cs {
		s.Calls = append(s.Calls, standinCall{Mode: c.mode, Script: c.script(r)})
	}
	return s
}

// command is the command line that starts a stand-in running spec.
func (r *harnessRig) command(spec standinSpec) []string {
	b, err := json.Marshal(spec)
	if err != nil {
		panic(err) // plain strings and maps always marshal
	}
	return []string{r.exe, "-test.run=^TestStandinHelper$", "--", helperMagic, "standin", string(b)}
}

// shell is command as shell text, for a call that starts another stand-in.
func (r *harnessRig) shell(spec standinSpec) string {
	var q []string
	for _, a := range r.command(spec) {
		q = append(q, shellQuote(a))
	}
	return strings.Join(q, " ")
}

// cleanEnv is the test's environment without anything Identify reads, so
// the tests do not depend on the agent or terminal that runs them.
func cleanEnv(extra map[string]string) []string {
	drop := map[string]bool{}
	for _, v := range DefaultIDVars {
		drop[v.Var], drop[v.Requires] = true, true
	}
	for _, v := range DefaultMarkerVars {
		drop[v.Var], drop[v.PIDVar] = true, true
	}
	for _, p := range DefaultPaneVars {
		for _, v := range append(append([]string{}, p.Vars...), p.Extra...) {
			drop[v] = true
		}
	}
	var env []string
	gorace := "atexit_sleep_ms=0" // a race-enabled helper would sleep 1 s at exit
	for _, kv := range os.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		switch {
		case name == "GORACE":
			gorace = val + " " + gorace
		case !drop[name] && !strings.HasPrefix(name, "RAC_"):
			env = append(env, kv)
		}
	}
	env = append(env, "GORACE="+gorace)
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

// run runs one stand-in harness whose own environment is the clean
// environment plus above (what the shell that started it exported), and
// returns its own process facts. It only returns errors, so it can run on
// any goroutine.
func (r *harnessRig) run(above map[string]string, spec standinSpec) (ProcStat, error) {
	if spec.Self == "" {
		spec.Self = r.file("standin")
	}
	argv := r.command(spec)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = cleanEnv(above)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return ProcStat{}, fmt.Errorf("stand-in: %w\n%s", err, out.String())
	}
	var st ProcStat
	b, err := os.ReadFile(spec.Self)
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	return st, err
}

// standin runs a stand-in that injects inject into the calls cs.
func (r *harnessRig) standin(t *testing.T, above, inject map[string]string, cs ...call) ProcStat {
	t.Helper()
	st, err := r.run(above, r.spec(inject, "", cs...))
	require.NoError(t, err)
	return st
}

func read(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err, "the call did not report")
	require.NoError(t, json.Unmarshal(b, v))
}

// results reads what the calls saw, checking that each ran the way its
// mode says: a new process session without a terminal, a new session on a
// fresh terminal, or the stand-in's own session.
func results(t *testing.T, standin ProcStat, cs []call) []helperResult {
	t.Helper()
	var out []helperResult
	pids := map[int]bool{}
	for _, c := range cs {
		var res helperResult
		read(t, c.out, &res)
		require.Empty(t, res.Err)
		require.True(t, ValidName(res.Name), "%q", res.Name)
		assert.False(t, pids[res.PID], "two calls in one process")
		pids[res.PID] = true
		switch c.mode {
		case "setsid":
			assert.NotEqual(t, standin.SID, res.SID, "setsid call in the stand-in's session")
			assert.Zero(t, res.TTY, "setsid call has a terminal")
		case "pty":
			assert.NotEqual(t, standin.SID, res.SID, "pty call in the stand-in's session")
			assert.NotZero(t, res.TTY, "pty call has no terminal")
		case "plain":
			assert.Equal(t, standin.SID, res.SID, "plain call not in the stand-in's session")
		}
		out = append(out, res)
	}
	return out
}

// oneName asserts every result names the same session and returns it.
func oneName(t *testing.T, rs []helperResult) string {
	t.Helper()
	require.NotEmpty(t, rs)
	for _, r := range rs {
		assert.Equal(t, rs[0].Name, r.Name, "calls of one conversation in different sessions: %+v", rs)
	}
	return rs[0].Name
}

func TestStandinCallsShareTheSession(t *testing.T) {
	t.Parallel()
	r := newRig(t)

	t.Run("by the harness id", func(t *testing.T) {
		cs := r.calls("id", "")
		st := r.standin(t, nil, map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": uuidA}, cs...)
		rs := results(t, st, cs)
		assert.Equal(t, "claude-"+uuidA, oneName(t, rs))
		for _, res := range rs {
			assert.Equal(t, RuleHarnessID, res.Rule)
			assert.True(t, res.FromAgent)
		}
	})

	t.Run("by the injection boundary without an id", func(t *testing.T) {
		cs := r.calls("marker", "")
		st := r.standin(t, nil, map[string]string{"GEMINI_CLI": "1"}, cs...)
		rs := results(t, st, cs)
		name := oneName(t, rs)
		assert.True(t, strings.HasPrefix(name, "agent-gemini-"), name)
		for _, res := range rs {
			assert.Equal(t, RuleAgentMarker, res.Rule)
			assert.True(t, res.FromAgent)
			assert.Contains(t, res.RawID, fmt.Sprintf(" pid=%d ", st.PID), "the session is the stand-in process")
		}
	})

	t.Run("by the harness pid variable", func(t *testing.T) {
		// An outer stand-in passes its own pid as CLAUDE_PID to an inner
		// one that injects only the marker: the injection boundary (the
		// inner one) and CLAUDE_PID (the outer one) disagree, and
		// CLAUDE_PID must win.
		cs := r.calls("pidvar", "")
		innerSelf := r.file("inner")
		inner := r.shell(r.spec(map[string]string{"CLAUDECODE": "1"}, innerSelf, cs...))
		outer, err := r.run(nil, standinSpec{Calls: []standinCall{{Mode: "setsid", Script: "CLAUDE_PID=$PPID " + inner}}})
		require.NoError(t, err)
		var innerSt ProcStat
		read(t, innerSelf, &innerSt)
		rs := results(t, innerSt, cs)
		oneName(t, rs)
		for _, res := range rs {
			assert.Equal(t, RuleAgentMarker, res.Rule)
			assert.Contains(t, res.RawID, fmt.Sprintf(" pid=%d ", outer.PID), "CLAUDE_PID names the session's process")
		}
	})
}

func TestStandinTwoConversationsNeverShare(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	for _, tt := range []struct {
		name   string
		a, b   map[string]string
		prefix string
	}{
		{"same marker, no id", map[string]string{"CLAUDECODE": "1"}, map[string]string{"CLAUDECODE": "1"}, "agent-claude-"},
		{"different ids", map[string]string{"CODEX_THREAD_ID": uuidA}, map[string]string{"CODEX_THREAD_ID": uuidB}, "codex-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Both stand-ins run at the same time, as two conversations do.
			ca, cb := r.calls("a", ""), r.calls("b", "")
			var sa, sb ProcStat
			var ea, eb error
			var wg sync.WaitGroup
			wg.Go(func() { sa, ea = r.run(nil, r.spec(tt.a, "", ca...)) })
			wg.Go(func() { sb, eb = r.run(nil, r.spec(tt.b, "", cb...)) })
			wg.Wait()
			require.NoError(t, ea)
			require.NoError(t, eb)
			na, nb := oneName(t, results(t, sa, ca)), oneName(t, results(t, sb, cb))
			assert.NotEqual(t, na, nb, "two conversations in one session")
			assert.True(t, strings.HasPrefix(na, tt.prefix) && strings.HasPrefix(nb, tt.prefix), "%s %s", na, nb)
		})
	}
}

func TestStandinNested(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	outerInject := map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": uuidA}
	for _, tt := range []struct {
		name   string
		inner  map[string]string
		want   string // "" for a marker session
		prefix string
	}{
		{"inner id in another variable, later in table order", map[string]string{"CODEX_SANDBOX": "seccomp", "CODEX_THREAD_ID": uuidB}, "codex-" + uuidB, ""},
		{"inner id in the same variable", map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": uuidB}, "claude-" + uuidB, ""},
		{"inner agent with only a marker", map[string]string{"GEMINI_CLI": "1"}, "", "agent-gemini-"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			innerCalls := r.calls("inner", "")
			innerSelf := r.file("inner-standin")
			direct := []call{{mode: "setsid", fork: true, out: r.file("outer")}, {mode: "pty", out: r.file("outer")}}
			_, err := r.run(nil, standinSpec{Inject: outerInject, Calls: []standinCall{
				{Mode: "setsid", Script: direct[0].script(r)},
				// The agent's shell starts another agent.
				{Mode: "setsid", Script: r.shell(r.spec(tt.inner, innerSelf, innerCalls...)) + "; status=$?; exit $status"},
				{Mode: "pty", Script: direct[1].script(r)},
			}})
			require.NoError(t, err)

			outer := oneName(t, readResults(t, direct))
			assert.Equal(t, "claude-"+uuidA, outer)
			var innerSt ProcStat
			read(t, innerSelf, &innerSt)
			name := oneName(t, results(t, innerSt, innerCalls))
			assert.NotEqual(t, outer, name, "the inner conversation merged into the outer one")
			if tt.want != "" {
				assert.Equal(t, tt.want, name)
			} else {
				assert.True(t, strings.HasPrefix(name, tt.prefix), name)
			}
		})
	}
}

func readResults(t *testing.T, cs []call) []helperResult {
	t.Helper()
	var rs []helperResult
	for _, c := range cs {
		var res helperResult
		read(t, c.out, &res)
		require.Empty(t, res.Err)
		rs = append(rs, res)
	}
	return rs
}

func TestStandinRACSession(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	above := map[string]string{"RAC_SESSION": "shared"}

	for _, tt := range []struct {
		name string
		a, b map[string]string
	}{
		{"with ids", map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": uuidA}, map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": uuidB}},
		{"with only markers", map[string]string{"OPENCODE": "1"}, map[string]string{"OPENCODE": "1"}},
	} {
		t.Run("exported above the stand-in does not merge, "+tt.name, func(t *testing.T) {
			ca, cb := r.calls("a", ""), r.calls("b", "")
			sa := r.standin(t, above, tt.a, ca...)
			sb := r.standin(t, above, tt.b, cb...)
			na, nb := oneName(t, results(t, sa, ca)), oneName(t, results(t, sb, cb))
			assert.NotEqual(t, na, nb)
			assert.NotEqual(t, "shared", na)
			assert.NotEqual(t, "shared", nb)
		})
	}

	t.Run("set in the call itself wins", func(t *testing.T) {
		inject := map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": uuidA}
		cs := append(r.calls("assign", "RAC_SESSION=mine "), r.calls("export", "export RAC_SESSION=mine; ")...)
		st := r.standin(t, above, inject, cs...)
		for _, res := range results(t, st, cs) {
			assert.Equal(t, "mine", res.Name)
			assert.Equal(t, RuleEnv, res.Rule)
		}
		// Also under a stand-in with only a marker.
		cs = r.calls("marker", "RAC_SESSION=mine ")
		st = r.standin(t, above, map[string]string{"GEMINI_CLI": "1"}, cs...)
		assert.Equal(t, "mine", oneName(t, results(t, st, cs)))
	})

	t.Run("exported with no agent at all is used", func(t *testing.T) {
		cs := r.calls("noagent", "")
		st := r.standin(t, above, nil, cs...)
		assert.Equal(t, "shared", oneName(t, results(t, st, cs)))
	})
}
