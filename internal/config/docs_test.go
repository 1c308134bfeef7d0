package config

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docsGaps are the differences between the manual's settings table
// (docs/settings.md) and the table here that a change under way will
// close: "missing" for a key new here, else the default the manual still
// gives. The test fails when one is closed, so that the entry is removed
// here.
var docsGaps = map[string]string{}

var firstCode = regexp.MustCompile("`([^`]*)`")

// TestDocsSettings compares the manual's settings table (key, env, flag,
// default), at the top of docs/settings.md, with the table.
func TestDocsSettings(t *testing.T) {
	b, err := os.ReadFile("../../docs/settings.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "# Settings\n")
	require.True(t, ok, "docs/settings.md starts with # Settings")
	type row struct{ env, flag, def string }
	rows := map[string]row{}
	for line := range strings.SplitSeq(section, "\n") {
		if strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 7 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		code := func(c string) string {
			if m := firstCode.FindStringSubmatch(c); m != nil {
				return m[1]
			}
			return ""
		}
		rows[code(cells[1])] = row{env: code(cells[2]), flag: strings.TrimPrefix(code(cells[3]), "--"), def: code(cells[4])}
	}
	require.NotEmpty(t, rows)
	for _, d := range table {
		r, ok := rows[d.Key]
		gap, isGap := docsGaps[d.Key]
		switch {
		case isGap && gap == "missing":
			assert.False(t, ok, "%s is in docs/settings.md now: remove it from docsGaps", d.Key)
			continue
		case isGap:
			assert.NotEqual(t, d.Default, r.def, "%s: docs/settings.md has the new default now: remove it from docsGaps", d.Key)
			r.def = d.Default
		}
		if !assert.True(t, ok, "%s is not in the settings table of docs/settings.md", d.Key) {
			continue
		}
		assert.Equal(t, d.Env, r.env, "%s: env", d.Key)
		assert.Equal(t, d.Flag, r.flag, "%s: flag", d.Key)
		assert.Equal(t, d.Default, r.def, "%s: default", d.Key)
		delete(rows, d.Key)
	}
	assert.Empty(t, rows, "docs/settings.md lists settings rac does not have")
}
