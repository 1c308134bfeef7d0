// Package session owns which session a command belongs to (identity: the
// precedence of --session, RAC_SESSION, agent harness variables, the
// files a harness holds open, terminal panes and process sessions), the
// tables of harness and pane variables behind it, whether an agent runs
// the command, and which names a session may have. The session folders
// themselves are the store's (internal/store). It reads the process table
// and the environment it is given, never execs a program, never writes a
// file, and never builds a path from an untrusted id.
package session

import (
	"os"
	"strconv"
	"strings"
)

// IDVar is one harness conversation-id variable: the table is data, so a new
// harness needs no release (config session.id_vars extends it).
type IDVar struct {
	Var      string // variable holding the id
	Label    string // short source label used in the session name
	Requires string // another variable that must be set too ("" for none)
}

// DefaultIDVars is the harness id table, in precedence order.
var DefaultIDVars = []IDVar{
	{Var: "CLAUDE_CODE_SESSION_ID", Label: "claude"},
	{Var: "CLAUDE_CODE_REMOTE_SESSION_ID", Label: "claude"},
	{Var: "CODEX_SESSION_ID", Label: "codex"},
	{Var: "CODEX_THREAD_ID", Label: "codex"},
	{Var: "COPILOT_AGENT_SESSION_ID", Label: "copilot"},
	{Var: "CURSOR_CONVERSATION_ID", Label: "cursor"},
	{Var: "AMP_CURRENT_THREAD_ID", Label: "amp"},
	{Var: "AGENT_SESSION_ID", Label: "goose", Requires: "GOOSE_TERMINAL"},
	{Var: "GEMINI_SESSION_ID", Label: "gemini"},
	{Var: "OPENCODE_SESSION_ID", Label: "opencode"},
}

// Rule names: short stable words, in Identity.Rule and the explain output.
const (
	RuleFlag           = "flag"
	RuleEnv            = "env"
	RuleHarnessID      = "harness-id"
	RuleAgentMarker    = "agent-marker"
	RulePane           = "pane"
	RuleProcessSession = "process-session"
	RuleDefault        = "default"
)

// Rules lists the rule names in precedence order.
var Rules = []string{RuleFlag, RuleEnv, RuleHarnessID, RuleAgentMarker, RulePane, RuleProcessSession, RuleDefault}

// EnvVar is the variable that names the session (rule 2).
const EnvVar = "RAC_SESSION"

// Options is everything Identify looks at, passed as values.
type Options struct {
	Flag       string              // --session, "" when not given
	Getenv     func(string) string // the environment; nil means os.Getenv
	IDVars     []IDVar             // nil means DefaultIDVars (see ParseIDVars)
	MarkerVars []MarkerVar         // nil means DefaultMarkerVars (see ParseMarkerVars)
	PaneVars   []PaneVar           // nil means DefaultPaneVars
	Proc       Proc                // nil means SystemProc()
	// NoReport leaves out what the rules after the taken one would have
	// seen (Identity.Report then ends at the taken rule): rac run does not
	// print it and saves reading it.
	NoReport bool
}

// Identity is the session a command belongs to and why.
type Identity struct {
	Name      string // directory name; always ValidName
	Rule      string // which rule chose it: one of Rules
	Source    string // label of what supplied it (--session, RAC_SESSION, claude, tmux, tty, ...)
	Var       string // the variable it came from, "" for flag, process-session and default
	RawID     string // untrusted raw value or key, stored in session metadata, never in a path
	FromAgent bool   // found from an agent's environment (rac run announces the ref at start)
	Report    []RuleReport
}

// RuleReport says what one rule saw and whether it was taken.
type RuleReport struct {
	Rule    string
	Taken   bool
	Reached bool     // false when an earlier rule was taken
	Saw     []string // what it looked at, id values shortened
	Why     string   // why it was or was not taken
	Hint    string   // what the user can do, "" for nothing
}

