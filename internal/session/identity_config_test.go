package session

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseIDVars(t *testing.T) {
	got, err := ParseIDVars(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultIDVars, got)

	got, err = ParseIDVars([]string{
		" ACME_CONVERSATION=acme ",
		"CODEX_THREAD_ID=codex2",
		"WIDGET_RUN=widget:WIDGET_ACTIVE",
		"-AMP_CURRENT_THREAD_ID",
	})
	require.NoError(t, err)
	assert.Equal(t, []IDVar{
		{Var: "ACME_CONVERSATION", Label: "acme"},
		{Var: "CODEX_THREAD_ID", Label: "codex2"},
		{Var: "WIDGET_RUN", Label: "widget", Requires: "WIDGET_ACTIVE"},
	}, got[:3], "configured entries first, in the order given")
	rest := got[3:]
	assert.Len(t, rest, len(DefaultIDVars)-2, "the overridden and the dropped default are gone")
	for _, iv := range rest {
		assert.NotContains(t, []string{"CODEX_THREAD_ID", "AMP_CURRENT_THREAD_ID"}, iv.Var)
	}
	assert.Equal(t, DefaultIDVars[0], rest[0], "the remaining defaults keep their order")
	assert.Equal(t, "claude", DefaultIDVars[0].Label, "the defaults are not modified")

	for _, bad := range []string{
		"", "NOEQUALS", "=label", "1VAR=x", "VAR-X=x", "VAR=", "VAR=Upper", "VAR=-x", "VAR=x_y",
		"VAR=" + strings.Repeat("a", 17), "VAR=x:", "VAR=x:1BAD", "VAR=x:A:B", "-", "-1X", "VAR=a b",
	} {
		_, err := ParseIDVars([]string{bad})
		require.ErrorIs(t, err, ErrBadVarSpec, "entry %q", bad)
		assert.Contains(t, err.Error(), "session.id_vars", "entry %q", bad)
		assert.Contains(t, err.Error(), "VAR=LABEL:REQUIRES")
	}
	_, err = ParseIDVars([]string{"A=a", "-A"})
	require.ErrorIs(t, err, ErrBadVarSpec)
	assert.Contains(t, err.Error(), "listed twice")
}

func TestParseMarkerVars(t *testing.T) {
	got, err := ParseMarkerVars(nil)
	require.NoError(t, err)
	assert.Equal(t, DefaultMarkerVars, got)

	got, err = ParseMarkerVars([]string{"ACME_AGENT=acme:ACME_PID", "-AGENT", "CLAUDECODE=claude"})
	require.NoError(t, err)
	assert.Equal(t, MarkerVar{Var: "ACME_AGENT", Label: "acme", PIDVar: "ACME_PID"}, got[0])
	assert.Equal(t, MarkerVar{Var: "CLAUDECODE", Label: "claude"}, got[1], "overriding drops the default's PIDVar")
	for _, mv := range got[2:] {
		assert.NotEqual(t, "AGENT", mv.Var)
		assert.NotEqual(t, "CLAUDECODE", mv.Var)
	}
	assert.Len(t, got, len(DefaultMarkerVars)+1-1)

	_, err = ParseMarkerVars([]string{"ACME_AGENT=acme:"})
	require.ErrorIs(t, err, ErrBadVarSpec)
	assert.Contains(t, err.Error(), "session.marker_vars")
	assert.Contains(t, err.Error(), "VAR=LABEL:PIDVAR")
}

// A harness added in the config is recognised without a release.
func TestConfiguredVarsAreUsed(t *testing.T) {
	idVars, err := ParseIDVars([]string{"ACME_CONVERSATION=acme"})
	require.NoError(t, err)
	markerVars, err := ParseMarkerVars([]string{"WIDGET_AGENT=widget", "-GEMINI_CLI"})
	require.NoError(t, err)

	f, env := chain(agentCall("ACME_CONVERSATION="+uuidA, lvl{}, lvl{setsid: true})...)
	id := identify(t, Options{Getenv: env, Proc: f, IDVars: idVars, MarkerVars: markerVars})
	assert.Equal(t, "acme-"+uuidA, id.Name)
	assert.True(t, id.FromAgent)

	f, env = chain(agentCall("WIDGET_AGENT=1", lvl{}, lvl{setsid: true})...)
	id = identify(t, Options{Getenv: env, Proc: f, IDVars: idVars, MarkerVars: markerVars})
	assert.True(t, strings.HasPrefix(id.Name, "agent-widget-"), id.Name)

	f, env = chain(agentCall("GEMINI_CLI=1", lvl{}, lvl{setsid: true})...)
	id = identify(t, Options{Getenv: env, Proc: f, IDVars: idVars, MarkerVars: markerVars})
	assert.Equal(t, RuleProcessSession, id.Rule, "a dropped marker is not read")

	// A configured id ahead of a default one wins when both are injected
	// together.
	idVars, err = ParseIDVars([]string{"ACME_CONVERSATION=acme"})
	require.NoError(t, err)
	f, env = chain(agentCall("ACME_CONVERSATION="+uuidA, lvl{}, lvl{setsid: true, set: []string{"CLAUDE_CODE_SESSION_ID=" + uuidB}})...)
	id = identify(t, Options{Getenv: env, Proc: f, IDVars: idVars})
	assert.Equal(t, "acme-"+uuidA, id.Name)
}
