package faults

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// The edges of issue 29's second attack run: malformed MCP frames through
// the real rac-mcp, deny rules spelled differently through the real rac
// hook claude, symlinked settings files and C1 controls in --json.

// rac-mcp answers every malformed frame and then still answers tools/list.
func TestMCPMalformedFrames(t *testing.T) {
	sc := newScenario(t, "mcp: malformed frames through rac-mcp, then tools/list", true)
	s := newStore(t)
	c := exec.Command(racMCP(t))
	c.Env, c.Dir = s.env, s.dir
	errf, err := os.Create(filepath.Join(s.dir, "mcp-stderr"))
	require.NoError(t, err)
	defer errf.Close()
	c.Stderr = errf
	in, err := c.StdinPipe()
	require.NoError(t, err)
	out, err := c.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, c.Start())
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()

	const listID = 424242
	answered := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				answered <- fmt.Errorf("rac-mcp's output ended before tools/list was answered: %w", err)
				return
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Result struct {
					Tools []any `json:"tools"`
				} `json:"result"`
			}
			if err := json.Unmarshal(line, &msg); err != nil {
				answered <- fmt.Errorf("an answer that is not JSON: %.200q", line)
				return
			}
			if string(msg.ID) == strconv.Itoa(listID) {
				if len(msg.Result.Tools) == 0 {
					answered <- fmt.Errorf("tools/list answered without tools: %.300s", line)
				} else {
					answered <- nil
				}
				_, _ = io.Copy(io.Discard, r)
				return
			}
		}
	}()
	write := func(frame string) {
		_, err := io.WriteString(in, frame+"\n")
		require.NoError(t, err)
	}
	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"faults","version":"1"}}}`)
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for range iterations(10000, 1000) {
		sc.iter()
		write(malformedFrame(sc.rng))
	}
	write(`{"jsonrpc":"2.0","id":` + strconv.Itoa(listID) + `,"method":"tools/list"}`)
	select {
	case err := <-answered:
		if err != nil {
			b, _ := os.ReadFile(errf.Name())
			sc.fail("%v; rac-mcp's stderr: %.500s", err, b)
		}
	case <-time.After(5 * time.Minute):
		sc.fail("tools/list not answered within 5 minutes")
	}
}

// malformedFrame is one line a JSON-RPC server cannot use: not JSON, cut
// short, the wrong version, not a request, a bad id or method, a batch,
// random bytes, now and then over the 1 MiB line limit.
func malformedFrame(rng *rand.Rand) string {
	id := strconv.Itoa(1000000 + rng.IntN(1000000))
	valid := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}`
	switch rng.IntN(12) {
	case 0:
		return valid[:1+rng.IntN(len(valid)-2)] // cut short
	case 1:
		return `{"jsonrpc":"1.0","id":` + id + `,"method":"tools/list"}`
	case 2:
		return []string{`{}`, `null`, `true`, `42`, `"x"`, `[]`, `[1,2]`, `[` + valid + `]`}[rng.IntN(8)]
	case 3:
		return `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`
	case 4:
		return `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`
	case 5:
		return `{"jsonrpc":"2.0","id":` + id + `,"method":` + []string{`5`, `null`, `{}`, `[]`}[rng.IntN(4)] + `}`
	case 6:
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + []string{`5`, `"x"`, `[]`, `{"name":7}`}[rng.IntN(4)] + `}`
	case 7:
		if rng.IntN(50) == 0 {
			return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + strings.Repeat("x", 1<<20+rng.IntN(1000)) + `"}`
		}
		return strings.Repeat("{", 1+rng.IntN(2000))
	case 8:
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"` // no closing brace
	default:
		b := make([]byte, 1+rng.IntN(200))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if b[i] == '\n' {
				b[i] = ' '
			}
		}
		return string(b)
	}
}

// rac hook claude never answers allow for a command a deny or ask rule
// names, however it is spelled; a command no rule names is allowed (the
// row could not fail otherwise).
func TestHookSpellings(t *testing.T) {
	sc := newScenario(t, "hook claude: denied commands spelled differently never allowed", true)
	s := newStore(t)
	claude := filepath.Join(s.dir, "home", ".claude")
	require.NoError(t, os.MkdirAll(claude, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(claude, "settings.json"),
		[]byte(`{"permissions":{"deny":["Bash(git push:*)"],"ask":["Bash(git reset:*)"]}}`), 0o600))
	ask := func(command string) string {
		input, err := json.Marshal(map[string]any{
			"session_id": "0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "cwd": s.dir, "permission_mode": "bypassPermissions",
			"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": command},
		})
		require.NoError(t, err)
		c := s.command("hook", "claude")
		c.Stdin = strings.NewReader(string(input))
		b, _ := c.Output()
		return string(b)
	}
	require.Contains(t, ask("git status"), `"permissionDecision":"allow"`, "a command no rule names is allowed")
	for range iterations(300, 40) {
		sc.iter()
		words := [][]string{{"git", "push"}, {"git", "reset"}}[sc.rng.IntN(2)]
		cmd := spellCommand(sc.rng, words)
		if got := ask(cmd); strings.Contains(got, `"allow"`) {
			sc.fail("%q answered allow: %s", cmd, got)
		}
	}
}