// Identify applies the precedence rules; the first match wins. It fails
// only for a user-given name that is not valid (ErrInvalidName); anything
// it cannot read makes a rule fall through, down to the default session.
func Identify(o Options) (Identity, error) {
	r := &resolver{
		noReport:   o.NoReport,
		flag:       o.Flag,
		getenv:     o.Getenv,
		proc:       o.Proc,
		idVars:     o.IDVars,
		markerVars: o.MarkerVars,
		paneVars:   o.PaneVars,
	}
	if r.getenv == nil {
		r.getenv = os.Getenv
	}
	if r.proc == nil {
		r.proc = SystemProc()
	}
	if r.idVars == nil {
		r.idVars = DefaultIDVars
	}
	if r.markerVars == nil {
		r.markerVars = DefaultMarkerVars
	}
	if r.paneVars == nil {
		r.paneVars = DefaultPaneVars
	}
	return r.identify()
}

// resolver holds one Identify call's lazily read facts: the ancestors, the
// boot id, the agent variables found.
type resolver struct {
	noReport   bool
	flag       string
	getenv     func(string) string
	proc       Proc
	idVars     []IDVar
	markerVars []MarkerVar
	paneVars   []PaneVar

	w        *walker
	sigs     []*signal
	boot     string
	bootErr  error
	bootRead bool
	report   []RuleReport
}

func (r *resolver) identify() (Identity, error) {
	rules := []func() (Identity, bool, error){
		r.ruleFlag,
		r.ruleEnv,
		func() (Identity, bool, error) { id, ok := r.ruleHarnessID(); return id, ok, nil },
		func() (Identity, bool, error) { id, ok := r.ruleAgentMarker(); return id, ok, nil },
		func() (Identity, bool, error) { id, ok := r.rulePane(); return id, ok, nil },
		func() (Identity, bool, error) { id, ok := r.ruleProcessSession(); return id, ok, nil },
		func() (Identity, bool, error) { return r.ruleDefault(), true, nil },
	}
	for i, rule := range rules {
		id, ok, err := rule()
		if err != nil {
			return Identity{}, err
		}
		if ok {
			for _, name := range Rules[i+1:] {
				if r.noReport {
					break
				}
				r.report = append(r.report, r.notReached(name))
			}
			id.Report = r.report
			return id, nil
		}
	}
	panic("unreachable: the default rule always matches")
}

func (r *resolver) walker() *walker {
	if r.w == nil {
		r.w = newWalker(r.proc)
	}
	return r.w
}

// bootForKey is the boot id to mix into a key, and a note for the report
// when there is none (the key then holds across reboots).
func (r *resolver) bootForKey() (string, string) {
	if !r.bootRead {
		r.boot, r.bootErr = r.proc.BootID()
		r.bootRead = true
	}
	if r.bootErr != nil {
		return "", ", boot id unknown (" + r.bootErr.Error() + ")"
	}
	return r.boot, ""
}

func (r *resolver) skip(rule string, saw []string, why string) {
	r.report = append(r.report, RuleReport{Rule: rule, Reached: true, Saw: saw, Why: why})
}

func (r *resolver) take(rule string, saw []string, why string) {
	r.report = append(r.report, RuleReport{Rule: rule, Taken: true, Reached: true, Saw: saw, Why: why})
}

// ruleFlag is rule 1: --session NAME.
func (r *resolver) ruleFlag() (Identity, bool, error) {
	if r.flag == "" {
		r.skip(RuleFlag, nil, "--session not given")
		return Identity{}, false, nil
	}
	if err := checkUserName(r.flag, "--session"); err != nil {
		return Identity{}, false, err
	}
	r.take(RuleFlag, []string{"--session " + r.flag}, "given on the command line")
	return Identity{Name: r.flag, Rule: RuleFlag, Source: "--session"}, true, nil
}

