package session

import (
	"strconv"
	"strings"
)

// MarkerVar is an agent marker: a variable by which a harness says "I am
// agent X" without giving a conversation id. The session is then the
// harness process itself. The table is data, so a new harness needs no
// release (config session.marker_vars extends it).
type MarkerVar struct {
	Var   string // variable the harness sets, e.g. CLAUDECODE
	Label string // short label used in the session name: agent-LABEL-HASH
	// PIDVar, when set, names a variable holding the harness's pid
	// (CLAUDE_PID): used when that process is alive and started before rac,
	// instead of walking up to the injection boundary.
	PIDVar string
}

// DefaultMarkerVars is the agent marker table, in precedence order.
var DefaultMarkerVars = []MarkerVar{
	{Var: "CLAUDECODE", Label: "claude", PIDVar: "CLAUDE_PID"},
	{Var: "CODEX_SANDBOX", Label: "codex"},
	{Var: "CODEX_CI", Label: "codex"},
	{Var: "GEMINI_CLI", Label: "gemini"},
	{Var: "QWEN_CODE", Label: "qwen"},
	{Var: "OPENCODE", Label: "opencode", PIDVar: "OPENCODE_PID"},
	{Var: "CURSOR_AGENT", Label: "cursor"},
	{Var: "COPILOT_CLI", Label: "copilot"},
	{Var: "GOOSE_TERMINAL", Label: "goose"},
	{Var: "CLINE_ACTIVE", Label: "cline"},
	{Var: "AGENT", Label: "agent"},
	{Var: "AI_AGENT", Label: "agent"},
}

// signal is one agent variable found set: a harness id (rule 3) or an
// agent marker (rule 4).
type signal struct {
	id     bool
	Var    string
	Label  string
	Value  string
	PIDVar string
	depth  int // injection depth; 0 until measured
}

// describe is "VAR=value (label)" with the value shortened.
func (s *signal) describe() string {
	if s.id {
		return s.Var + "=" + shortID(s.Value) + " (" + s.Label + ")"
	}
	return s.Var + "=" + quoteShort(s.Value, 16) + " (" + s.Label + ")"
}

// agentSignals lists the harness ids (those whose required companion is
// set too) and then the agent markers found in the environment, each in
// table order, a variable counted once.
func (r *resolver) agentSignals() []*signal {
	if r.sigs != nil {
		return r.sigs
	}
	sigs := []*signal{}
	seen := map[string]bool{}
	for _, iv := range r.idVars {
		if seen[iv.Var] {
			continue
		}
		seen[iv.Var] = true
		v := r.getenv(iv.Var)
		if strings.TrimSpace(v) == "" || (iv.Requires != "" && r.getenv(iv.Requires) == "") {
			continue
		}
		sigs = append(sigs, &signal{id: true, Var: iv.Var, Label: safeLabel(iv.Label), Value: v})
	}
	for _, mv := range r.markerVars {
		if seen[mv.Var] {
			continue
		}
		seen[mv.Var] = true
		if v := r.getenv(mv.Var); v != "" {
			sigs = append(sigs, &signal{Var: mv.Var, Label: safeLabel(mv.Label), Value: v, PIDVar: mv.PIDVar})
		}
	}
	r.sigs = sigs
	return sigs
}

func (r *resolver) signals(id bool) []*signal {
	var out []*signal
	for _, s := range r.agentSignals() {
		if s.id == id {
			out = append(out, s)
		}
	}
	return out
}

// depth measures (once) how far up s was injected.
func (r *resolver) depth(s *signal) int {
	if s.depth == 0 {
		s.depth = r.walker().injectedAt(s.Var, s.Value)
	}
	return s.depth
}

// nearest is the signal injected nearest; ties go to the first in table
// order, and so does everything without a process table.
func (r *resolver) nearest(sigs []*signal) *signal {
	if len(sigs) == 0 {
		return nil
	}
	best := sigs[0]
	if len(sigs) == 1 {
		return best
	}
	for _, s := range sigs[1:] {
		if r.depth(s) < r.depth(best) {
			best = s
		}
	}
	return best
}

// ruleAgentMarker is rule 4: an agent marker without an id. The session is
// the harness process, keyed by (boot id, pid, start time) so a reused pid
// never merges two conversations.
func (r *resolver) ruleAgentMarker() (Identity, bool) {
	markers := r.signals(false)
	if len(markers) == 0 {
		r.skip(RuleAgentMarker, nil, "no agent marker set")
		return Identity{}, false
	}
	var saw []string
	w := r.walker()
	if !w.selfOK {
		for _, m := range markers {
			saw = append(saw, m.describe())
		}
		r.skip(RuleAgentMarker, saw, "cannot find the harness process: no process table ("+w.selfErr.Error()+")")
		return Identity{}, false
	}
	m := r.nearest(markers)
	for _, s := range markers {
		saw = append(saw, s.describe()+": "+w.where(r.depth(s)))
	}

	harness, how, ok := r.harnessByPID(m, &saw)
	if !ok {
		d := r.depth(m)
		if d == far {
			r.skip(RuleAgentMarker, saw, m.Var+" is set in every ancestor rac can read, so no harness process injected it")
			return Identity{}, false
		}
		harness, _ = w.ancestor(d)
		how = "the nearest ancestor without " + m.Var + " in its exec-time environment"
		if _, err := w.environ(d); err != nil {
			how = "the nearest ancestor whose environment rac cannot read (a boundary)"
		}
	}
	boot, bootNote := r.bootForKey()
	saw = append(saw, "harness pid "+strconv.Itoa(harness.PID)+", started at "+strconv.FormatUint(harness.Start, 10)+bootNote)
	name := keyName("agent-"+m.Label, "agent", m.Label, boot, strconv.Itoa(harness.PID), strconv.FormatUint(harness.Start, 10))
	r.take(RuleAgentMarker, saw, "harness process of "+m.Var+": "+how)
	return Identity{
		Name:      name,
		Rule:      RuleAgentMarker,
		Source:    m.Label,
		Var:       m.Var,
		RawID:     "boot=" + boot + " pid=" + strconv.Itoa(harness.PID) + " start=" + strconv.FormatUint(harness.Start, 10),
		FromAgent: true,
	}, true
}

// harnessByPID uses the marker's pid variable when it names a live process
// that started no later than rac: a process started after rac cannot be
// the harness that started it, so a reused pid is never taken.
func (r *resolver) harnessByPID(m *signal, saw *[]string) (ProcStat, string, bool) {
	if m.PIDVar == "" {
		return ProcStat{}, "", false
	}
	v := r.getenv(m.PIDVar)
	if v == "" {
		return ProcStat{}, "", false
	}
	say := func(why string) { *saw = append(*saw, m.PIDVar+"="+quoteShort(v, 12)+": "+why) }
	pid, err := strconv.Atoi(v)
	if err != nil || pid <= 0 {
		say("not a pid, ignored")
		return ProcStat{}, "", false
	}
	st, err := r.proc.Stat(pid)
	if err != nil {
		say("no such process, ignored")
		return ProcStat{}, "", false
	}
	if st.Start > r.walker().self.Start {
		say("started after rac, so not its harness (pid reused), ignored")
		return ProcStat{}, "", false
	}
	say("alive")
	return st, m.PIDVar, true
}
