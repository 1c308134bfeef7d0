package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/runspec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// env is a test environment whose config file lives in a temporary
// XDG_CONFIG_HOME.
type env map[string]string

func (e env) getenv(k string) string { return e[k] }

// setup returns an environment with XDG_CONFIG_HOME in a temporary folder
// and the config file's path; yaml, when not "", is written there (0600).
func setup(t *testing.T, yaml string) (env, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "rac", "config.yaml")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	if yaml != "" {
		require.NoError(t, os.WriteFile(path, []byte(yaml), 0o600))
	}
	return env{"XDG_CONFIG_HOME": dir, "HOME": "/nonexistent"}, path
}

func load(t *testing.T, e env, flags map[string]string) (*Settings, error) {
	t.Helper()
	return Load(Options{Getenv: e.getenv, Flags: flags})
}

func TestPath(t *testing.T) {
	tests := []struct {
		name string
		env  env
		want string
	}{
		{"xdg", env{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/rac/config.yaml"},
		{"relative xdg is ignored", env{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/rac/config.yaml"},
		{"home", env{"HOME": "/h"}, "/h/.config/rac/config.yaml"},
		{"nowhere", env{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Path(tt.env.getenv))
		})
	}
}

func TestDefaults(t *testing.T) {
	e, path := setup(t, "")
	s, err := load(t, e, nil)
	require.NoError(t, err)
	assert.Equal(t, path, s.File)
	assert.False(t, s.FileRead)
	assert.Empty(t, s.Warnings)
	assert.Equal(t, Value[time.Duration]{V: 100 * time.Millisecond, Source: Default, From: "default"}, s.Run.DrainTimeout)
	assert.Equal(t, time.Duration(0), s.Run.Timeout.V)
	assert.Equal(t, 5*time.Second, s.Run.KillAfter.V)
	assert.Equal(t, runspec.AnnounceAuto, s.Run.Announce.V)
	assert.Equal(t, runspec.ModeAuto, s.Run.Mode.V)
	assert.Equal(t, 20*time.Millisecond, s.Run.SignalSettle.V)
	assert.Empty(t, s.Run.Interactive.V)
	assert.Equal(t, 10, s.Run.SummaryHead.V)
	assert.Equal(t, ColorAuto, s.Color.V)
	assert.True(t, s.Redact.Enabled.V)
	assert.Empty(t, s.Redact.Rules.V)
	assert.Equal(t, int64(64<<20), s.Record.MaxBytes.V)
	assert.Equal(t, int64(1<<20), s.Record.HeadBytes.V)
	assert.Equal(t, 7*24*time.Hour, s.GC.MaxAge.V)
	assert.Equal(t, int64(2<<30), s.GC.MaxStoreBytes.V)
	assert.Equal(t, time.Hour, s.GC.Interval.V)
}

func TestNoHome(t *testing.T) {
	s, err := Load(Options{})
	require.NoError(t, err)
	assert.Equal(t, "", s.File)
	assert.Equal(t, 100*time.Millisecond, s.Run.DrainTimeout.V)
}

// TestPrecedence: flag > env > file > default, for each source, and the
// From of each.
func TestPrecedence(t *testing.T) {
	const file = "run:\n  timeout: 3s\n"
	tests := []struct {
		name     string
		file     string
		env      env
		flags    map[string]string
		want     time.Duration
		source   Source
		fromWant string // "PATH" stands for the config file
	}{
		{"default", "", nil, nil, 0, Default, "default"},
		{"file", file, nil, nil, 3 * time.Second, File, "run.timeout in PATH"},
		{"env over file", file, env{"RAC_RUN_TIMEOUT": "4s"}, nil, 4 * time.Second, Env, "RAC_RUN_TIMEOUT"},
		{"empty env is unset", file, env{"RAC_RUN_TIMEOUT": ""}, nil, 3 * time.Second, File, "run.timeout in PATH"},
		{"flag over env", file, env{"RAC_RUN_TIMEOUT": "4s"}, map[string]string{"run.timeout": "5s"}, 5 * time.Second, Flag, "--timeout"},
		{"flag over default", "", nil, map[string]string{"run.timeout": "5s"}, 5 * time.Second, Flag, "--timeout"},
		{"env over default", "", env{"RAC_RUN_TIMEOUT": "4s"}, nil, 4 * time.Second, Env, "RAC_RUN_TIMEOUT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, path := setup(t, tt.file)
			for k, v := range tt.env {
				e[k] = v
			}
			s, err := load(t, e, tt.flags)
			require.NoError(t, err)
			assert.Equal(t, tt.want, s.Run.Timeout.V)
			assert.Equal(t, tt.source, s.Run.Timeout.Source)
			assert.Equal(t, strings.ReplaceAll(tt.fromWant, "PATH", path), s.Run.Timeout.From)
			// the other settings are untouched
			assert.Equal(t, Default, s.Run.KillAfter.Source)
		})
	}
}

func TestInverseFlag(t *testing.T) {
	e, _ := setup(t, "redact:\n  enabled: true\n")
	e["RAC_REDACT_ENABLED"] = "true"
	s, err := load(t, e, map[string]string{"redact.enabled": "true"}) // --no-redact
	require.NoError(t, err)
	assert.Equal(t, Value[bool]{V: false, Source: Flag, From: "--no-redact"}, s.Redact.Enabled)

	s, err = load(t, e, map[string]string{"redact.enabled": "false"}) // --no-redact=false
	require.NoError(t, err)
	assert.True(t, s.Redact.Enabled.V)

	e["RAC_REDACT_ENABLED"] = "false" // the variable says what the setting says
	s, err = load(t, e, nil)
	require.NoError(t, err)
	assert.Equal(t, Value[bool]{V: false, Source: Env, From: "RAC_REDACT_ENABLED"}, s.Redact.Enabled)
}

func TestFlagOfNoSetting(t *testing.T) {
	e, _ := setup(t, "")
	for _, key := range []string{"run.nope", "gc.max_age"} { // unknown; no flag
		_, err := load(t, e, map[string]string{key: "1"})
		require.Error(t, err)
		assert.Contains(t, err.Error(), key)
		assert.False(t, errors.Is(err, ErrInvalid), "cmd/rac's mistake, not a usage error")
	}
}

// TestBadValues: every kind's bad value names the flag, variable or key
// (and the file) and says what to use.
func TestBadValues(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		env   env
		flags map[string]string
		want  string // "PATH" stands for the config file
	}{
		{"duration without unit, flag", "", nil, map[string]string{"run.timeout": "5"}, `invalid --timeout "5": use a unit, like 5s`},
		{"duration without unit, env", "", env{"RAC_RUN_DRAIN_TIMEOUT": "1.5"}, nil, `invalid RAC_RUN_DRAIN_TIMEOUT "1.5": use a unit, like 1.5s`},
		{"duration without unit, file", "run:\n  kill_after: 5\n", nil, nil, `invalid run.kill_after "5" in PATH: use a unit, like 5s`},
		{"duration", "run:\n  drain_timeout: soon\n", nil, nil, `invalid run.drain_timeout "soon" in PATH: use a duration like 100ms, 5s or 10m`},
		{"negative duration", "", env{"RAC_RUN_KILL_AFTER": "-1s"}, nil, `invalid RAC_RUN_KILL_AFTER "-1s": use a duration like 100ms, 5s or 10m`},
		{"age", "", env{"RAC_GC_MAX_AGE": "x"}, nil, `invalid RAC_GC_MAX_AGE "x": use a duration like 168h or 7d`},
		{"age without unit", "gc:\n  interval: 2\n", nil, nil, `invalid gc.interval "2" in PATH: use a unit, like 2d or 2h`},
		{"negative days", "", env{"RAC_GC_MAX_AGE": "-1d"}, nil, `invalid RAC_GC_MAX_AGE "-1d": use a duration like 168h or 7d`},
		{"size", "", env{"RAC_RECORD_MAX_BYTES": "lots"}, nil, `invalid RAC_RECORD_MAX_BYTES "lots": use bytes or a unit, like 256MiB`},
		{"size unit", "record:\n  head_bytes: 2XB\n", nil, nil, `invalid record.head_bytes "2XB" in PATH: unknown unit "XB": use B, KiB, MiB, GiB, TiB (binary) or KB, MB, GB, TB (decimal)`},
		{"size too large", "", env{"RAC_RECORD_MAX_BYTES": "9000000TiB"}, nil, `invalid RAC_RECORD_MAX_BYTES "9000000TiB": too large: use at most 8EiB`},
		{"int", "", nil, map[string]string{"run.summary_head": "-1"}, `invalid --summary-head "-1": use a whole number from 0, like 10`},
		{"int in file", "run:\n  summary_tail: ten\n", nil, nil, `invalid run.summary_tail "ten" in PATH: use a whole number from 0, like 10`},
		{"bool", "", env{"RAC_REDACT_ENABLED": "maybe"}, nil, `invalid RAC_REDACT_ENABLED "maybe": use true or false`},
		{"bool flag", "", nil, map[string]string{"run.json": "yes"}, `invalid --json "yes": use true or false`},
		{"bool in file", "run:\n  summary: yes\n", nil, nil, `invalid run.summary "yes" in PATH: use true or false`},
		{"announce", "run:\n  announce: loud\n", nil, nil, `invalid run.announce "loud" in PATH: use start, end, both, failed, none or auto`},
		{"color", "", nil, map[string]string{"color": "yes"}, `invalid --color "yes": use auto, always or never`},
		{"list given a mapping", "redact:\n  allow: {git: true}\n", nil, nil, `invalid redact.allow in PATH: use a list of strings, like [a, b]`},
		{"list of lists", "redact:\n  allow: [[a]]\n", nil, nil, `invalid redact.allow in PATH: use a list of strings, like [a, b]`},
		{"one value given a list", "run:\n  timeout: [1s]\n", nil, nil, `invalid run.timeout in PATH: use one value, not a list`},
		{"one value given a mapping", "color:\n  auto: true\n", nil, nil, `invalid color in PATH: use one value, not a mapping`},
		{"section given a value", "run: fast\n", nil, nil, `invalid run in PATH: use a mapping of settings (keys indented under run:)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, path := setup(t, tt.file)
			for k, v := range tt.env {
				e[k] = v
			}
			_, err := load(t, e, tt.flags)
			require.Error(t, err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "PATH", path), err.Error())
			assert.ErrorIs(t, err, ErrInvalid)
			assert.NotErrorIs(t, err, ErrUnsafe)
			var ce *Error
			require.ErrorAs(t, err, &ce)
		})
	}
}

// TestGoodValues: the forms each kind accepts.
func TestGoodValues(t *testing.T) {
	tests := []struct {
		env  string
		val  string
		get  func(*Settings) any
		want any
	}{
		{"RAC_RUN_TIMEOUT", "0", func(s *Settings) any { return s.Run.Timeout.V }, time.Duration(0)},
		{"RAC_RUN_TIMEOUT", "1m30s", func(s *Settings) any { return s.Run.Timeout.V }, 90 * time.Second},
		{"RAC_GC_MAX_AGE", "0", func(s *Settings) any { return s.GC.MaxAge.V }, time.Duration(0)},
		{"RAC_GC_MAX_AGE", "1.5d", func(s *Settings) any { return s.GC.MaxAge.V }, 36 * time.Hour},
		{"RAC_GC_MAX_AGE", "90m", func(s *Settings) any { return s.GC.MaxAge.V }, 90 * time.Minute},
		{"RAC_RECORD_MAX_BYTES", "4096", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(4096)},
		{"RAC_RECORD_MAX_BYTES", "8K", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(8192)},
		{"RAC_RECORD_MAX_BYTES", "8kib", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(8192)},
		{"RAC_RECORD_MAX_BYTES", "500KB", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(500000)},
		{"RAC_RECORD_MAX_BYTES", "1.5 MiB", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(1572864)},
		{"RAC_GC_MAX_STORE_BYTES", "1TB", func(s *Settings) any { return s.GC.MaxStoreBytes.V }, int64(1e12)},
		{"RAC_GC_MAX_STORE_BYTES", "2T", func(s *Settings) any { return s.GC.MaxStoreBytes.V }, int64(2 << 40)},
		{"RAC_GC_MIN_FREE_BYTES", "1G", func(s *Settings) any { return s.GC.MinFreeBytes.V }, int64(1 << 30)},
		{"RAC_GC_MIN_FREE_BYTES", "3GB", func(s *Settings) any { return s.GC.MinFreeBytes.V }, int64(3e9)},
		{"RAC_RECORD_MAX_BYTES", "1M", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(1 << 20)},
		{"RAC_RECORD_MAX_BYTES", "2MB", func(s *Settings) any { return s.Record.MaxBytes.V }, int64(2e6)},
		{"RAC_RUN_SUMMARY", "1", func(s *Settings) any { return s.Run.Summary.V }, true},
		{"RAC_RUN_ANNOUNCE", "failed", func(s *Settings) any { return s.Run.Announce.V }, runspec.AnnounceFailed},
		{"RAC_COLOR", "never", func(s *Settings) any { return s.Color.V }, ColorNever},
	}
	for _, tt := range tests {
		t.Run(tt.env+"="+tt.val, func(t *testing.T) {
			e, _ := setup(t, "")
			e[tt.env] = tt.val
			s, err := load(t, e, nil)
			require.NoError(t, err)
			assert.Equal(t, tt.want, tt.get(s))
		})
	}
}

func TestLists(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  env
		get  func(*Settings) Value[[]string]
		want []string
		src  Source
	}{
		{"env, comma-separated, spaces dropped", "", env{"RAC_REDACT_ENV_NAMES": "A_THING, B_THING,,"}, func(s *Settings) Value[[]string] { return s.Redact.EnvNames }, []string{"A_THING", "B_THING"}, Env},
		{"env over file", "redact:\n  allow: [make]\n", env{"RAC_REDACT_ALLOW": "go,npm"}, func(s *Settings) Value[[]string] { return s.Redact.Allow }, []string{"go", "npm"}, Env},
		{"env of only a comma: no entries", "", env{"RAC_REDACT_ALLOW": ","}, func(s *Settings) Value[[]string] { return s.Redact.Allow }, nil, Env},
		{"file list", "redact:\n  allow:\n    - not-a-secret\n    - 12345\n", nil, func(s *Settings) Value[[]string] { return s.Redact.Allow }, []string{"not-a-secret", "12345"}, File},
		{"file flow list", "session:\n  id_vars: [ACME_ID=acme, WIDGET_ID=widget:WIDGET_ON]\n", nil, func(s *Settings) Value[[]string] { return s.Session.IDVars }, []string{"ACME_ID=acme", "WIDGET_ID=widget:WIDGET_ON"}, File},
		{"file single value is one entry, comma and all", "redact:\n  allow: 'a,b'\n", nil, func(s *Settings) Value[[]string] { return s.Redact.Allow }, []string{"a,b"}, File},
		{"file empty list", "redact:\n  env_names: []\n", nil, func(s *Settings) Value[[]string] { return s.Redact.EnvNames }, []string{}, File},
		{"marker vars from env", "", env{"RAC_SESSION_MARKER_VARS": "ACME_AGENT=acme,-AGENT"}, func(s *Settings) Value[[]string] { return s.Session.MarkerVars }, []string{"ACME_AGENT=acme", "-AGENT"}, Env},
		{"list from file", "redact:\n  env_names: [ACME_PW, ACME_PIN]\n", nil, func(s *Settings) Value[[]string] { return s.Redact.EnvNames }, []string{"ACME_PW", "ACME_PIN"}, File},
		{"list default", "", nil, func(s *Settings) Value[[]string] { return s.Redact.Allow }, nil, Default},
		{"interactive from file", "run:\n  interactive: [tig, lazygit]\n", nil, func(s *Settings) Value[[]string] { return s.Run.Interactive }, []string{"tig", "lazygit"}, File},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := setup(t, tt.file)
			for k, v := range tt.env {
				e[k] = v
			}
			s, err := load(t, e, nil)
			require.NoError(t, err)
			got := tt.get(s)
			assert.Equal(t, tt.want, got.V)
			assert.Equal(t, tt.src, got.Source)
		})
	}
}

func TestRules(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		want    []Rule
		wantErr string // "PATH" stands for the config file
	}{
		{
			name: "rules, keys in any case",
			file: "redact:\n  rules:\n    - name: acme-token\n      prefix: ACME-\n      pattern: 'ACME-acme_[A-Za-z0-9]{20,}'\n    - Name: team-token\n      PREFIX: TEAM-\n      Pattern: 'TEAM-[0-9a-f]{16}'\n",
			want: []Rule{{Name: "acme-token", Prefix: "ACME-", Pattern: "ACME-acme_[A-Za-z0-9]{20,}"}, {Name: "team-token", Prefix: "TEAM-", Pattern: "TEAM-[0-9a-f]{16}"}},
		},
		{
			name: "a missing field is empty (redact.New names the rule)",
			file: "redact:\n  rules:\n    - {name: x, pattern: 'x[0-9]+'}\n",
			want: []Rule{{Name: "x", Pattern: "x[0-9]+"}},
		},
		{name: "not a list", file: "redact:\n  rules: acme\n", wantErr: `invalid redact.rules in PATH: use a list of {name, prefix, pattern}`},
		{name: "entry not a mapping", file: "redact:\n  rules: [acme]\n", wantErr: `invalid redact.rules[0] in PATH: use a list of {name, prefix, pattern}`},
		{name: "unknown field", file: "redact:\n  rules:\n    - {name: x, patern: y}\n", wantErr: `invalid redact.rules[0] in PATH: unknown field "patern": use name, prefix and pattern`},
		{name: "field twice", file: "redact:\n  rules:\n    - name: x\n      Name: y\n", wantErr: `config file PATH: redact.rules[0].name is set twice ("name" on line 3 and "Name" on line 4)`},
		{name: "field not a string", file: "redact:\n  rules:\n    - {name: [x]}\n", wantErr: `invalid redact.rules[0].name in PATH: use a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, path := setup(t, tt.file)
			s, err := load(t, e, nil)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, strings.ReplaceAll(tt.wantErr, "PATH", path), err.Error())
				assert.ErrorIs(t, err, ErrInvalid)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, s.Redact.Rules.V)
			assert.Equal(t, File, s.Redact.Rules.Source)
		})
	}
}

