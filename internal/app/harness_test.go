package app

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/session"
)

// TestHarnessVars: the settings' additions to the harness tables decide
// whether an agent runs rac (then no pager), each table on its own: a bad
// id entry is Identify's usage error and leaves the marker table in force.
func TestHarnessVars(t *testing.T) {
	f := newFixture(t)
	f.env["WIDGET_AGENT"] = "1"
	pager := func() string {
		cmd, _ := f.app().Pager(ReadRequest{}, "less", true)
		return cmd
	}
	assert.Equal(t, "less", pager(), "WIDGET_AGENT is no marker of the default table")

	f.set.MarkerVars = []string{"WIDGET_AGENT=widget"}
	assert.Empty(t, pager(), "a marker the settings add says an agent runs rac")
	_, err := f.app().Identify(false)
	require.NoError(t, err)

	f.set.IDVars = []string{"=nolabel"}
	assert.Empty(t, pager(), "a bad id entry leaves the marker table in force")
	_, err = f.app().Identify(false)
	assert.True(t, IsUsage(err), "%v", err)
	assert.ErrorIs(t, err, session.ErrBadVarSpec)

	f.set.IDVars, f.set.MarkerVars = nil, []string{"=nolabel"}
	assert.Equal(t, "less", pager(), "a bad marker entry: the default table, which lacks WIDGET_AGENT")
	_, err = f.app().Identify(false)
	assert.ErrorIs(t, err, session.ErrBadVarSpec)
}
