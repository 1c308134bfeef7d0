package agentinit

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// The MCP registration (agent-init TARGET --mcp) names rac-mcp, the
// server program, as the server "rac" (with --rac, the rac that registered
// it): in Claude Code's ~/.claude.json (user scope, what
// `claude mcp add --scope user` writes) or a project's .mcp.json, in
// Gemini CLI's settings.json, both under "mcpServers"; in Codex's
// config.toml as the table [mcp_servers.rac]. go.mod has no TOML library,
// so that table is a delimited block of text rac appends and takes out
// again, as it does the instructions blocks.
//
// The harness starts rac-mcp itself, not rac mcp: that exec through rac
// cost a server's first initialize answer 2.7x the time of rac --version
// (make bench), rac-mcp alone about 1.6x. A registration of rac mcp that
// an earlier rac wrote is rac's too: install replaces it.

// mcpName is the server's name: Claude Code and Codex show its tools to
// the model as mcp__rac__TOOL.
const mcpName = "rac"

// mcpEnvVars are what Codex passes on to the server besides its own short
// list (HOME, PATH, TMPDIR, ...): Codex starts an MCP server with a
// cleared environment, so without them rac mcp would look in another
// store than the commands the agent recorded, and ignore the settings.
var mcpEnvVars = []string{"RAC_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "RAC_MCP_RUN", "RAC_MCP_BUDGET"}

const (
	tomlBegin = "# rac:begin: added by 'rac agent-init codex --mcp'; '--remove' takes it out"
	tomlEnd   = "# rac:end"
)

// mcpFile is the file the registration goes in.
func (o Options) mcpFile() (string, error) {
	type where struct{ user, project string }
	files := map[string]where{
		"claude": {path.Join(o.dir("CLAUDE_CONFIG_DIR", ""), ".claude.json"), ".mcp.json"},
		"codex":  {path.Join(o.dir("CODEX_HOME", ".codex"), "config.toml"), ".codex/config.toml"},
		"gemini": {path.Join(o.dir("GEMINI_CLI_HOME", ""), ".gemini", "settings.json"), ".gemini/settings.json"},
	}
	w, ok := files[o.Target]
	if !ok {
		return "", usageError(fmt.Sprintf("--mcp is for claude, codex and gemini, not %q", o.Target))
	}
	return o.pick(w.user, w.project)
}

// mcpEntry is the server's entry in a JSON settings file.
type mcpEntry struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

func (o Options) racPath() string {
	if o.Exe != "" {
		return o.Exe
	}
	return o.Program
}

// mcpEntry is the registration: rac-mcp, told which rac its run tool
// starts.
func (o Options) mcpEntry() mcpEntry {
	return mcpEntry{Command: o.MCPServer, Args: []string{"--rac", o.racPath()}}
}

// editMCP installs or removes the registration in old.
func (o Options) editMCP(old []byte, missing bool) ([]byte, error) {
	if o.Target == "codex" {
		return o.editTOML(old)
	}
	if missing {
		if o.Remove {
			return nil, nil
		}
		old = []byte(emptyFile)
	}
	var b []byte
	var err error
	if o.Remove {
		b, err = removeServer(old)
	} else {
		b, err = installServer(old, o.mcpEntry())
	}
	if err != nil {
		return nil, err
	}
	if o.Remove && string(b) == emptyFile && string(old) != emptyFile {
		return nil, nil // only rac's server was in it: it goes
	}
	return b, nil
}

// servers finds mcpServers and its member rac in a JSON settings text.
func servers(b []byte) (root, srvs, rac *node, err error) {
	root, err = parseJSON(b)
	if err != nil {
		return nil, nil, nil, err
	}
	if root.kind != '{' {
		return nil, nil, nil, errors.New("its top level is not an object")
	}
	srvs, _ = root.get("mcpServers")
	if srvs == nil {
		return root, nil, nil, nil
	}
	if srvs.kind != '{' {
		return nil, nil, nil, errors.New(`its "mcpServers" is not an object`)
	}
	rac, _ = srvs.get(mcpName)
	return root, srvs, rac, nil
}

// ourServer reads an mcpServers entry that is rac's: rac-mcp by any path,
// or rac mcp (rac by any path, with the argument mcp and nothing but flags
// after it), which an earlier rac registered. It reads the entry as the
// editor sees it (keys exactly, in the file's case): an entry with
// command or args twice, or either of a type rac never writes, is not
// rac's, since a harness may read it otherwise (JSON.parse takes the last
// of two).
func ourServer(n *node) (mcpEntry, bool) {
	var e mcpEntry
	if n.kind != '{' || count(n.keys, "command") != 1 || count(n.keys, "args") > 1 {
		return e, false
	}
	cmd, _ := n.get("command")
	if cmd.kind != '"' {
		return e, false
	}
	e.Command = cmd.str
	if args, _ := n.get("args"); args != nil {
		if args.kind != '[' {
			return e, false
		}
		for _, a := range args.elems {
			if a.kind != '"' {
				return e, false
			}
			e.Args = append(e.Args, a.str)
		}
	}
	switch path.Base(e.Command) {
	case "rac-mcp":
		return e, true
	case "rac":
		return e, len(e.Args) > 0 && e.Args[0] == "mcp"
	}
	return e, false
}

func count(keys []string, k string) int {
	n := 0
	for _, x := range keys {
		if x == k {
			n++
		}
	}
	return n
}

// userFlags are the arguments of rac's entry that the user added (rac mcp
// --session work): all but the mcp of the old form and rac's own --rac.
func userFlags(have mcpEntry) []string {
	args := have.Args
	if path.Base(have.Command) == "rac" {
		args = args[1:] // mcp
	}
	var out []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--rac":
			i++ // and its value
		case strings.HasPrefix(args[i], "--rac="):
		default:
			out = append(out, args[i])
		}
	}
	return out
}