// TestFileKeys: nesting, case, dotted keys, nulls, and keys given twice.
func TestFileKeys(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		check   func(t *testing.T, s *Settings)
		wantErr string // "PATH" stands for the config file
	}{
		{name: "nested and any case", file: "Run:\n  Announce: none\nGC:\n  Max_Age: 3d\n", check: func(t *testing.T, s *Settings) {
			assert.Equal(t, runspec.AnnounceNone, s.Run.Announce.V)
			assert.Equal(t, 72*time.Hour, s.GC.MaxAge.V)
			assert.Equal(t, File, s.GC.MaxAge.Source)
		}},
		{name: "dotted key at the top", file: "run.announce: end\nRecord.Max_Bytes: 8KiB\nrun:\n  timeout: 2s\n", check: func(t *testing.T, s *Settings) {
			assert.Equal(t, runspec.AnnounceEnd, s.Run.Announce.V)
			assert.Equal(t, int64(8192), s.Record.MaxBytes.V)
			assert.Equal(t, 2*time.Second, s.Run.Timeout.V)
		}},
		{name: "a top-level key", file: "color: never\n", check: func(t *testing.T, s *Settings) {
			assert.Equal(t, ColorNever, s.Color.V)
		}},
		{name: "a key with no value is not set", file: "run:\n  announce:\ngc:\n", check: func(t *testing.T, s *Settings) {
			assert.Equal(t, Value[runspec.Announce]{V: runspec.AnnounceAuto, Source: Default, From: "default"}, s.Run.Announce)
			assert.Empty(t, s.Warnings)
		}},
		{name: "empty file", file: "# nothing yet\n", check: func(t *testing.T, s *Settings) {
			assert.True(t, s.FileRead)
			assert.Equal(t, Default, s.Run.Announce.Source)
		}},
		{name: "anchors and merge keys", file: "base: &b\n  announce: end\nrun:\n  <<: *b\n  timeout: &t 9s\n  kill_after: *t\n", check: func(t *testing.T, s *Settings) {
			assert.Equal(t, runspec.AnnounceEnd, s.Run.Announce.V)
			assert.Equal(t, 9*time.Second, s.Run.KillAfter.V)
			assert.Equal(t, []Warning{{Key: "base.announce", Path: s.File}}, s.Warnings)
		}},
		{name: "sections twice", file: "Run:\n  announce: none\nrun:\n  timeout: 1s\n", wantErr: `config file PATH: run is set twice ("Run" on line 1 and "run" on line 3)`},
		{name: "same spelling twice", file: "run:\n  timeout: 1s\n  timeout: 2s\n", wantErr: `config file PATH: run.timeout is set twice ("run: timeout" on line 2 and "run: timeout" on line 3)`},
		{name: "key twice in case", file: "run:\n  announce: none\n  ANNOUNCE: end\n", wantErr: `config file PATH: run.announce is set twice ("run: announce" on line 2 and "run: ANNOUNCE" on line 3)`},
		{name: "dotted and nested", file: "run.announce: none\nrun:\n  announce: end\n", wantErr: `config file PATH: run.announce is set twice ("run.announce" on line 1 and "run: announce" on line 3)`},
		{name: "dotted in two cases", file: "Run.Announce: none\nrun.announce: end\n", wantErr: `config file PATH: run.announce is set twice ("Run.Announce" on line 1 and "run.announce" on line 2)`},
		{name: "null section twice", file: "run:\nRUN:\n  announce: end\n", wantErr: `config file PATH: run is set twice ("run" on line 1 and "RUN" on line 2)`},
		{name: "merge key and own key", file: "b: &b {announce: end}\nrun:\n  <<: *b\n  announce: none\n", wantErr: `config file PATH: run.announce is set twice ("run: announce" on line 1 and "run: announce" on line 4)`},
		{name: "not YAML", file: "run: [announce\n", wantErr: "config file PATH: yaml: line 1: did not find expected ',' or ']'"},
		{name: "not a mapping", file: "- run\n- announce\n", wantErr: "config file PATH: use a mapping of sections (run:, redact:, ...), not a list"},
		{name: "a key that is a list", file: "? [a, b]\n: c\n", wantErr: "config file PATH: line 1: use a name as a key, not a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, path := setup(t, tt.file)
			s, err := load(t, e, nil)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, strings.ReplaceAll(tt.wantErr, "PATH", path), err.Error())
				assert.ErrorIs(t, err, ErrInvalid)
				return
			}
			require.NoError(t, err)
			tt.check(t, s)
		})
	}
}

