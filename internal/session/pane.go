package session

import "strings"

// PaneVar is one terminal pane's variable set: all of Vars must be set.
// Multiplexers come before emulators in the table, because an emulator's
// variables leak into every multiplexer pane started inside it.
type PaneVar struct {
	Label string   // name prefix: LABEL-HASH
	Vars  []string // all required
	Extra []string // mixed into the key when set (WEZTERM_UNIX_SOCKET)
	// UUIDPart keeps only the UUID after the last ':' of the single
	// variable (ITERM_SESSION_ID is "w0t0p0:UUID", and the position part
	// changes when a tab moves); a value without one is not used.
	UUIDPart bool
}

// DefaultPaneVars is the pane table, in precedence order. Not read:
// WINDOWID and ALACRITTY_WINDOW_ID (one per window, not per tab) and
// VSCODE_* (leaks through tmux).
var DefaultPaneVars = []PaneVar{
	{Label: "tmux", Vars: []string{"TMUX", "TMUX_PANE"}},
	{Label: "zellij", Vars: []string{"ZELLIJ_SESSION_NAME", "ZELLIJ_PANE_ID"}},
	{Label: "screen", Vars: []string{"STY", "WINDOW"}},
	{Label: "wezterm", Vars: []string{"WEZTERM_PANE"}, Extra: []string{"WEZTERM_UNIX_SOCKET"}},
	{Label: "kitty", Vars: []string{"KITTY_WINDOW_ID", "KITTY_PID"}},
	{Label: "ghostty", Vars: []string{"GHOSTTY_SURFACE_ID"}},
	{Label: "wt", Vars: []string{"WT_SESSION"}},
	{Label: "iterm", Vars: []string{"ITERM_SESSION_ID"}, UUIDPart: true},
	{Label: "term", Vars: []string{"TERM_SESSION_ID"}},
	{Label: "konsole", Vars: []string{"KONSOLE_DBUS_SERVICE", "KONSOLE_DBUS_SESSION"}},
	{Label: "gnome", Vars: []string{"GNOME_TERMINAL_SCREEN"}},
}

// ignoredPaneVars are reported when set, so --explain says why they did
// not count.
var ignoredPaneVars = []struct{ Var, Why string }{
	{"WINDOWID", "one per window, not per tab"},
	{"ALACRITTY_WINDOW_ID", "one per window, not per tab"},
}

// paneMatch is a pane variable set found complete in the environment.
type paneMatch struct {
	label string
	key   []string // VAR=value pairs that make up the key, in table order
	saw   string
}

// panes lists the complete pane sets in table order, and the incomplete
// or unusable ones as notes.
func (r *resolver) panes() (found []paneMatch, notes []string) {
	for _, pv := range r.paneVars {
		if len(pv.Vars) == 0 {
			continue
		}
		var key, saw, missing []string
		for _, v := range pv.Vars {
			val := r.getenv(v)
			if val == "" {
				missing = append(missing, v)
				continue
			}
			if pv.UUIDPart {
				part := val[strings.LastIndexByte(val, ':')+1:]
				if !isUUID(part) {
					notes = append(notes, v+"="+quoteShort(val, 32)+": no UUID part, not used")
					missing = append(missing, v)
					continue
				}
				val = strings.ToLower(part)
			}
			key = append(key, v+"="+val)
			saw = append(saw, v+"="+quoteShort(val, 32))
		}
		if len(missing) > 0 {
			if len(missing) < len(pv.Vars) {
				notes = append(notes, strings.Join(saw, " ")+" without "+strings.Join(missing, ", ")+": incomplete, not used")
			}
			continue
		}
		for _, v := range pv.Extra {
			if val := r.getenv(v); val != "" {
				key = append(key, v+"="+val)
				saw = append(saw, v+"="+quoteShort(val, 32))
			}
		}
		label := safeLabel(pv.Label)
		found = append(found, paneMatch{label: label, key: key, saw: strings.Join(saw, " ") + " (" + label + ")"})
	}
	for _, iv := range ignoredPaneVars {
		if val := r.getenv(iv.Var); val != "" {
			notes = append(notes, iv.Var+"="+quoteShort(val, 32)+": ignored, "+iv.Why)
		}
	}
	return found, notes
}

// rulePane is rule 5: a terminal pane, combined with the boot id because
// pane numbers are reused after a reboot.
func (r *resolver) rulePane() (Identity, bool) {
	found, notes := r.panes()
	var saw []string
	for i, p := range found {
		if i > 0 {
			saw = append(saw, p.saw+": lower precedence than "+found[0].label)
			continue
		}
		saw = append(saw, p.saw)
	}
	saw = append(saw, notes...)
	if len(found) == 0 {
		r.skip(RulePane, saw, "no terminal pane variables set")
		return Identity{}, false
	}
	p := found[0]
	boot, bootNote := r.bootForKey()
	if bootNote != "" {
		saw = append(saw, strings.TrimPrefix(bootNote, ", "))
	}
	parts := append([]string{"pane", p.label, boot}, p.key...)
	r.take(RulePane, saw, "terminal pane "+p.label+" (first in precedence: multiplexers before emulators)")
	return Identity{
		Name:   keyName(p.label, parts...),
		Rule:   RulePane,
		Source: p.label,
		Var:    strings.SplitN(p.key[0], "=", 2)[0],
		RawID:  "boot=" + boot + " " + strings.Join(p.key, " "),
	}, true
}