func errNotOurs(what string) error {
	return fmt.Errorf("it already has an MCP server named %q that is not rac's (rac-mcp or rac mcp) (%s); rename or remove it first", mcpName, what)
}

func installServer(b []byte, e mcpEntry) ([]byte, error) {
	root, srvs, rac, err := servers(b)
	if err != nil {
		return nil, err
	}
	if rac != nil {
		have, ours := ourServer(rac)
		if !ours {
			return nil, errNotOurs("mcpServers." + mcpName)
		}
		want := mcpEntry{Command: e.Command, Args: append(slices.Clip(e.Args), userFlags(have)...)}
		if have.Command == want.Command && slices.Equal(have.Args, want.Args) {
			return b, nil
		}
		// an older registration (rac mcp, or a rac that moved)
		return updateServer(b, rac, want)
	}
	switch {
	case srvs != nil:
		return insert(b, srvs, mcpName, e)
	}
	return insert(b, root, "mcpServers", map[string]mcpEntry{mcpName: e})
}

// updateServer points rac's entry at e in place: its command and args are
// replaced and every other key of it (an env, Gemini's trust) is kept. The
// later of the two edits is made first, so the other's offsets hold; the
// layout is read before either.
func updateServer(b []byte, entry *node, e mcpEntry) ([]byte, error) {
	cmd, _ := entry.get("command")
	args, _ := entry.get("args")
	prefix, unit := "", ""
	if args != nil && bytes.Contains(b[entry.start:entry.end], []byte("\n")) {
		prefix, unit = lineIndent(b, args.start), indentUnit(b)
	}
	setArgs := func(b []byte) ([]byte, error) {
		if args == nil {
			return insert(b, entry, "args", e.Args)
		}
		return replaceValue(b, args, e.Args, prefix, unit)
	}
	setCmd := func(b []byte) ([]byte, error) { return replaceValue(b, cmd, e.Command, "", "") }
	first, second := setCmd, setArgs
	if args == nil || args.start > cmd.start {
		first, second = setArgs, setCmd
	}
	b, err := first(b)
	if err != nil {
		return nil, err
	}
	return second(b)
}

// replaceValue puts v where the value n is.
func replaceValue(b []byte, n *node, v any, prefix, indent string) ([]byte, error) {
	val, err := marshal(v, prefix, indent)
	if err != nil {
		return nil, err
	}
	return append(append(append([]byte(nil), b[:n.start]...), val...), b[n.end:]...), nil
}