func TestUnknownKeys(t *testing.T) {
	e, path := setup(t, "run:\n  annnounce: none\n  timeout: 1s\nredact:\n  enabeld: false\n  0: legacy\n  env_names: [ACME_THING]\ntop: 1\nnew:\n  section:\n    key: 2\nrun.nope:\n")
	s, err := load(t, e, nil)
	require.NoError(t, err)
	var keys []string
	for _, w := range s.Warnings {
		assert.Equal(t, path, w.Path)
		keys = append(keys, w.Key)
	}
	assert.Equal(t, []string{"new.section.key", "redact.0", "redact.enabeld", "run.annnounce", "run.nope", "top"}, keys)
	assert.Equal(t, `unknown setting "run.annnounce" in `+path+` ('rac config' lists the settings)`, s.Warnings[3].String())
	// the known keys beside them still count
	assert.Equal(t, time.Second, s.Run.Timeout.V)
	assert.Equal(t, []string{"ACME_THING"}, s.Redact.EnvNames.V)
	assert.True(t, s.Redact.Enabled.V)
}

func TestFileRefused(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		want    string // "PATH" stands for the config file
		unsafe  bool
	}{
		{"writable by others", func(t *testing.T, path string) {
			write(t, path, "run:\n  timeout: 1s\n", 0o666)
		}, "config file PATH: writable by others (mode 0666); fix it with: chmod go-w PATH", true},
		{"writable by a shared group", func(t *testing.T, path string) {
			write(t, path, "run:\n  timeout: 1s\n", 0o620)
			groupsAre(t, fmt.Sprintf("staff:x:%d:someone\n", os.Getegid()))
		}, "config file PATH: writable by its group (gid " + strconv.Itoa(os.Getegid()) + "), which is not your private group (mode 0620); fix it with: chmod g-w PATH", true},
		{"writable by a group rac cannot look up", func(t *testing.T, path string) {
			write(t, path, "run:\n  timeout: 1s\n", 0o620)
			groupsAre(t, "")
		}, "config file PATH: writable by its group (gid " + strconv.Itoa(os.Getegid()) + "), which rac cannot tell is yours alone (mode 0620); fix it with: chmod g-w PATH", true},
		{"owned by someone else", func(t *testing.T, path string) {
			foreign(t, path)
		}, "config file PATH: owned by uid " + strconv.Itoa(foreignUID()) + ", not by you (uid " + strconv.Itoa(os.Geteuid()) + ")", true},
		{"a directory", func(t *testing.T, path string) {
			require.NoError(t, os.Mkdir(path, 0o700))
		}, "config file PATH: not a regular file (a directory)", true},
		{"over 1 MiB", func(t *testing.T, path string) {
			write(t, path, "# "+strings.Repeat("x", MaxFileSize)+"\n", 0o600)
		}, "config file PATH: 1048579 bytes is over the limit of 1048576 bytes (1 MiB): a settings file is a few lines", false},
		{"a symlink to a writable file", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "dotfile.yaml")
			write(t, target, "run:\n  timeout: 1s\n", 0o666)
			require.NoError(t, os.Symlink(target, path))
		}, "config file PATH: writable by others (mode 0666); fix it with: chmod go-w PATH", true},
		{"unreadable", func(t *testing.T, path string) {
			require.NoError(t, os.Symlink(path, path)) // a loop: open fails
		}, "config file PATH: too many levels of symbolic links", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, path := setup(t, "")
			tt.prepare(t, path)
			_, err := load(t, e, nil)
			require.Error(t, err)
			assert.Equal(t, strings.ReplaceAll(tt.want, "PATH", path), err.Error())
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Equal(t, tt.unsafe, errors.Is(err, ErrUnsafe))
		})
	}
}

