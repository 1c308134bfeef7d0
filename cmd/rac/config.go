package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/store"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"go.yaml.in/yaml/v3"
)

// setting is one configurable value with its one name used three ways: a
// key section.name in the config file, an env var RAC_SECTION_NAME, and a
// flag where one exists. Flags > env > config file > default.
type setting struct {
	key  string // section.name
	flag string // flag name on the commands that have it ("" for none)
	def  string
	help string
}

// envName turns run.drain_timeout into RAC_RUN_DRAIN_TIMEOUT.
func (s setting) envName() string {
	return "RAC_" + strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(s.key))
}

// settings is the table README documents. rac's own variable names never
// contain KEY, TOKEN, SECRET, AUTH or PASSWORD: agent harnesses filter such
// variables out of the environment.
var settings = []setting{
	{key: "run.drain_timeout", flag: "drain-timeout", def: "2s", help: "after the command exits, how long to wait for processes it left holding its output"},
	{key: "run.timeout", flag: "timeout", def: "0", help: "stop the command after this long (SIGTERM, then SIGKILL after run.kill_after); 0 for none"},
	{key: "run.kill_after", flag: "kill-after", def: "5s", help: "after --timeout's SIGTERM, send SIGKILL this much later"},
	{key: "run.announce", flag: "announce", def: "auto", help: "which rac: lines to print: start, end, both, none, or auto (both for agents, else end)"},
	{key: "run.summary", flag: "summary", def: "false", help: "print a compact summary (counts, head and tail, ref) on stdout instead of the command's output"},
	{key: "run.summary_head", flag: "summary-head", def: "10", help: "summary: first lines shown of a stream"},
	{key: "run.summary_tail", flag: "summary-tail", def: "10", help: "summary: last lines shown of a stream"},
	{key: "run.json", flag: "json", def: "false", help: "print a JSON object (ref, outcome, counts) on stderr before the final ref line"},
	{key: "redact.enabled", def: "true", help: "redact secrets before any byte reaches disk (--no-redact turns it off for one run)"},
	{key: "record.max_bytes", def: "64MiB", help: "cap of one recording over all its streams, after redaction; past it the head is kept whole and the tail rolls"},
	{key: "record.head_bytes", def: "1MiB", help: "how much of the start of a capped recording is kept whole (inside record.max_bytes)"},
	{key: "gc.max_age", def: "7d", help: "remove sessions whose newest recording is older than this"},
	{key: "gc.max_session_bytes", def: "256MiB", help: "remove a session's oldest finished recordings until it fits"},
	{key: "gc.max_store_bytes", def: "2GiB", help: "remove the oldest finished recordings store-wide until the store fits"},
	{key: "gc.min_free_bytes", def: "256MiB", help: "below this much free space rac run does not record (and GC runs)"},
	{key: "gc.interval", def: "1h", help: "automatic GC after rac run runs at most this often"},
}

func settingByKey(key string) setting {
	for _, s := range settings {
		if s.key == key {
			return s
		}
	}
	panic("unknown setting " + key)
}

// config holds the config file (if any) and the environment.
type config struct {
	file    map[string]any // the config file's values by flattened key; nil: no file
	path    string
	getenv  func(string) string
	unknown []string // keys of the file rac does not know (typos)
}

// configPath is $XDG_CONFIG_HOME/rac/config.yaml, else ~/.config/rac/config.yaml.
func configPath(getenv func(string) string) string {
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "rac", "config.yaml")
	}
	home := getenv("HOME")
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "rac", "config.yaml")
}

// loadConfig reads the config file when there is one. The file can turn
// redaction off, so it is refused unless the current user owns it and no
// one else can write it; a symlink (dotfile managers) is fine when its
// target passes.
func loadConfig(getenv func(string) string) (*config, error) {
	c := &config{getenv: getenv, path: configPath(getenv)}
	if c.path == "" {
		return c, nil
	}
	fi, err := os.Stat(c.path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", c.path, err)
	}
	if err := store.CheckOwnedPrivate(c.path, fi, "config file"); err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), store.ErrUnsafeStore.Error()+": "))
	}
	b, err := os.ReadFile(c.path)
	if err != nil {
		return nil, usagef("config file %s: %v", c.path, err)
	}
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, usagef("config file %s: %v", c.path, err)
	}
	c.file = map[string]any{}
	switch doc.(type) {
	case nil: // empty
	case map[string]any, map[any]any:
		spelled := map[string]string{}
		if err := flattenConfig("", "", doc, c.file, spelled); err != nil {
			return nil, usagef("config file %s: %v", c.path, err)
		}
	default:
		return nil, usagef("config file %s: want a mapping of sections (run:, redact:, ...)", c.path)
	}
	for k := range c.file {
		if !knownKey(k) {
			c.unknown = append(c.unknown, k)
		}
	}
	slices.Sort(c.unknown)
	return c, nil
}

