package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"

	"github.com/rac-cli/rac/internal/session"
)

// Harnesses are the adapters Handle knows.
var Harnesses = []string{"claude", "codex", "gemini"}

// maxInput bounds a hook's input: a tool call is a few kilobytes.
const maxInput = 4 << 20

var errTooLarge = errors.New("too large")

// Options are what Handle needs besides the input.
type Options struct {
	// Wrap is the hook.wrap setting.
	Wrap []string
	// Interactive is the run.interactive setting: more programs left alone.
	Interactive []string
	Getenv      func(string) string
	// FS reads settings files (nil: the real file system).
	FS FS
	// PPID is the hook's parent process; its command line and its
	// ancestors' are looked at for claude's rule flags (0: not looked at).
	PPID int
	// Rac is how a shell that inherits the hook's PATH names this rac:
	// "rac" when that name finds this very binary, else its absolute path
	// (shellinit.Program); "" means "rac".
	Rac string
	// Exe is this rac's absolute path (os.Executable); "" when unknown.
	Exe string
}

// racFor is how the inserted text names rac for harness. Codex runs each
// command in a login shell (bash -lc), which resets PATH from
// /etc/profile and the profile files, so a rac the hook found on Codex's
// PATH may be "command not found" there: Codex always gets the absolute
// path. Claude Code and Gemini CLI run commands with their own PATH, the
// one the hook inherits, so Rac holds there.
func (o Options) racFor(harness string) string {
	if harness == "codex" && o.Exe != "" {
		return o.Exe
	}
	return o.Rac
}

// Handle reads one tool call of harness from in and writes the answer to
// out: the call with its command rewritten, or nothing when rac leaves it
// alone. note says what was decided and why (for tests and debugging). An
// error means the input was malformed or unexpected: out got nothing, and
// the caller should print the error as one line and exit 0.
func Handle(harness string, in io.Reader, out io.Writer, o Options) (note string, err error) {
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if o.FS == nil {
		o.FS = OSFS{}
	}
	if !slices.Contains(Harnesses, harness) {
		return "", fmt.Errorf("no hook for %q (want one of claude, codex, gemini)", harness)
	}
	c, err := readCall(in)
	if err != nil {
		return "", err
	}
	switch harness {
	case "claude":
		return claude(c, o, out)
	case "codex":
		return codex(c, o, out)
	case "gemini":
		return gemini(c, o, out)
	}
	return "", fmt.Errorf("no hook for %q (want one of claude, codex, gemini)", harness)
}

// call is a harness's tool call, with every field kept as it came.
type call struct {
	fields                          map[string]json.RawMessage
	input                           map[string]json.RawMessage
	event, tool, mode, cwd, session string
}

func readCall(in io.Reader) (*call, error) {
	b, err := io.ReadAll(io.LimitReader(in, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading the hook input: %w", err)
	}
	if len(b) > maxInput {
		return nil, fmt.Errorf("the hook input is over %d bytes", maxInput)
	}
	c := &call{}
	if err := json.Unmarshal(b, &c.fields); err != nil || c.fields == nil {
		return nil, fmt.Errorf("the hook input is not a JSON object: %s", jsonProblem(err))
	}
	for key, dst := range map[string]*string{
		"hook_event_name": &c.event, "tool_name": &c.tool, "permission_mode": &c.mode,
		"cwd": &c.cwd, "session_id": &c.session,
	} {
		if raw, ok := c.fields[key]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return nil, fmt.Errorf("the hook input's %s is not a string", key)
			}
		}
	}
	if c.event == "" || c.tool == "" {
		return nil, errors.New("the hook input has no hook_event_name or tool_name")
	}
	if raw, ok := c.fields["tool_input"]; ok {
		if err := json.Unmarshal(raw, &c.input); err != nil {
			return nil, errors.New("the hook input's tool_input is not an object")
		}
	}
	return c, nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

// command finds the shell command in the tool input: "command" (Claude
// Code, Gemini CLI, Codex's hook input), "cmd" (Codex's exec_command), or
// a command vector ["bash", "-lc", SCRIPT] (Codex's older shell tool); set
// puts a new command in its place, keeping every other field as it came.
func (c *call) command() (cmd string, set func(string) map[string]json.RawMessage, err error) {
	for _, key := range []string{"command", "cmd"} {
		raw, ok := c.input[key]
		if !ok {
			continue
		}
		if json.Unmarshal(raw, &cmd) == nil {
			return cmd, func(s string) map[string]json.RawMessage { return c.with(key, s) }, nil
		}
		var argv []string
		if json.Unmarshal(raw, &argv) == nil && len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") {
			return argv[2], func(s string) map[string]json.RawMessage {
				return c.with(key, []string{argv[0], argv[1], s})
			}, nil
		}
		return "", nil, fmt.Errorf("the %s tool_input's %s is not a string", c.tool, key)
	}
	return "", nil, fmt.Errorf("the %s tool_input has no command", c.tool)
}

