package config

import (
	"slices"
	"strings"

	"github.com/rac-cli/rac/internal/runspec"
)

// Kind is how a setting's text is read.
type Kind int

const (
	Duration Kind = iota // a Go duration with a unit: 100ms, 5s, 10m; 0 alone is allowed
	Age                  // a duration or whole days: 168h, 7d
	Size                 // bytes or a unit: 4096, 8KiB, 256MiB, 500KB
	Int                  // a whole number from 0
	Bool                 // true or false
	Enum                 // one of Def.Choices
	String               // any text
	List                 // a list of strings: a YAML list, or comma-separated in env and flags
	Rules                // a list of {name, prefix, pattern} maps, config file only
)

var kindNames = [...]string{"duration", "age", "size", "int", "bool", "enum", "string", "list", "rules"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "kind?"
	}
	return kindNames[k]
}

// Def is one setting: one name used three ways, a key section.name in the
// config file, an environment variable RAC_SECTION_NAME, and a flag where
// one exists.
type Def struct {
	Key     string // section.name, lower case
	Env     string // RAC_SECTION_NAME; "" when the environment cannot set it
	Flag    string // flag name without dashes; "" for none
	Inverse bool   // the flag says the opposite of the setting (--no-redact sets redact.enabled to false)
	Default string // in the same syntax a user writes; parsed like any other value
	Kind    Kind
	Choices []string // Enum: the values allowed, in the order help lists them
	Help    string

	// field is where Load stores the value in Settings
	field func(*Settings) any
}

// FlagName is the flag as a user types it (--timeout), or "".
func (d Def) FlagName() string {
	if d.Flag == "" {
		return ""
	}
	return "--" + d.Flag
}