// flattenConfig turns nested sections into dotted keys, lower-cased
// (keys are case-insensitive: Run.Announce is run.announce; a key written
// run.announce at the top is the same key). A key with no value (null) is
// not set. One key given twice, in any spelling, is an error: which would
// win is not for rac to guess. Maps inside lists (redact.rules) get
// lower-cased keys too.
func flattenConfig(prefix, spelledPrefix string, v any, out map[string]any, spelled map[string]string) error {
	return eachMember(v, func(k string, val any) error {
		key, sp := strings.ToLower(k), k
		if prefix != "" {
			key, sp = prefix+"."+key, spelledPrefix+"."+k
		}
		switch val.(type) {
		case nil:
			return nil
		case map[string]any, map[any]any:
			return flattenConfig(key, sp, val, out, spelled)
		}
		if first, dup := spelled[key]; dup {
			return fmt.Errorf("%s is set twice (%s and %s)", key, first, sp)
		}
		spelled[key] = sp
		norm, err := lowerKeys(val)
		out[key] = norm
		return err
	})
}

// eachMember calls fn with each key (as a string) and value of a YAML
// mapping, in key order. A mapping with a key that is not a string (0:,
// true:) decodes as map[any]any; its keys are taken as written.
func eachMember(v any, fn func(k string, val any) error) error {
	type member struct {
		k string
		v any
	}
	var ms []member
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			ms = append(ms, member{k, val})
		}
	case map[any]any:
		for k, val := range t {
			ms = append(ms, member{fmt.Sprint(k), val})
		}
	}
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.k, b.k) })
	for _, m := range ms {
		if err := fn(m.k, m.v); err != nil {
			return err
		}
	}
	return nil
}

// lowerKeys returns v with the keys of every mapping in it lower-cased
// (the {name, prefix, pattern} maps of redact.rules).
func lowerKeys(v any) (any, error) {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			var err error
			if out[i], err = lowerKeys(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any, map[any]any:
		out := map[string]any{}
		err := eachMember(t, func(k string, val any) error {
			lk := strings.ToLower(k)
			if _, dup := out[lk]; dup {
				return fmt.Errorf("%s is given twice in one entry", lk)
			}
			var err error
			out[lk], err = lowerKeys(val)
			return err
		})
		return out, err
	}
	return v, nil
}

// listKeys are the config keys that hold lists rather than one value.
var listKeys = []string{"session.id_vars", "session.marker_vars", "redact.env_names", "redact.allow", "redact.rules"}

func knownKey(k string) bool {
	for _, s := range settings {
		if s.key == k {
			return true
		}
	}
	for _, l := range listKeys {
		if l == k {
			return true
		}
	}
	return false
}

// lookup returns the env or config value of a setting and where it came
// from, or ok=false to keep the default.
func (c *config) lookup(s setting) (val, from string, ok bool) {
	if v, set := lookupEnv(c.getenv, s.envName()); set {
		return v, s.envName(), true
	}
	if v, ok := c.file[s.key]; ok {
		return fmt.Sprint(v), s.key + " in " + c.path, true
	}
	return "", "", false
}

func lookupEnv(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

// value returns a setting's effective value (env > config file > default)
// and where it came from, for error messages.
func (c *config) value(key string) (val, from string) {
	s := settingByKey(key)
	if v, from, ok := c.lookup(s); ok {
		return v, from
	}
	return s.def, "the default of " + key
}

// list returns a list-valued config key (env: comma-separated).
func (c *config) list(key string) []string {
	if v := c.getenv(setting{key: key}.envName()); v != "" {
		return strings.Split(v, ",")
	}
	raw, ok := c.file[key]
	if !ok {
		return nil
	}
	switch t := raw.(type) {
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			out = append(out, fmt.Sprint(e))
		}
		return out
	case string:
		return []string{t}
	}
	return nil
}

// applyToFlags copies env and config values into the flags of cmd that the
// user did not set, so flags stay the single source of truth below.
func (c *config) applyToFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if err != nil || f.Changed {
			return
		}
		for _, s := range settings {
			if s.flag != f.Name {
				continue
			}
			if val, from, ok := c.lookup(s); ok {
				if serr := f.Value.Set(val); serr != nil {
					err = usagef("invalid value %q for %s: %v", val, from, serr)
				}
			}
		}
	})
	return err
}

var usagef = app.Usagef

// ruleSpecs reads a list of {name, prefix, pattern} maps from the config.
func (c *config) ruleSpecs(key string) ([]redact.RuleSpec, error) {
	v, set := c.file[key]
	if !set {
		return nil, nil
	}
	raw, ok := v.([]any)
	if !ok {
		return nil, usagef("%s in %s: want a list of {name, prefix, pattern}", key, c.path)
	}
	var out []redact.RuleSpec
	for i, e := range raw {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, usagef("%s[%d] in %s: want {name, prefix, pattern}", key, i, c.path)
		}
		str := func(k string) string {
			if v, ok := m[k]; ok {
				return fmt.Sprint(v)
			}
			return ""
		}
		out = append(out, redact.RuleSpec{Name: str("name"), Prefix: str("prefix"), Pattern: str("pattern")})
	}
	return out, nil
}