func (c *call) with(key string, v any) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(c.input))
	for k, raw := range c.input {
		out[k] = raw
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a string or []string always encodes
	out[key] = bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	return out
}

func (o Options) rewriter(harness, sessionName string) *Rewriter {
	return &Rewriter{
		Programs: ParsePrograms(o.Wrap), Getenv: o.Getenv, Interactive: o.Interactive,
		Session: sessionName, Rac: o.racFor(harness),
	}
}

func claude(c *call, o Options, out io.Writer) (string, error) {
	if c.event != "PreToolUse" {
		return "", fmt.Errorf("claude: unexpected hook event %q (want PreToolUse)", c.event)
	}
	if c.tool != "Bash" {
		return "not a shell tool", nil
	}
	cmd, set, err := c.command()
	if err != nil {
		return "", err
	}
	rewritten, changed := o.rewriter("claude", "").Rewrite(cmd)
	if !changed {
		return "nothing to wrap", nil
	}
	if flag := claudeHiddenRules(ancestorArgs(o.FS, o.PPID)); flag != "" {
		return "left alone: claude runs with " + flag + ", whose rules rac cannot read", nil
	}
	project := o.Getenv("CLAUDE_PROJECT_DIR")
	if project == "" {
		project = c.cwd
	}
	ok, why := claudeAllows(c.mode, cmd, readClaudeRules(o.FS, claudeSettingsFiles(o.Getenv, project)))
	if !ok {
		return "left alone: " + why, nil
	}
	return "rewritten: " + why, answer(out, map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":            "PreToolUse",
		"permissionDecision":       "allow",
		"permissionDecisionReason": "rac records this command (rac run); the original was " + why,
		"updatedInput":             set(rewritten),
	}})
}

func codex(c *call, o Options, out io.Writer) (string, error) {
	if c.event != "PreToolUse" {
		return "", fmt.Errorf("codex: unexpected hook event %q (want PreToolUse)", c.event)
	}
	if !slices.Contains([]string{"Bash", "exec_command", "shell", "local_shell", "shell_command"}, c.tool) {
		return "not a shell tool", nil
	}
	cmd, set, err := c.command()
	if err != nil {
		return "", err
	}
	rewritten, changed := o.rewriter("codex", "").Rewrite(cmd)
	if !changed {
		return "nothing to wrap", nil
	}
	// Codex asks for approval by the command text (its known-safe list,
	// its rules) in every mode but approval "never"
	if c.mode != "bypassPermissions" {
		return "left alone: permission mode " + c.mode, nil
	}
	home := o.Getenv("CODEX_HOME")
	if home == "" && o.Getenv("HOME") != "" {
		home = path.Join(o.Getenv("HOME"), ".codex")
	}
	dirs := []string{path.Join(home, "rules")}
	if c.cwd != "" {
		dirs = append(dirs, path.Join(c.cwd, ".codex", "rules"))
	}
	if f := codexRulesBlock(o.FS, dirs); f != "" {
		return "left alone: " + f + " forbids or prompts for commands by their text", nil
	}
	return "rewritten: bypassPermissions mode", answer(out, map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":      "PreToolUse",
		"permissionDecision": "allow",
		"updatedInput":       set(rewritten),
	}})
}

// gemini: Gemini CLI runs BeforeTool when it executes a call it has already
// approved on the original text, so the rewrite changes no decision.
func gemini(c *call, o Options, out io.Writer) (string, error) {
	if c.event != "BeforeTool" {
		return "", fmt.Errorf("gemini: unexpected hook event %q (want BeforeTool)", c.event)
	}
	if c.tool != "run_shell_command" {
		return "not a shell tool", nil
	}
	cmd, set, err := c.command()
	if err != nil {
		return "", err
	}
	// Gemini exports no conversation id to its shells, and --resume is a
	// new process: the hook passes the id on so a conversation is one session
	id := o.Getenv("GEMINI_SESSION_ID")
	if id == "" {
		id = c.session
	}
	name := ""
	if id != "" {
		name = session.DerivedName("gemini", id)
	}
	rewritten, changed := o.rewriter("gemini", name).Rewrite(cmd)
	if !changed {
		return "nothing to wrap", nil
	}
	return "rewritten", answer(out, map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "BeforeTool",
		"tool_input":    set(rewritten),
	}})
}

// answer writes v as one JSON line, in one write.
func answer(out io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := out.Write(b.Bytes())
	return err
}