// spellCommand writes words as bash would still run them: other blanks,
// line continuations, quotes and escapes inside a word, behind a runner or
// another command, in a subshell, a group or a command substitution.
func spellCommand(rng *rand.Rand, words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteString([]string{" ", "  ", "\t", " \\\n", "\t \\\n  "}[rng.IntN(5)])
		}
		switch cut := rng.IntN(len(w)); rng.IntN(5) {
		case 0:
			b.WriteString(w)
		case 1:
			b.WriteString(w[:cut] + "'" + w[cut:] + "'")
		case 2:
			b.WriteString(`"` + w[:cut] + `"` + w[cut:])
		case 3:
			b.WriteString(w[:cut] + `\` + w[cut:])
		default:
			b.WriteString(w[:cut] + "''" + w[cut:])
		}
	}
	cmd := b.String() + []string{"", " origin", " --hard", " 2>/dev/null"}[rng.IntN(4)]
	prefix := []string{"", "git log && ", "true; ", "false || ", "env A=1 ", "command ", "FOO=bar ", "cd /tmp && "}[rng.IntN(8)]
	switch rng.IntN(5) {
	case 0:
		return "( " + prefix + cmd + " )"
	case 1:
		return "{ " + prefix + cmd + "; }"
	case 2:
		return "echo $(" + prefix + cmd + ")"
	case 3:
		return prefix + cmd + " | cat"
	}
	return prefix + cmd
}

// rac agent-init claude and its --remove keep a symlinked settings file a
// symlink, writing its target, which --remove gives back as it was.
func TestSymlinkedSettings(t *testing.T) {
	sc := newScenario(t, "agent-init: symlinked settings.json stays a link", false)
	for _, before := range []string{"{}\n", `{"theme":"dark","permissions":{"allow":["Bash(ls:*)"]}}` + "\n", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]}}` + "\n"} {
		sc.iter()
		s := newStore(t)
		target := filepath.Join(s.dir, "dotfiles", "claude", "settings.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o700))
		require.NoError(t, os.WriteFile(target, []byte(before), 0o644))
		link := filepath.Join(s.dir, "home", ".claude", "settings.json")
		require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o700))
		require.NoError(t, os.Symlink(target, link))
		for _, step := range [][]string{{"agent-init", "claude"}, {"agent-init", "claude", "--remove"}} {
			r := s.rac(time.Minute, step...)
			fi, err := os.Lstat(link)
			b, _ := os.ReadFile(target)
			switch {
			case r.code != 0:
				sc.fail("%v: exit %d: %s", step, r.code, r.stderr)
			case err != nil || fi.Mode()&os.ModeSymlink == 0:
				sc.fail("%v: %s is no longer a symlink", step, link)
			case len(step) == 2 && !strings.Contains(string(b), "rac hook"):
				sc.fail("%v: the target has no rac hook: %s", step, b)
			case len(step) == 3 && strings.Contains(string(b), "rac hook"):
				sc.fail("%v: the target still has rac's hook: %s", step, b)
			}
		}
	}
}

// A C1 control (U+0080 to U+009F, the 8-bit CSI among them) taken from
// argv never reaches rac out list --json or explain --json raw.
func TestC1InJSON(t *testing.T) {
	sc := newScenario(t, "--json: C1 controls from argv escaped (list, explain)", false)
	s := newStore(t)
	for c := rune(0x80); c <= 0x9f; c++ {
		if r := s.rac(time.Minute, "run", "-q", "--", "echo", "a"+string(c)+"31mb"); r.code != 0 {
			sc.fail("rac run with U+%04X: exit %d: %s", c, r.code, r.stderr)
		}
	}
	raw := func(out string) (rune, bool) {
		for _, r := range out {
			if r >= 0x80 && r <= 0x9f {
				return r, true
			}
		}
		return 0, false
	}
	r := s.rac(time.Minute, "out", "list", "--json")
	sc.iter()
	if c, bad := raw(r.stdout); r.code != 0 || bad || !utf8.ValidString(r.stdout) {
		sc.fail("rac out list --json: exit %d, raw U+%04X %v", r.code, c, bad)
	}
	for i := 1; i <= 0x20; i++ {
		sc.iter()
		r := s.rac(time.Minute, "out", "explain", strconv.Itoa(i), "--json")
		if c, bad := raw(r.stdout); r.code != 0 || bad {
			sc.fail("rac out explain %d --json: exit %d, raw U+%04X %v: %s", i, r.code, c, bad, r.stderr)
		}
	}
}
