// Package config owns rac's settings: the one table of them (key, env
// variable, flag, default, kind, help), reading the config file safely,
// and resolving each setting from its flag, its RAC_* variable, the file
// and its default, in that order, into a typed Settings whose every value
// says where it came from. All parsing of setting values, and every
// message about a bad one, is here.
//
// It must never print (warnings are returned), never touch os.Stdout or
// os.Stderr, never read the process environment itself (getenv is
// injected), and never import cobra, color or internal/ui: cmd/rac hands
// it the raw text of the flags the user set. It is the one importer of
// viper, and uses a fresh viper instance per Load, never the global one.
package config

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/viper"

	"github.com/rac-cli/rac/internal/runspec"
)

// Source is where a setting's value came from.
type Source int

const (
	Default Source = iota
	File
	Env
	Flag
)

func (s Source) String() string {
	switch s {
	case File:
		return "file"
	case Env:
		return "env"
	case Flag:
		return "flag"
	}
	return "default"
}

// Value is a setting's effective value and where it came from. From names
// the place for people: "--timeout", "RAC_RUN_TIMEOUT",
// "run.timeout in /home/u/.config/rac/config.yaml" or "default".
type Value[T any] struct {
	V      T
	Source Source
	From   string
}

// Color is color (--color, RAC_COLOR): whether rac's own output is
// coloured. config checks the value once, against ColorChoices; ui
// decides each stream's colour by it (ui.ColorEnabled).
type Color string

// The colour settings. The zero Color is auto.
const (
	ColorAuto   Color = "auto"
	ColorAlways Color = "always"
	ColorNever  Color = "never"
)

// ColorChoices are the values color takes, in the order help lists them.
func ColorChoices() []string {
	return []string{string(ColorAuto), string(ColorAlways), string(ColorNever)}
}

// Rule is one entry of redact.rules: a literal prefix and an RE2 pattern
// matched at it; redact.New compiles it (and names it in its errors).
type Rule struct {
	Name    string
	Prefix  string
	Pattern string
}

// Settings is every setting, typed, each with its source.
type Settings struct {
	Run     RunSettings
	Color   Value[Color]
	Redact  RedactSettings
	Record  RecordSettings
	Session SessionSettings
	GC      GCSettings
	Read    ReadSettings
	Shell   ShellSettings
	Hook    HookSettings
	Store   StoreSettings
	MCP     MCPSettings

	// File is the config file's path, read or not ("" when neither
	// XDG_CONFIG_HOME nor HOME says where); FileRead tells whether it
	// existed and was read.
	File     string
	FileRead bool
	// Warnings are the keys of the file rac does not know, sorted.
	Warnings []Warning
	// Tolerated are the bad values Options.Tolerate let through (each
	// setting is at its default); their Name says which.
	Tolerated []error
}

type RunSettings struct {
	DrainTimeout Value[time.Duration]
	Timeout      Value[time.Duration]
	KillAfter    Value[time.Duration]
	SignalSettle Value[time.Duration]
	Mode         Value[runspec.Mode]
	Interactive  Value[[]string]
	Announce     Value[runspec.Announce]
	AgentView    Value[runspec.AgentView]
	Summary      Value[bool]
	SummaryHead  Value[int]
	SummaryTail  Value[int]
	JSON         Value[bool]
}

type RedactSettings struct {
	Enabled  Value[bool]
	EnvNames Value[[]string]
	Allow    Value[[]string]
	// Args holds the entries as written; redact.NewArgvRules reads them
	// (and quotes a bad one).
	Args  Value[[]string]
	Rules Value[[]Rule]
}

type RecordSettings struct {
	MaxBytes  Value[int64]
	HeadBytes Value[int64]
	Compress  Value[bool]
}

// SessionSettings holds the entries as written; session.ParseIDVars and
// ParseMarkerVars read them (and name a bad one).
type SessionSettings struct {
	IDVars     Value[[]string]
	MarkerVars Value[[]string]
}

// ReadSettings: rac out read. Pager "" means $PAGER, else less -R.
type ReadSettings struct {
	Pager Value[string]
}

// ShellSettings: rac shell-init.
type ShellSettings struct {
	Wrap Value[[]string]
}

// HookSettings: the agent hooks (rac hook).
type HookSettings struct {
	Wrap Value[[]string]
}