// groupsAre points the group check at a group file of these lines and a
// passwd file where the test's user has the test's group as its primary.
func groupsAre(t *testing.T, lines string) {
	dir := t.TempDir()
	g, p := filepath.Join(dir, "group"), filepath.Join(dir, "passwd")
	require.NoError(t, os.WriteFile(g, []byte(lines), 0o644))
	require.NoError(t, os.WriteFile(p, []byte(fmt.Sprintf("me:x:%d:%d::/home/me:/bin/sh\n", os.Geteuid(), os.Getegid())), 0o644))
	oldG, oldP := groupFile, passwdFile
	groupFile, passwdFile = g, p
	t.Cleanup(func() { groupFile, passwdFile = oldG, oldP })
}

// umask 002 with a private group (Debian's and Ubuntu's default for
// users): a group-writable file is still only its owner's.
func TestGroupWritableByAPrivateGroup(t *testing.T) {
	e, path := setup(t, "")
	write(t, path, "run:\n  timeout: 7s\n", 0o664)
	groupsAre(t, fmt.Sprintf("me:x:%d:\n", os.Getegid()))
	s, err := load(t, e, nil)
	require.NoError(t, err)
	assert.Equal(t, 7*time.Second, s.Run.Timeout.V)
}

func TestSymlinkToGoodFile(t *testing.T) {
	e, path := setup(t, "")
	target := filepath.Join(t.TempDir(), "dotfile.yaml")
	write(t, target, "run:\n  timeout: 7s\n", 0o644)
	require.NoError(t, os.Symlink(target, path))
	s, err := load(t, e, nil)
	require.NoError(t, err)
	assert.Equal(t, 7*time.Second, s.Run.Timeout.V)
}

