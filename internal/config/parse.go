package config

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// The hints end every "invalid ..." message: what to use instead.
const (
	hintDuration = "use a duration like 100ms, 5s or 10m"
	hintAge      = "use a duration like 168h or 7d"
	hintSize     = "use bytes or a unit, like 256MiB"
	hintInt      = "use a whole number from 0, like 10"
	hintBool     = "use true or false"
	hintList     = "use a list of strings, like [a, b]"
)

// errHint carries the hint of a value that does not parse.
type errHint string

func (e errHint) Error() string { return string(e) }

// sizeUnits are the units of ParseSize, lower case: K/M/G/T and KiB... are
// binary, KB/MB/GB/TB decimal.
var sizeUnits = map[string]float64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
	"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
}

// ParseSize reads a size: plain bytes or a number with a unit (KiB, MiB,
// GiB, TiB, or K/M/G/T as binary; KB/MB/GB/TB as powers of 1000). The
// error is the hint of what to use.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	mult, ok := sizeUnits[strings.ToLower(unit)]
	if num != "" && !ok {
		return 0, errHint("unknown unit " + strconv.Quote(unit) + ": use B, KiB, MiB, GiB, TiB (binary) or KB, MB, GB, TB (decimal)")
	}
	f, err := strconv.ParseFloat(num, 64)
	if num == "" || err != nil {
		return 0, errHint(hintSize)
	}
	b := f * mult
	if b >= math.MaxInt64 {
		return 0, errHint("too large: use at most 8EiB")
	}
	return int64(b), nil
}

// ParseAge reads an age: a Go duration (168h, 90m) or days (7d).
func ParseAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if d, ok := strings.CutSuffix(t, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err != nil || math.IsNaN(n) || n < 0 || n*24*float64(time.Hour) >= math.MaxInt64 || d == "" || d[0] == '+' {
			return 0, errHint(hintAge)
		}
		return time.Duration(n * 24 * float64(time.Hour)), nil
	}
	v, err := parseDuration(t)
	if err != nil {
		if isNumber(t) {
			return 0, errHint("use a unit, like " + t + "d or " + t + "h")
		}
		return 0, errHint(hintAge)
	}
	return v, nil
}

// parseDurationSetting reads a Go duration; a bare number other than 0
// is refused (is "5" seconds or milliseconds?) with the hint to add a unit.
func parseDurationSetting(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	v, err := parseDuration(t)
	if err != nil {
		if isNumber(t) {
			return 0, errHint("use a unit, like " + t + "s")
		}
		return 0, errHint(hintDuration)
	}
	return v, nil
}

// parseDuration is time.ParseDuration without negative values.
func parseDuration(t string) (time.Duration, error) {
	v, err := time.ParseDuration(t)
	if err != nil || v < 0 {
		return 0, errors.New("bad duration")
	}
	return v, nil
}

func isNumber(t string) bool {
	_, err := strconv.ParseFloat(t, 64)
	return err == nil && t != "" && t[0] != '-' && t[0] != '+'
}

func parseInt(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return 0, errHint(hintInt)
	}
	return n, nil
}

func parseBool(s string) (bool, error) {
	b, err := strconv.ParseBool(strings.TrimSpace(s))
	if err != nil {
		return false, errHint(hintBool)
	}
	return b, nil
}

func parseEnum(s string, choices []string) (string, error) {
	t := strings.TrimSpace(s)
	for _, c := range choices {
		if t == c {
			return c, nil
		}
	}
	return "", errHint("use " + orList(choices))
}

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// splitList reads a comma-separated list from the environment, a flag or
// a default: spaces around entries are dropped, and so are empty entries
// (an empty variable is unset, so "," is the way to say "no entries").
func splitList(s string) []string {
	var out []string
	for e := range strings.SplitSeq(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// formatDuration writes d so that it reads back: 168h, not 168h0m0s; an
// Age of whole days as days.
func formatDuration(d time.Duration, k Kind) string {
	if d == 0 {
		return "0"
	}
	if k == Age && d%(24*time.Hour) == 0 {
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// formatSize writes n in the setting syntax, so that it reads back
// exactly: the largest unit that divides it, else bytes. (Sizes for
// people, rounded, are internal/ui's; this is the value as a setting.)
func formatSize(n int64) string {
	units := []struct {
		name string
		mult int64
	}{{"TiB", 1 << 40}, {"TB", 1e12}, {"GiB", 1 << 30}, {"GB", 1e9}, {"MiB", 1 << 20}, {"MB", 1e6}, {"KiB", 1 << 10}, {"KB", 1e3}}
	for _, u := range units {
		if n != 0 && n%u.mult == 0 {
			return strconv.FormatInt(n/u.mult, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