// StoreSettings: where recordings go when the store cannot be written.
type StoreSettings struct {
	Workdir Value[bool]
}

// MCPSettings: rac mcp.
type MCPSettings struct {
	Run    Value[bool]
	Budget Value[int64]
}

type GCSettings struct {
	MaxAge          Value[time.Duration]
	MaxSessionBytes Value[int64]
	MaxStoreBytes   Value[int64]
	MinFreeBytes    Value[int64]
	Interval        Value[time.Duration]
}

// Options is what Load reads besides the config file.
type Options struct {
	// Getenv is rac's environment (os.Getenv, or a map in tests). An
	// empty variable is unset.
	Getenv func(string) string
	// Flags are the raw values of the flags the user set, by setting key
	// ({"run.timeout": "5"}), as the flag parser saw them; for an Inverse
	// flag (--no-redact) the flag's own value ("true").
	Flags map[string]string
	// Tolerate names the settings whose bad value is not an error: the
	// value is kept at its default and the error is in Settings.Tolerated
	// (rac run warns and runs the command all the same).
	Tolerate func(key string) bool
	// SkipFile leaves the config file unread (rac run after it found the
	// file unusable: the command runs with the other settings).
	SkipFile bool
}

// Load resolves every setting: flag, then environment, then the config
// file, then the default. A bad value, or a file rac cannot use, is an
// *Error (ErrInvalid; ErrUnsafe for a refused file); unknown keys of the
// file are Settings.Warnings.
//
// viper reads the file (ReadConfig of the bytes rac opened and checked
// itself) and holds the layers above the defaults. viper's BindEnv reads
// os.Getenv, not the injected environment, so each setting's variable is
// read through Getenv and, with the flags after it, put in viper's
// override layer (Set): the flag, set last, wins over the variable, and
// both over the file. The defaults stay in the table, parsed by the same
// code; a setting nothing sets is not looked up in viper at all.
func Load(o Options) (*Settings, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	s := &Settings{File: Path(getenv)}
	v := viper.New()
	v.SetConfigType("yaml")
	var fk *fileKeys
	if s.File != "" && !o.SkipFile {
		b, err := readFile(s.File)
		if err != nil {
			return nil, err
		}
		if b != nil {
			if fk, err = checkTree(b, s.File); err != nil {
				return nil, err
			}
			if err := v.ReadConfig(bytes.NewReader(b)); err != nil {
				return nil, &Error{Path: s.File, Err: err}
			}
			s.FileRead = true
			s.Warnings = fk.warn
		}
	}
	src := make([]Source, len(table))
	for i := range table {
		d := &table[i]
		if d.Env == "" {
			continue
		}
		if val := getenv(d.Env); val != "" {
			v.Set(d.Key, val)
			src[i] = Env
		}
	}
	if err := applyFlags(v, o.Flags, src); err != nil {
		return nil, err
	}
	for i := range table {
		d := &table[i]
		if src[i] == Default && fk != nil && fk.set[i] {
			src[i] = File
		}
		// The table is the one place defaults live; viper is asked for
		// the others (a quarter of the cost of holding the defaults too).
		var raw any = d.Default
		if src[i] != Default {
			if raw = v.Get(d.Key); raw == nil { // cannot happen: the source said it was set
				return nil, fmt.Errorf("config: no value for %s from %s", d.Key, src[i])
			}
		}
		if err := d.assign(s, raw, src[i], s.File); err != nil {
			if o.Tolerate == nil || !o.Tolerate(d.Key) {
				return nil, err
			}
			s.Tolerated = append(s.Tolerated, err)
			if err := d.assign(s, d.Default, Default, s.File); err != nil {
				return nil, err // the table's own default: cannot happen (TestDefaults)
			}
		}
	}
	return s, nil
}

func applyFlags(v *viper.Viper, flags map[string]string, src []Source) error {
	var unknown []string
	for key, val := range flags {
		i := lookup(key)
		if i < 0 || table[i].Flag == "" {
			unknown = append(unknown, key)
			continue
		}
		v.Set(key, val)
		src[i] = Flag
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		// cmd/rac's mistake, not the user's: no setting has this flag
		return fmt.Errorf("config: no flag for setting %s", strings.Join(unknown, ", "))
	}
	return nil
}