func TestMissingFileIsNoFile(t *testing.T) {
	for _, xdg := range []string{"missing", "file"} {
		t.Run(xdg, func(t *testing.T) {
			dir := t.TempDir()
			if xdg == "file" { // XDG_CONFIG_HOME/rac is a file: ENOTDIR
				write(t, filepath.Join(dir, "rac"), "", 0o600)
			}
			s, err := Load(Options{Getenv: env{"XDG_CONFIG_HOME": dir}.getenv})
			require.NoError(t, err)
			assert.False(t, s.FileRead)
		})
	}
}

// TestFIFODoesNotBlock: a named pipe as the config file is refused at
// once, with no writer at the other end.
func TestFIFODoesNotBlock(t *testing.T) {
	e, path := setup(t, "")
	require.NoError(t, syscall.Mkfifo(path, 0o600))
	done := make(chan error, 1)
	go func() {
		_, err := load(t, e, nil)
		done <- err
	}()
	select {
	case err := <-done:
		require.Error(t, err)
		assert.Equal(t, "config file "+path+": not a regular file (a named pipe)", err.Error())
		assert.ErrorIs(t, err, ErrUnsafe)
	case <-time.After(10 * time.Second): // a watchdog, not a wait: Load returns at once
		// unblock the open so the goroutine ends
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("Load blocked on a FIFO")
	}
}

