package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paneEnv is one example of each pane variable set, as the terminal sets it.
var paneEnv = map[string]map[string]string{
	"tmux":    {"TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%3"},
	"zellij":  {"ZELLIJ_SESSION_NAME": "sparkly-lake", "ZELLIJ_PANE_ID": "2"},
	"screen":  {"STY": "12345.pts-1.host", "WINDOW": "1"},
	"wezterm": {"WEZTERM_PANE": "7", "WEZTERM_UNIX_SOCKET": "/run/user/1000/wezterm/gui-sock-999"},
	"kitty":   {"KITTY_WINDOW_ID": "4", "KITTY_PID": "888"},
	"ghostty": {"GHOSTTY_SURFACE_ID": "0x7f8e1c00"},
	"wt":      {"WT_SESSION": "b3c5f8e2-6a1d-4e2b-9c7f-1a2b3c4d5e6f"},
	"iterm":   {"ITERM_SESSION_ID": "w0t1p0:6B29B5D2-3F4E-4A1B-9C8D-7E6F5A4B3C2D"},
	"term":    {"TERM_SESSION_ID": "A1B2C3D4-E5F6-4789-ABCD-EF0123456789"},
	"konsole": {"KONSOLE_DBUS_SERVICE": ":1.42", "KONSOLE_DBUS_SESSION": "/Sessions/2"},
	"gnome":   {"GNOME_TERMINAL_SCREEN": "/org/gnome/Terminal/screen/5e1f0c1a_6b2d_4c3e_8f4a_9b0c1d2e3f4a"},
}

func paneIdentity(t *testing.T, vars map[string]string, boot string) Identity {
	t.Helper()
	f, _ := chain(terminal(lvl{})...)
	f.boot = boot
	return identify(t, Options{Getenv: envMap(vars), Proc: f})
}

func merge(sets ...map[string]string) map[string]string {
	m := map[string]string{}
	for _, s := range sets {
		for k, v := range s {
			m[k] = v
		}
	}
	return m
}

func TestEveryPaneSet(t *testing.T) {
	require.Len(t, paneEnv, len(DefaultPaneVars), "one example per table entry")
	names := map[string]string{}
	for _, pv := range DefaultPaneVars {
		t.Run(pv.Label, func(t *testing.T) {
			vars, ok := paneEnv[pv.Label]
			require.True(t, ok)
			id := paneIdentity(t, vars, "boot-1")
			assert.Equal(t, RulePane, id.Rule)
			assert.Equal(t, pv.Label, id.Source)
			assert.Equal(t, pv.Vars[0], id.Var)
			assert.True(t, strings.HasPrefix(id.Name, pv.Label+"-"), id.Name)
			assert.False(t, id.FromAgent)
			for other, name := range names {
				assert.NotEqual(t, name, id.Name, "same name as %s", other)
			}
			names[pv.Label] = id.Name

			// Stable for the pane; another pane, or the same pane
			// number after a reboot, is another session.
			assert.Equal(t, id.Name, paneIdentity(t, vars, "boot-1").Name)
			assert.NotEqual(t, id.Name, paneIdentity(t, vars, "boot-2").Name, "pane numbers are reused after a reboot")
			for _, v := range pv.Vars {
				changed := merge(vars, map[string]string{v: strings.Replace(vars[v], "1", "9", 1) + "9"})
				if pv.UUIDPart {
					changed[v] = "w0t1p0:" + strings.ToUpper(uuidB)
				}
				assert.NotEqual(t, id.Name, paneIdentity(t, changed, "boot-1").Name, "%s changed", v)
			}

			// Each required variable alone is not a pane.
			if len(pv.Vars) > 1 {
				for _, v := range pv.Vars {
					partial := map[string]string{v: vars[v]}
					p := paneIdentity(t, partial, "boot-1")
					assert.Equal(t, RuleProcessSession, p.Rule, "%s alone", v)
					assert.Contains(t, strings.Join(p.Report[4].Saw, "\n"), "incomplete")
				}
			}
		})
	}
}