// ruleEnv is rule 2: $RAC_SESSION, unless it was inherited from above the
// agent harness: when a harness id or agent marker was injected nearer than
// RAC_SESSION, RAC_SESSION came from the shell that started the agent, and
// taking it would merge every conversation of that agent into one session.
// An agent that sets RAC_SESSION in its own command is nearer and wins, and
// so does a harness that injects it together with its id (a tie), unless
// the harness's own environment cannot be read.
func (r *resolver) ruleEnv() (Identity, bool, error) {
	v := r.getenv(EnvVar)
	if v == "" {
		r.skip(RuleEnv, nil, EnvVar+" not set")
		return Identity{}, false, nil
	}
	saw := []string{EnvVar + "=" + quoteShort(v, maxName+1)}
	if sigs := r.agentSignals(); len(sigs) > 0 {
		w := r.walker()
		d := w.injectedAt(EnvVar, v)
		saw[0] += ": " + w.where(d)
		best := r.nearest(sigs)
		saw = append(saw, best.describe()+": "+w.where(r.depth(best)))
		switch bd := r.depth(best); {
		case bd < d:
			r.skip(RuleEnv, saw, EnvVar+" was inherited from above the agent harness ("+best.Var+" was injected nearer), so it would merge the agent's conversations")
			return Identity{}, false, nil
		case bd == d && d != far && w.unreadable(d):
			// Both first seen below a process whose environment is hidden
			// (Codex is non-dumpable): RAC_SESSION may have come from the
			// shell that started it. Not merging conversations is the safe
			// side; an agent that sets RAC_SESSION in its command is nearer.
			r.skip(RuleEnv, saw, EnvVar+" and "+best.Var+" both first appear below a process whose environment rac cannot read, so "+EnvVar+" may come from the shell that started the agent; the agent's own variable wins")
			return Identity{}, false, nil
		}
	}
	if err := checkUserName(v, EnvVar); err != nil {
		return Identity{}, false, err
	}
	r.take(RuleEnv, saw, "set in the environment")
	return Identity{Name: v, Rule: RuleEnv, Source: EnvVar, Var: EnvVar}, true, nil
}

// ruleHarnessID is rule 3: a harness conversation id. Where several are set
// (an agent started from another agent's shell inherits the outer id), the
// one injected nearest wins; ties and systems without a process table use
// table order. An agent marker of another agent injected nearer than the id
// means an agent without an id runs inside the id's agent: the id belongs to
// the outer conversation, so rule 4 decides instead.
func (r *resolver) ruleHarnessID() (Identity, bool) {
	ids := r.signals(true)
	if len(ids) == 0 {
		var saw []string
		for _, iv := range r.idVars {
			if iv.Requires != "" && r.getenv(iv.Var) != "" && r.getenv(iv.Requires) == "" {
				saw = append(saw, iv.Var+"="+shortID(r.getenv(iv.Var))+": ignored without "+iv.Requires)
			}
		}
		r.skip(RuleHarnessID, saw, "no harness id variable set")
		return Identity{}, false
	}
	best := r.nearest(ids)
	var saw []string
	for _, s := range ids {
		line := s.describe()
		if len(ids) > 1 {
			line += ": " + r.walker().where(r.depth(s))
		}
		saw = append(saw, line)
	}
	var others []*signal
	for _, m := range r.signals(false) {
		if m.Label != best.Label {
			others = append(others, m)
		}
	}
	if m := r.nearest(others); m != nil && r.depth(m) < r.depth(best) {
		w := r.walker()
		saw = append(saw, best.Var+": "+w.where(r.depth(best)), m.describe()+": "+w.where(r.depth(m)))
		r.skip(RuleHarnessID, saw, m.Var+" was injected nearer than "+best.Var+": another agent without an id runs inside "+best.Label+"'s conversation")
		return Identity{}, false
	}
	why := best.Var + " is the only harness id set"
	if len(ids) > 1 {
		why = best.Var + " was injected nearest (ties go to table order)"
	}
	r.take(RuleHarnessID, saw, why)
	raw := strings.TrimSpace(best.Value)
	return Identity{
		Name:      DerivedName(best.Label, raw),
		Rule:      RuleHarnessID,
		Source:    best.Label,
		Var:       best.Var,
		RawID:     raw,
		FromAgent: true,
	}, true
}