// TestDefsRoundTrip: every default parses, every setting's effective value
// reads back to itself, and the table follows its own rules.
func TestDefsRoundTrip(t *testing.T) {
	e, _ := setup(t, "")
	s, err := load(t, e, nil)
	require.NoError(t, err)
	all := s.All()
	require.Len(t, all, len(table))
	seenFlag := map[string]bool{}
	for i, d := range Defs() {
		t.Run(d.Key, func(t *testing.T) {
			assert.Equal(t, d.Key, all[i].Def.Key)
			assert.Equal(t, Default, all[i].Source)
			assert.Equal(t, "default", all[i].From)
			assert.Equal(t, strings.ToLower(d.Key), d.Key)
			assert.NotEmpty(t, d.Help)
			assert.Equal(t, strings.ToLower(d.Help[:1]), d.Help[:1], "help starts lower case")
			if d.Env != "" {
				assert.Equal(t, "RAC_"+strings.ToUpper(strings.ReplaceAll(d.Key, ".", "_")), d.Env)
			} else {
				assert.Equal(t, Rules, d.Kind, "only redact.rules is file-only")
			}
			if d.Flag != "" {
				assert.False(t, seenFlag[d.Flag], "flag %s twice", d.Flag)
				seenFlag[d.Flag] = true
			}
			assert.Equal(t, d.Kind == Enum, len(d.Choices) > 0)
			if d.Kind == Enum {
				assert.Contains(t, d.Choices, d.Default)
			}
			// the default's rendering reads back, as the file or a variable
			if d.Env != "" {
				e2, _ := setup(t, "")
				e2[d.Env] = all[i].Value
				s2, err := load(t, e2, nil)
				require.NoError(t, err)
				if all[i].Value == "" { // an empty variable is unset
					assert.Equal(t, Default, s2.All()[i].Source)
				} else {
					assert.Equal(t, Env, s2.All()[i].Source)
				}
				assert.Equal(t, all[i].Value, s2.All()[i].Value)
			}
		})
	}
	// the typed constants are the table's choices
	assert.Equal(t, []string{"start", "end", "both", "failed", "none", "auto"}, table[lookup("run.announce")].Choices)
	assert.Equal(t, []string{"auto", "pipe", "pty", "passthrough"}, table[lookup("run.mode")].Choices)
	for _, c := range []runspec.Announce{runspec.AnnounceStart, runspec.AnnounceEnd, runspec.AnnounceBoth, runspec.AnnounceFailed, runspec.AnnounceNone, runspec.AnnounceAuto} {
		assert.Contains(t, table[lookup("run.announce")].Choices, string(c))
	}
	for _, c := range []runspec.Mode{runspec.ModeAuto, runspec.ModePipe, runspec.ModePTY, runspec.ModePassthrough} {
		assert.Contains(t, table[lookup("run.mode")].Choices, string(c))
	}
	assert.Equal(t, []string{"auto", "always", "never"}, table[lookup("color")].Choices)
	for _, c := range []Color{ColorAuto, ColorAlways, ColorNever} {
		assert.Contains(t, table[lookup("color")].Choices, string(c))
	}
}