// removeServer deletes rac's entry, with the mcpServers object when it
// held only that; a "rac" entry that is not rac's stays.
func removeServer(b []byte) ([]byte, error) {
	root, srvs, rac, err := servers(b)
	if err != nil || rac == nil {
		return b, err
	}
	if _, ours := ourServer(rac); !ours {
		return b, err
	}
	if len(srvs.elems) > 1 {
		_, i := srvs.get(mcpName)
		return remove(b, srvs, i), nil
	}
	_, i := root.get("mcpServers")
	return remove(b, root, i), nil
}

// tomlTable matches a definition of the table mcp_servers.rac outside
// rac's block: its header, or a dotted key under it.
// It is compiled on first use: a package-level regexp would cost every
// rac run's start-up a tenth of a millisecond.
var tomlTable = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(\[[ \t]*mcp_servers[ \t]*\.[ \t]*("rac"|'rac'|rac)[ \t]*\]|mcp_servers[ \t]*\.[ \t]*("rac"|'rac'|rac)[ \t]*[.=])`)
})

func (o Options) editTOML(old []byte) ([]byte, error) {
	outside := string(old)
	if b := strings.Index(outside, tomlBegin); b >= 0 {
		if e := strings.Index(outside[b:], tomlEnd); e >= 0 {
			outside = outside[:b] + outside[b+e+len(tomlEnd):]
		}
	}
	if !o.Remove && tomlTable().MatchString(outside) {
		return nil, errNotOurs("[mcp_servers." + mcpName + "]")
	}
	if o.Remove && len(old) == 0 {
		return nil, nil
	}
	for _, p := range []string{o.racPath(), o.MCPServer} {
		if !utf8.ValidString(p) {
			return nil, fmt.Errorf("the path %q is not UTF-8, which a TOML file cannot hold", p)
		}
	}
	return editDelimited(old, tomlBegin, tomlEnd, o.tomlBlock(), o.Remove), nil
}

// tomlBlock is Codex's registration. It goes at the end of the file, so
// the keys after its header are its own.
func (o Options) tomlBlock() string {
	vars := make([]string, len(mcpEnvVars))
	for i, v := range mcpEnvVars {
		vars[i] = tomlQuote(v)
	}
	return tomlBegin + "\n" +
		"[mcp_servers." + mcpName + "]\n" +
		"command = " + tomlQuote(o.MCPServer) + "\n" +
		"args = [\"--rac\", " + tomlQuote(o.racPath()) + "]\n" +
		"# Codex clears an MCP server's environment: these keep rac's store and settings\n" +
		"env_vars = [" + strings.Join(vars, ", ") + "]\n" +
		tomlEnd
}

// tomlQuote is s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20, r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// mcpNotes say what the harness does with the registration, and what the
// server's tools cannot know without a hook.
func (o Options) mcpNotes() []string {
	run := "the run tool is off until mcp.run is true (RAC_MCP_RUN=true in the server's environment): once a harness allows it, every command the model asks for runs unchecked"
	switch o.Target {
	case "claude":
		n := []string{"Claude Code starts rac-mcp in each new session ('claude mcp list' shows it); with the SessionStart hook (rac agent-init claude) the tools default to the conversation's session, and follow /clear"}
		if o.Project {
			n = append(n, ".mcp.json is the project's: Claude Code asks once whether to use its servers (claude -p uses them without asking)")
		}
		return append(n, run)
	case "codex":
		n := []string{
			"Codex starts rac-mcp in each session ('codex mcp list' shows it) with a cleared environment: env_vars passes rac's variables on",
			"the server finds the conversation from the thread lock Codex holds open, so a call without a session uses the conversation's session, where its shell calls record too",
		}
		if o.Project {
			n = append(n, "Codex reads a project's .codex/config.toml only once the project is trusted (codex exec --trust)")
		}
		return append(n, run)
	}
	return []string{
		"Gemini CLI asks before each call of an MCP tool unless you trust the server (\"trust\": true in its entry) or allow the tool",
		"no Gemini hook tells the server which conversation it serves, so a call without a session uses the session rac run's rules find for the server: name recordings by their qualified reference (SESSION/NAME) or pass session",
		run,
	}
}