// ruleProcessSession is rule 6: the process session, keyed by (boot id,
// session id, start time of the session leader). It is stable within one
// terminal or one script run and never merges unrelated runs; under an
// unrecognised agent that calls setsid for every call it fragments per
// call, which is safer than merging.
func (r *resolver) ruleProcessSession() (Identity, bool) {
	w := r.walker()
	if !w.selfOK {
		r.skip(RuleProcessSession, nil, "cannot read the process session: "+w.selfErr.Error())
		return Identity{}, false
	}
	sid := w.self.SID
	if sid <= 0 {
		r.skip(RuleProcessSession, []string{"session id " + strconv.Itoa(sid)}, "the process session is not visible (outside this pid namespace)")
		return Identity{}, false
	}
	var saw []string
	anchor, anchorWhat := ProcStat{}, ""
	if sid == w.self.PID {
		anchor, anchorWhat = w.self, "leader"
	} else if st, err := r.proc.Stat(sid); err == nil && st.SID == sid {
		anchor, anchorWhat = st, "leader"
	} else {
		// The leader is gone; while any member lives its id cannot be
		// reused, but a later session could get the same number, so key on
		// the oldest ancestor still in the session (or rac itself).
		anchor, anchorWhat = w.self, "oldest"
		for k := 1; ; k++ {
			st, ok := w.ancestor(k)
			if !ok || st.SID != sid {
				break
			}
			anchor = st
		}
		saw = append(saw, "session leader "+strconv.Itoa(sid)+" is gone: keyed on pid "+strconv.Itoa(anchor.PID)+", the oldest ancestor still in the session")
	}
	boot, bootNote := r.bootForKey()
	start := strconv.FormatUint(anchor.Start, 10)
	saw = append([]string{"session " + strconv.Itoa(sid) + ", " + anchorWhat + " started at " + start + bootNote}, saw...)
	rep := RuleReport{Rule: RuleProcessSession, Taken: true, Reached: true, Saw: saw, Why: "the process session rac runs in"}
	if hint, why := r.agentLikeSession(sid); hint {
		rep.Saw = append(rep.Saw, why)
		rep.Hint = "if an agent runs each tool call in its own process session, every call gets a new rac session: " +
			"set RAC_SESSION=NAME (one name per conversation) in the agent's command or environment, " +
			"or add the agent's conversation-id variable to session.id_vars or its marker to session.marker_vars"
	}
	r.report = append(r.report, rep)
	return Identity{
		Name:   keyName("tty", "tty", boot, strconv.Itoa(sid), anchorWhat, start),
		Rule:   RuleProcessSession,
		Source: "tty",
		RawID:  "boot=" + boot + " sid=" + strconv.Itoa(sid) + " " + anchorWhat + "-start=" + start,
	}, true
}

// agentLikeSession reports whether the process session looks like one an
// agent made for a single call: no controlling terminal, or a leader that
// is a shell running one command (bash -c).
func (r *resolver) agentLikeSession(sid int) (bool, string) {
	if r.walker().self.TTY == 0 {
		return true, "no controlling terminal: a non-interactive session (an agent's tool call, a script, a service)"
	}
	if argv, err := r.proc.Cmdline(sid); err == nil && looksLikeOneCommand(argv) {
		return true, "the session leader runs a single command (sh -c): an agent's tool call on a fresh terminal"
	}
	return false, ""
}

// ruleDefault is rule 7: the per-user default session, only where nothing
// above could be read.
func (r *resolver) ruleDefault() Identity {
	rep := RuleReport{Rule: RuleDefault, Taken: true, Reached: true, Why: "nothing above could be read"}
	if w := r.walker(); !w.selfOK {
		rep.Saw = []string{"no process table: " + w.selfErr.Error()}
		rep.Hint = "every shell without an agent id or terminal pane shares this session: set RAC_SESSION=NAME to keep work apart"
	}
	r.report = append(r.report, rep)
	return Identity{Name: "default", Rule: RuleDefault, Source: "default"}
}

// notReached reports a rule after the taken one: what it would have looked
// at in the environment (no process is read for it).
func (r *resolver) notReached(rule string) RuleReport {
	rep := RuleReport{Rule: rule, Why: "not reached: an earlier rule was taken"}
	switch rule {
	case RuleEnv:
		if v := r.getenv(EnvVar); v != "" {
			rep.Saw = []string{EnvVar + "=" + quoteShort(v, maxName+1)}
		}
	case RuleHarnessID:
		for _, s := range r.signals(true) {
			rep.Saw = append(rep.Saw, s.describe())
		}
	case RuleAgentMarker:
		for _, s := range r.signals(false) {
			rep.Saw = append(rep.Saw, s.describe())
		}
	case RulePane:
		found, _ := r.panes()
		for _, p := range found {
			rep.Saw = append(rep.Saw, p.saw)
		}
	}
	return rep
}
