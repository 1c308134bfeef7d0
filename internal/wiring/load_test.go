package wiring

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
)

// getenv is an environment with no config file (no HOME, no
// XDG_CONFIG_HOME) and the given variables.
func getenv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		name     string
		vars     map[string]string
		flags    map[string]string
		run      bool
		strict   bool
		gcOff    bool
		minFree  int64
		warnings []string
		usageErr string
	}{
		{name: "good values", vars: map[string]string{"RAC_GC_MAX_AGE": "2d"}, run: true, minFree: 256 << 20},
		{name: "run: bad gc value turns automatic gc off", vars: map[string]string{"RAC_GC_MAX_AGE": "soon"}, run: true,
			gcOff: true, minFree: 256 << 20, warnings: []string{"; automatic gc is off for this run"}},
		{name: "run: bad free-space guard turns only the guard off", vars: map[string]string{"RAC_GC_MIN_FREE_BYTES": "lots"}, run: true,
			warnings: []string{"; the free-space guard is off for this run"}},
		{name: "run: both", vars: map[string]string{"RAC_GC_MIN_FREE_BYTES": "lots", "RAC_GC_INTERVAL": "x"}, run: true,
			gcOff: true, warnings: []string{"the free-space guard is off", "automatic gc is off"}},
		{name: "other commands: a bad gc value is a usage error", vars: map[string]string{"RAC_GC_MAX_AGE": "soon"},
			usageErr: "RAC_GC_MAX_AGE"},
		{name: "run: a bad value elsewhere is the default and a warning", vars: map[string]string{"RAC_RUN_TIMEOUT": "soon"}, run: true,
			minFree: 256 << 20, warnings: []string{"invalid RAC_RUN_TIMEOUT \"soon\": use a duration like 100ms, 5s or 10m; using the default for this run"}},
		{name: "run --strict-config: a bad value is a usage error", vars: map[string]string{"RAC_RUN_TIMEOUT": "soon"}, run: true, strict: true,
			usageErr: "RAC_RUN_TIMEOUT"},
		{name: "run: a bad flag is a usage error", flags: map[string]string{"run.timeout": "soon"}, run: true,
			usageErr: "--timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var warned []string
			s, gcOff, err := Load(config.Options{Getenv: getenv(tc.vars), Flags: tc.flags}, tc.run, tc.strict, func(e error, then string) { warned = append(warned, e.Error()+"; "+then) })
			if tc.usageErr != "" {
				require.Error(t, err)
				assert.True(t, app.IsUsage(err), "%v is a usage error", err)
				assert.ErrorIs(t, err, config.ErrInvalid)
				assert.Contains(t, err.Error(), tc.usageErr)
				assert.Empty(t, warned)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.gcOff, gcOff)
			assert.Equal(t, tc.minFree, s.GC.MinFreeBytes.V)
			require.Len(t, warned, len(tc.warnings), "%q", warned)
			for i, w := range tc.warnings {
				assert.Contains(t, warned[i], w)
				assert.Contains(t, warned[i], "invalid RAC_", "the warning names the variable")
			}
			assert.Equal(t, tc.gcOff, Settings(s, "", gcOff).GC.Off)
		})
	}
}
