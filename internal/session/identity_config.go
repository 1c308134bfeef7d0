package session

import (
	"errors"
	"fmt"
	"strings"
)

// ErrBadVarSpec is returned by ParseIDVars and ParseMarkerVars for an entry
// that does not follow the spec syntax; the CLI reports it as a usage error.
var ErrBadVarSpec = errors.New("bad variable entry")

// ParseIDVars reads config session.id_vars. Each entry is one of
//
//	VAR=LABEL            read VAR as a conversation id; the session is LABEL-ID
//	VAR=LABEL:REQUIRES   the same, only while REQUIRES is set too
//	-VAR                 do not read VAR (drops a default entry)
//
// VAR and REQUIRES are environment variable names ([A-Za-z_][A-Za-z0-9_]*),
// LABEL is [a-z0-9][a-z0-9-]*, at most 16 bytes. Configured entries come
// first, in the order given, then the defaults not named in the config: an
// entry for a default variable overrides it, a new one extends the table
// ahead of the defaults. No specs gives the defaults.
func ParseIDVars(specs []string) ([]IDVar, error) {
	return parseVarTable(specs, "session.id_vars", "VAR=LABEL, VAR=LABEL:REQUIRES or -VAR", DefaultIDVars,
		func(v IDVar) string { return v.Var },
		func(e varSpec) IDVar { return IDVar{Var: e.name, Label: e.label, Requires: e.extra} })
}

// ParseMarkerVars reads config session.marker_vars. Each entry is one of
//
//	VAR=LABEL          VAR marks agent LABEL; the session is its harness process
//	VAR=LABEL:PIDVAR   the same, and PIDVAR holds the harness's pid
//	-VAR               do not read VAR (drops a default entry)
//
// with the same name rules and order as ParseIDVars.
func ParseMarkerVars(specs []string) ([]MarkerVar, error) {
	return parseVarTable(specs, "session.marker_vars", "VAR=LABEL, VAR=LABEL:PIDVAR or -VAR", DefaultMarkerVars,
		func(v MarkerVar) string { return v.Var },
		func(e varSpec) MarkerVar { return MarkerVar{Var: e.name, Label: e.label, PIDVar: e.extra} })
}

// parseVarTable is ParseIDVars and ParseMarkerVars: the entries of
// setting in the order given, then the defaults the entries did not name.
func parseVarTable[T any](specs []string, setting, want string, defaults []T, varOf func(T) string, entry func(varSpec) T) ([]T, error) {
	var out []T
	named := map[string]bool{}
	for _, spec := range specs {
		e, err := parseVarSpec(spec, named)
		if err != nil {
			return nil, fmt.Errorf("%w in %s: %s (want %s)", ErrBadVarSpec, setting, err, want)
		}
		if !e.drop {
			out = append(out, entry(e))
		}
	}
	for _, d := range defaults {
		if !named[varOf(d)] {
			out = append(out, d)
		}
	}
	return out, nil
}

type varSpec struct {
	name, label, extra string
	drop               bool
}

func parseVarSpec(spec string, named map[string]bool) (varSpec, error) {
	s := strings.TrimSpace(spec)
	var e varSpec
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		e.name, e.drop = rest, true
	} else {
		name, val, ok := strings.Cut(s, "=")
		if !ok {
			return e, fmt.Errorf("%q has no '='", spec)
		}
		e.name = name
		e.label, e.extra, _ = strings.Cut(val, ":")
		if !validLabel(e.label) {
			return e, fmt.Errorf("%q: label %q is not [a-z0-9][a-z0-9-]* of at most %d bytes", spec, e.label, maxLabel)
		}
		if strings.Contains(val, ":") && !validVarName(e.extra) {
			return e, fmt.Errorf("%q: %q is not a variable name", spec, e.extra)
		}
	}
	if !validVarName(e.name) {
		return e, fmt.Errorf("%q: %q is not a variable name", spec, e.name)
	}
	if named[e.name] {
		return e, fmt.Errorf("%q: %s is listed twice", spec, e.name)
	}
	named[e.name] = true
	return e, nil
}

func validVarName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case i > 0 && c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return true
}