// TestAll: rac config's view names each value's source.
func TestAll(t *testing.T) {
	e, path := setup(t, "gc:\n  max_age: 36h\nredact:\n  rules:\n    - {name: x, prefix: X-, pattern: 'X-[0-9]+'}\n")
	e["RAC_RECORD_MAX_BYTES"] = "1536KiB"
	s, err := load(t, e, map[string]string{"run.announce": "none"})
	require.NoError(t, err)
	got := map[string]Effective{}
	for _, eff := range s.All() {
		got[eff.Def.Key] = eff
	}
	tests := []struct {
		key, value string
		src        Source
		from       string
	}{
		{"run.announce", "none", Flag, "--announce"},
		{"record.max_bytes", "1536KiB", Env, "RAC_RECORD_MAX_BYTES"},
		{"gc.max_age", "36h", File, "gc.max_age in " + path},
		{"gc.interval", "1h", Default, "default"},
		{"gc.max_store_bytes", "2GiB", Default, "default"},
		{"run.drain_timeout", "100ms", Default, "default"},
		{"run.timeout", "0", Default, "default"},
		{"redact.rules", `{name: "x", prefix: "X-", pattern: "X-[0-9]+"}`, File, "redact.rules in " + path},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.value, got[tt.key].Value, tt.key)
		assert.Equal(t, tt.src, got[tt.key].Source, tt.key)
		assert.Equal(t, tt.from, got[tt.key].From, tt.key)
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{formatDuration(7*24*time.Hour, Age), "7d"},
		{formatDuration(36*time.Hour, Age), "36h"},
		{formatDuration(90*time.Minute, Duration), "1h30m"},
		{formatDuration(2*time.Hour, Duration), "2h"},
		{formatDuration(1500*time.Millisecond, Duration), "1.5s"},
		{formatSize(0), "0"},
		{formatSize(1000), "1KB"},
		{formatSize(1001), "1001"},
		{formatSize(3 << 30), "3GiB"},
		{formatSize(1e12), "1TB"},
		{formatSize(1536 << 10), "1536KiB"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got)
	}
}

