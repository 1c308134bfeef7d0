package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/runspec"
)

// assign parses raw, the value viper resolved for d from src, into d's
// field of s. A value from the environment, a flag or a default is text;
// one from the file is what YAML made of it (a number, a list...).
func (d *Def) assign(s *Settings, raw any, src Source, path string) error {
	name, from, path := d.origin(src, path)
	bad := func(text string, err error) error {
		return &Error{Name: name, Value: text, HasValue: true, Path: path, Hint: err.Error()}
	}
	var err error
	switch p := d.field(s).(type) {
	case *Value[time.Duration]:
		text := scalarText(raw)
		parse := parseDurationSetting
		if d.Kind == Age {
			parse = ParseAge
		}
		if p.V, err = parse(text); err != nil {
			return bad(text, err)
		}
		p.Source, p.From = src, from
	case *Value[int64]:
		text := scalarText(raw)
		if p.V, err = ParseSize(text); err != nil {
			return bad(text, err)
		}
		p.Source, p.From = src, from
	case *Value[int]:
		text := scalarText(raw)
		if p.V, err = parseInt(text); err != nil {
			return bad(text, err)
		}
		p.Source, p.From = src, from
	case *Value[bool]:
		text := scalarText(raw)
		if p.V, err = parseBool(text); err != nil {
			return bad(text, err)
		}
		if src == Flag && d.Inverse {
			p.V = !p.V
		}
		p.Source, p.From = src, from
	case *Value[string]:
		p.V, p.Source, p.From = scalarText(raw), src, from
	case *Value[runspec.Announce]:
		return setEnum(p, d, raw, src, from, bad)
	case *Value[runspec.Mode]:
		return setEnum(p, d, raw, src, from, bad)
	case *Value[runspec.AgentView]:
		return setEnum(p, d, raw, src, from, bad)
	case *Value[Color]:
		return setEnum(p, d, raw, src, from, bad)
	case *Value[[]string]:
		p.V, p.Source, p.From = listOf(raw, src), src, from
	case *Value[[]Rule]:
		if p.V, err = rulesOf(raw); err != nil {
			return &Error{Name: name, Path: path, Hint: err.Error()}
		}
		p.Source, p.From = src, from
	default:
		return fmt.Errorf("config: %s has a field of type %T", d.Key, p)
	}
	return nil
}

// origin names where a value of d came from: name for an error (the
// flag, the variable, the key or the key's default), from for the value's
// From, and path, the config file's, kept only for a value from the file.
func (d *Def) origin(src Source, path string) (name, from, errPath string) {
	switch src {
	case Flag:
		return d.FlagName(), d.FlagName(), ""
	case Env:
		return d.Env, d.Env, ""
	case File:
		return d.Key, d.Key + " in " + path, path
	}
	return "default of " + d.Key, "default", ""
}

func setEnum[T ~string](p *Value[T], d *Def, raw any, src Source, from string, bad func(string, error) error) error {
	text := scalarText(raw)
	c, err := parseEnum(text, d.Choices)
	if err != nil {
		return bad(text, err)
	}
	p.V, p.Source, p.From = T(c), src, from
	return nil
}

// scalarText is a single value as text: YAML's 5, true or 1.5 as written.
func scalarText(raw any) string {
	if t, ok := raw.(string); ok {
		return t
	}
	return fmt.Sprint(raw)
}

// listOf reads a list: comma-separated text from the environment, a flag
// or a default; a YAML list, or one entry, from the file (where a comma
// is part of the entry: redact.allow takes exact strings).
func listOf(raw any, src Source) []string {
	switch t := raw.(type) {
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			out = append(out, scalarText(e))
		}
		return out
	case string:
		if src != File {
			return splitList(t)
		}
	}
	return []string{scalarText(raw)}
}

// rulesOf reads redact.rules: the file's list of mappings (viper has
// lower-cased their keys; checkTree has checked their shape).
func rulesOf(raw any) ([]Rule, error) {
	switch t := raw.(type) {
	case string:
		if t == "" { // the default: none
			return nil, nil
		}
	case []any:
		out := make([]Rule, 0, len(t))
		for n, e := range t {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("entry %d: %s", n, hintRules)
			}
			str := func(k string) string {
				if v, ok := m[k]; ok && v != nil {
					return scalarText(v)
				}
				return ""
			}
			out = append(out, Rule{Name: str("name"), Prefix: str("prefix"), Pattern: str("pattern")})
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s", hintRules)
}

// Effective is one setting as rac config prints it.
type Effective struct {
	Def    Def
	Value  string // in the syntax a user writes, so that it reads back
	Source Source
	From   string
}

// All returns every setting with its effective value, in table order.
func (s *Settings) All() []Effective {
	out := make([]Effective, 0, len(table))
	for i := range table {
		d := &table[i]
		e := Effective{Def: *d}
		switch p := d.field(s).(type) {
		case *Value[time.Duration]:
			e.Value, e.Source, e.From = formatDuration(p.V, d.Kind), p.Source, p.From
		case *Value[int64]:
			e.Value, e.Source, e.From = formatSize(p.V), p.Source, p.From
		case *Value[int]:
			e.Value, e.Source, e.From = strconv.Itoa(p.V), p.Source, p.From
		case *Value[bool]:
			e.Value, e.Source, e.From = strconv.FormatBool(p.V), p.Source, p.From
		case *Value[string]:
			e.Value, e.Source, e.From = p.V, p.Source, p.From
		case *Value[runspec.Announce]:
			e.Value, e.Source, e.From = string(p.V), p.Source, p.From
		case *Value[runspec.Mode]:
			e.Value, e.Source, e.From = string(p.V), p.Source, p.From
		case *Value[runspec.AgentView]:
			e.Value, e.Source, e.From = string(p.V), p.Source, p.From
		case *Value[Color]:
			e.Value, e.Source, e.From = string(p.V), p.Source, p.From
		case *Value[[]string]:
			e.Value, e.Source, e.From = strings.Join(p.V, ","), p.Source, p.From
		case *Value[[]Rule]:
			e.Value, e.Source, e.From = formatRules(p.V), p.Source, p.From
		}
		out = append(out, e)
	}
	return out
}

func formatRules(rs []Rule) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{name: %q, prefix: %q, pattern: %q}", r.Name, r.Prefix, r.Pattern)
	}
	return b.String()
}