// Emulator variables leak into every multiplexer pane started inside the
// emulator, so the multiplexer wins; the table order is the precedence.
func TestMixedPaneSets(t *testing.T) {
	tests := []struct {
		name string
		sets []string
		want string
	}{
		{"tmux inside kitty", []string{"kitty", "tmux"}, "tmux"},
		{"tmux inside wezterm", []string{"wezterm", "tmux"}, "tmux"},
		{"zellij inside ghostty", []string{"ghostty", "zellij"}, "zellij"},
		{"screen inside gnome-terminal", []string{"gnome", "screen"}, "screen"},
		{"tmux inside iTerm2", []string{"iterm", "term", "tmux"}, "tmux"},
		{"iTerm2 sets TERM_SESSION_ID too", []string{"term", "iterm"}, "iterm"},
		{"tmux inside konsole", []string{"konsole", "tmux"}, "tmux"},
		{"screen inside Windows Terminal", []string{"wt", "screen"}, "screen"},
		{"every set at once", nil, "tmux"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var vars []map[string]string
			if tt.sets == nil {
				for _, v := range paneEnv {
					vars = append(vars, v)
				}
			}
			for _, s := range tt.sets {
				vars = append(vars, paneEnv[s])
			}
			mixed := paneIdentity(t, merge(vars...), "boot-1")
			alone := paneIdentity(t, paneEnv[tt.want], "boot-1")
			assert.Equal(t, tt.want, mixed.Source)
			assert.Equal(t, alone.Name, mixed.Name, "the leaked emulator variables do not change the pane's session")
			assert.Contains(t, strings.Join(mixed.Report[4].Saw, "\n"), "lower precedence than "+tt.want)
		})
	}

	// Two tmux panes in one kitty window are two sessions.
	a := paneIdentity(t, merge(paneEnv["kitty"], paneEnv["tmux"]), "boot-1")
	b := paneIdentity(t, merge(paneEnv["kitty"], paneEnv["tmux"], map[string]string{"TMUX_PANE": "%4"}), "boot-1")
	assert.NotEqual(t, a.Name, b.Name)
}

func TestPaneDetails(t *testing.T) {
	t.Run("iTerm2: only the UUID part counts", func(t *testing.T) {
		a := paneIdentity(t, map[string]string{"ITERM_SESSION_ID": "w0t1p0:" + uuidA}, "b")
		moved := paneIdentity(t, map[string]string{"ITERM_SESSION_ID": "w2t0p1:" + strings.ToUpper(uuidA)}, "b")
		assert.Equal(t, a.Name, moved.Name, "a tab moved to another position is the same pane")
		noUUID := paneIdentity(t, map[string]string{"ITERM_SESSION_ID": "w0t1p0"}, "b")
		assert.Equal(t, RuleProcessSession, noUUID.Rule)
		assert.Contains(t, strings.Join(noUUID.Report[4].Saw, "\n"), "no UUID part")
	})

	t.Run("WezTerm's socket tells two GUI instances apart", func(t *testing.T) {
		withSock := paneIdentity(t, paneEnv["wezterm"], "b")
		other := paneIdentity(t, merge(paneEnv["wezterm"], map[string]string{"WEZTERM_UNIX_SOCKET": "/run/user/1000/wezterm/gui-sock-1"}), "b")
		without := paneIdentity(t, map[string]string{"WEZTERM_PANE": "7"}, "b")
		assert.Equal(t, RulePane, without.Rule)
		assert.NotEqual(t, withSock.Name, other.Name)
		assert.NotEqual(t, withSock.Name, without.Name)
	})

	t.Run("window-wide and leaking variables are not panes", func(t *testing.T) {
		id := paneIdentity(t, map[string]string{"WINDOWID": "123", "ALACRITTY_WINDOW_ID": "94", "VSCODE_PID": "5", "VSCODE_GIT_IPC_HANDLE": "/x"}, "b")
		assert.Equal(t, RuleProcessSession, id.Rule)
		saw := strings.Join(id.Report[4].Saw, "\n")
		assert.Contains(t, saw, "WINDOWID=123: ignored")
		assert.Contains(t, saw, "ALACRITTY_WINDOW_ID=94: ignored")
	})

	t.Run("an agent in a tmux pane is still the agent", func(t *testing.T) {
		f, _ := chain(terminal(lvl{})...)
		id := identify(t, Options{Getenv: envMap(merge(paneEnv["tmux"], map[string]string{"CODEX_THREAD_ID": uuidB})), Proc: f})
		assert.Equal(t, RuleHarnessID, id.Rule)
		assert.Contains(t, strings.Join(id.Report[4].Saw, "\n"), "TMUX_PANE=%3")
	})

	t.Run("without a boot id the pane still counts", func(t *testing.T) {
		f, _ := chain(terminal(lvl{})...)
		f.bootErr = errors.New("no boot id here")
		id := identify(t, Options{Getenv: envMap(paneEnv["tmux"]), Proc: f})
		assert.Equal(t, RulePane, id.Rule)
		assert.Contains(t, strings.Join(id.Report[4].Saw, "\n"), "boot id unknown")
	})

	t.Run("a custom table", func(t *testing.T) {
		f, _ := chain(terminal(lvl{})...)
		id := identify(t, Options{
			Getenv:   envMap(merge(paneEnv["tmux"], map[string]string{"MYTERM_TAB": "9"})),
			Proc:     f,
			PaneVars: append([]PaneVar{{Label: "My Term!", Vars: []string{"MYTERM_TAB"}}}, DefaultPaneVars...),
		})
		assert.Equal(t, RulePane, id.Rule)
		assert.True(t, strings.HasPrefix(id.Name, "myterm-"), "an odd label is made safe: %s", id.Name)
	})
}