func write(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	require.NoError(t, os.Chmod(path, mode)) // past the umask
}

// foreign makes path a file someone else owns: chowned to uid 65534 when
// the tests run as root, else a symlink to /etc/passwd, which root owns.
func foreign(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		require.NoError(t, os.Symlink("/etc/passwd", path))
		return
	}
	write(t, path, "run:\n  timeout: 1s\n", 0o600)
	require.NoError(t, os.Chown(path, foreignUID(), foreignUID()))
}

func foreignUID() int {
	if os.Geteuid() != 0 {
		return 0
	}
	return 65534
}

func TestOddTopLevelKeys(t *testing.T) {
	e, _ := setup(t, "0: legacy\n~: nothing\ntrue: yes\nrun:\n  timeout: 1s\n")
	s, err := load(t, e, nil)
	require.NoError(t, err)
	assert.Equal(t, time.Second, s.Run.Timeout.V)
	assert.Len(t, s.Warnings, 3)
}

// TestOnlyInjectedEnv: the process environment is never read (viper's
// own env lookup would read it).
func TestOnlyInjectedEnv(t *testing.T) {
	t.Setenv("RAC_RUN_TIMEOUT", "9s")
	t.Setenv("RAC_RUN_ANNOUNCE", "loud")
	e, _ := setup(t, "")
	s, err := load(t, e, nil)
	require.NoError(t, err)
	assert.Equal(t, Default, s.Run.Timeout.Source)
	assert.Equal(t, runspec.AnnounceAuto, s.Run.Announce.V)
	assert.Equal(t, runspec.ModeAuto, s.Run.Mode.V)
	assert.Equal(t, 20*time.Millisecond, s.Run.SignalSettle.V)
	assert.Empty(t, s.Run.Interactive.V)
}

func TestTolerate(t *testing.T) {
	e, _ := setup(t, "gc:\n  max_age: soon\n")
	e["RAC_GC_MIN_FREE_BYTES"] = "lots"
	_, err := load(t, e, nil)
	require.Error(t, err)
	s, err := Load(Options{Getenv: e.getenv, Tolerate: func(k string) bool { return strings.HasPrefix(k, "gc.") }})
	require.NoError(t, err)
	require.Len(t, s.Tolerated, 2)
	var names []string
	for _, err := range s.Tolerated {
		var ce *Error
		require.ErrorAs(t, err, &ce)
		names = append(names, ce.Name)
	}
	assert.ElementsMatch(t, []string{"gc.max_age", "RAC_GC_MIN_FREE_BYTES"}, names)
	assert.Equal(t, 7*24*time.Hour, s.GC.MaxAge.V)
	assert.Equal(t, Default, s.GC.MaxAge.Source)
}
