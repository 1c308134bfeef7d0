package config

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeGaps are the differences between README's settings table and the
// table here that the README change wiring this package in will close:
// the keys new in it and the new default of run.drain_timeout. The test
// fails when one is closed, so that the entry is removed here.
var readmeGaps = map[string]string{}

var firstCode = regexp.MustCompile("`([^`]*)`")

// TestREADMESettings compares README's settings table (key, env, flag,
// default) with the table.
func TestREADMESettings(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(b), "\n## Settings\n")
	require.True(t, ok, "README has a Settings section")
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
		gap, isGap := readmeGaps[d.Key]
		switch {
		case isGap && gap == "missing":
			assert.False(t, ok, "%s is in README now: remove it from readmeGaps", d.Key)
			continue
		case isGap:
			assert.NotEqual(t, d.Default, r.def, "%s: README has the new default now: remove it from readmeGaps", d.Key)
			r.def = d.Default
		}
		if !assert.True(t, ok, "%s is not in README's settings table", d.Key) {
			continue
		}
		assert.Equal(t, d.Env, r.env, "%s: env", d.Key)
		assert.Equal(t, d.Flag, r.flag, "%s: flag", d.Key)
		assert.Equal(t, d.Default, r.def, "%s: default", d.Key)
		delete(rows, d.Key)
	}
	assert.Empty(t, rows, "README lists settings rac does not have")
}