// table is the one list of settings. docs/settings.md documents it (a
// test compares them). rac's own variable names never contain KEY, TOKEN,
// SECRET, AUTH or PASSWORD: agent harnesses filter such variables out of
// the environment.
var table = []Def{
	{Key: "run.drain_timeout", Env: "RAC_RUN_DRAIN_TIMEOUT", Flag: "drain-timeout", Default: "100ms", Kind: Duration,
		Help:  "after the command exits, how long to wait for processes it left holding its output",
		field: func(s *Settings) any { return &s.Run.DrainTimeout }},
	{Key: "run.timeout", Env: "RAC_RUN_TIMEOUT", Flag: "timeout", Default: "0", Kind: Duration,
		Help:  "stop the command after this long (SIGTERM, then SIGKILL after run.kill_after); 0 for none",
		field: func(s *Settings) any { return &s.Run.Timeout }},
	{Key: "run.kill_after", Env: "RAC_RUN_KILL_AFTER", Flag: "kill-after", Default: "5s", Kind: Duration,
		Help:  "after --timeout's SIGTERM, send SIGKILL this much later",
		field: func(s *Settings) any { return &s.Run.KillAfter }},
	{Key: "run.announce", Env: "RAC_RUN_ANNOUNCE", Flag: "announce", Default: "auto", Kind: Enum,
		Choices: runspec.AnnounceChoices(),
		Help:    "which rac: lines to print: start, end, both, failed (the end line only when the command fails), none, or auto (both for agents and when no terminal shows the run, else failed)",
		field:   func(s *Settings) any { return &s.Run.Announce }},
	{Key: "run.agent_view", Env: "RAC_RUN_AGENT_VIEW", Default: "auto", Kind: Enum,
		Choices: runspec.AgentViewChoices(),
		Help:    "shape a long output for an agent harness's cut (the head live, the middle held back, then the cause, the tail and the reference): auto (when a harness is detected and rac's stdout is what it captures), on or off",
		field:   func(s *Settings) any { return &s.Run.AgentView }},
	{Key: "run.mode", Env: "RAC_RUN_MODE", Flag: "mode", Default: "auto", Kind: Enum,
		Choices: runspec.ModeChoices(),
		Help:    "how the command is connected: pipe, pty (a pseudo-terminal, for a person at a terminal), passthrough (the terminal itself, metadata only), or auto (rac chooses)",
		field:   func(s *Settings) any { return &s.Run.Mode }},
	{Key: "run.interactive", Env: "RAC_RUN_INTERACTIVE", Default: "", Kind: List,
		Help:  "more programs that auto runs in passthrough mode (on a terminal, metadata only), beside the built-in editors, pagers, REPLs and shells",
		field: func(s *Settings) any { return &s.Run.Interactive }},
	{Key: "run.signal_settle", Env: "RAC_RUN_SIGNAL_SETTLE", Default: "20ms", Kind: Duration,
		Help:  "how long a signal sent to rac alone may take to show it also reached rac's process group before rac passes it on to the command",
		field: func(s *Settings) any { return &s.Run.SignalSettle }},
	{Key: "run.summary", Env: "RAC_RUN_SUMMARY", Flag: "summary", Default: "false", Kind: Bool,
		Help:  "print a compact summary (counts, head and tail, ref) on stdout instead of the command's output",
		field: func(s *Settings) any { return &s.Run.Summary }},
	{Key: "run.summary_head", Env: "RAC_RUN_SUMMARY_HEAD", Flag: "summary-head", Default: "10", Kind: Int,
		Help:  "summary: first lines shown of a stream",
		field: func(s *Settings) any { return &s.Run.SummaryHead }},
	{Key: "run.summary_tail", Env: "RAC_RUN_SUMMARY_TAIL", Flag: "summary-tail", Default: "10", Kind: Int,
		Help:  "summary: last lines shown of a stream",
		field: func(s *Settings) any { return &s.Run.SummaryTail }},
	{Key: "run.json", Env: "RAC_RUN_JSON", Flag: "json", Default: "false", Kind: Bool,
		Help:  "print a JSON object (ref, outcome, counts) on stderr before the final ref line",
		field: func(s *Settings) any { return &s.Run.JSON }},
	{Key: "color", Env: "RAC_COLOR", Flag: "color", Default: "auto", Kind: Enum,
		Choices: ColorChoices(),
		Help:    "colour in rac's own output: auto (on a terminal, unless NO_COLOR or TERM=dumb), always, or never",
		field:   func(s *Settings) any { return &s.Color }},
	{Key: "redact.enabled", Env: "RAC_REDACT_ENABLED", Flag: "no-redact", Inverse: true, Default: "true", Kind: Bool,
		Help:  "redact secrets before any byte reaches disk (--no-redact turns it off for one run)",
		field: func(s *Settings) any { return &s.Redact.Enabled }},
	{Key: "redact.env_names", Env: "RAC_REDACT_ENV_NAMES", Default: "", Kind: List,
		Help:  "more variable names whose values are secrets",
		field: func(s *Settings) any { return &s.Redact.EnvNames }},
	{Key: "redact.allow", Env: "RAC_REDACT_ALLOW", Default: "", Kind: List,
		Help:  "exact strings never redacted",
		field: func(s *Settings) any { return &s.Redact.Allow }},
	{Key: "redact.args", Env: "RAC_REDACT_ARGS", Default: "", Kind: List,
		Help:  "more secret arguments for the argv grammar: COMMAND:SPEC, such as mysql:-p= (-pVALUE), sshpass:-p (the next argument), htpasswd -b:3 (the third argument), openssl:-passout pass: (after pass:), !--flag (no secret)",
		field: func(s *Settings) any { return &s.Redact.Args }},
	{Key: "redact.rules", Default: "", Kind: Rules,
		Help:  "team rules: a list of {name, prefix, pattern} (a literal prefix and an RE2 pattern matched at it)",
		field: func(s *Settings) any { return &s.Redact.Rules }},
	{Key: "record.max_bytes", Env: "RAC_RECORD_MAX_BYTES", Default: "64MiB", Kind: Size,
		Help:  "cap of one recording over all its streams, after redaction; past it the head is kept whole and the tail rolls",
		field: func(s *Settings) any { return &s.Record.MaxBytes }},
	{Key: "record.head_bytes", Env: "RAC_RECORD_HEAD_BYTES", Default: "1MiB", Kind: Size,
		Help:  "how much of the start of a capped recording is kept whole (inside record.max_bytes)",
		field: func(s *Settings) any { return &s.Record.HeadBytes }},
	{Key: "record.compress", Env: "RAC_RECORD_COMPRESS", Default: "true", Kind: Bool,
		Help:  "gc stores finished recordings compressed (zstd, in seekable frames); false keeps them raw",
		field: func(s *Settings) any { return &s.Record.Compress }},
	{Key: "session.id_vars", Env: "RAC_SESSION_ID_VARS", Default: "", Kind: List,
		Help:  "more harness conversation-id variables: VAR=LABEL or VAR=LABEL:REQUIRES, -VAR removes one",
		field: func(s *Settings) any { return &s.Session.IDVars }},
	{Key: "session.marker_vars", Env: "RAC_SESSION_MARKER_VARS", Default: "", Kind: List,
		Help:  "more agent marker variables: VAR=LABEL or VAR=LABEL:PIDVAR, -VAR removes one",
		field: func(s *Settings) any { return &s.Session.MarkerVars }},
	{Key: "gc.max_age", Env: "RAC_GC_MAX_AGE", Default: "7d", Kind: Age,
		Help:  "remove sessions whose newest recording is older than this (0: never)",
		field: func(s *Settings) any { return &s.GC.MaxAge }},
	{Key: "gc.max_session_bytes", Env: "RAC_GC_MAX_SESSION_BYTES", Default: "256MiB", Kind: Size,
		Help:  "remove a session's oldest finished recordings until it fits (0: no limit)",
		field: func(s *Settings) any { return &s.GC.MaxSessionBytes }},
	{Key: "gc.max_store_bytes", Env: "RAC_GC_MAX_STORE_BYTES", Default: "2GiB", Kind: Size,
		Help:  "remove the oldest finished recordings store-wide until the store fits (0: no limit)",
		field: func(s *Settings) any { return &s.GC.MaxStoreBytes }},
	{Key: "gc.min_free_bytes", Env: "RAC_GC_MIN_FREE_BYTES", Default: "256MiB", Kind: Size,
		Help:  "below this much free space rac run does not record (and GC runs)",
		field: func(s *Settings) any { return &s.GC.MinFreeBytes }},
	{Key: "gc.interval", Env: "RAC_GC_INTERVAL", Default: "1h", Kind: Age,
		Help:  "automatic GC after rac run runs at most this often (0: after every run)",
		field: func(s *Settings) any { return &s.GC.Interval }},
	{Key: "read.pager", Env: "RAC_READ_PAGER", Default: "", Kind: String,
		Help:  "the pager rac out read uses on a terminal (empty: $RAC_PAGER, else $PAGER, else less -R)",
		field: func(s *Settings) any { return &s.Read.Pager }},
	{Key: "shell.wrap", Env: "RAC_SHELL_WRAP", Default: "git,kubectl", Kind: List,
		Help:  "the commands rac shell-init wraps in rac run at an interactive prompt",
		field: func(s *Settings) any { return &s.Shell.Wrap }},
	{Key: "hook.wrap", Env: "RAC_HOOK_WRAP", Default: "git,kubectl,helm,go,cargo,npm,pnpm,yarn,make,pytest,python -m pytest,mvn,gradle,terraform,docker build", Kind: List,
		Help:  "the programs an agent hook wraps in rac run (a program, or a program and its first words)",
		field: func(s *Settings) any { return &s.Hook.Wrap }},
	{Key: "store.workdir", Env: "RAC_STORE_WORKDIR", Default: "false", Kind: Bool,
		Help:  "when neither the store nor $TMPDIR/rac-UID can be written (a sandbox), record in the working folder's .rac/",
		field: func(s *Settings) any { return &s.Store.Workdir }},
	{Key: "mcp.run", Env: "RAC_MCP_RUN", Default: "false", Kind: Bool,
		Help:  "rac mcp offers its run tool (any command, unchecked by the harness: off by default)",
		field: func(s *Settings) any { return &s.MCP.Run }},
	{Key: "mcp.budget", Env: "RAC_MCP_BUDGET", Default: "8KiB", Kind: Size,
		Help:  "the most one rac mcp tool result holds (text and structured content together)",
		field: func(s *Settings) any { return &s.MCP.Budget }},
}

// Defs returns the settings table, in the order docs/settings.md lists it. The copy
// is the caller's to keep.
func Defs() []Def {
	out := slices.Clone(table)
	for i := range out {
		out[i].Choices = slices.Clone(out[i].Choices)
	}
	return out
}

// lookup returns the index in table of the setting key (lower case).
func lookup(key string) int {
	for i := range table {
		if table[i].Key == key {
			return i
		}
	}
	return -1
}

// isSection tells whether name is a section (run, gc, ...) of some key.
func isSection(name string) bool {
	for i := range table {
		if rest, ok := strings.CutPrefix(table[i].Key, name); ok && strings.HasPrefix(rest, ".") {
			return true
		}
	}
	return false
}
