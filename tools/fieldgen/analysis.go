package main

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// The analysis answers three questions about a rule's expression without
// running it: which strings every match must contain (so a literal hit can
// stand in for the whole rule), which strings every match starts with (so
// the expression can be run anchored at the hit), and how long a match can
// be (so the text it runs on can be bounded). It works on ASCII-folded
// strings, as the prefilter does, in the manner of Russ Cox's trigram index
// (codesearch): sets of exact strings while they stay small, prefix and
// suffix sets past that, and a conjunction of alternatives ("one of these
// occurs") that survives everything but repetition from zero.

const (
	maxSet = 64 // strings in a set before it is given up
	maxStr = 64 // bytes kept of a prefix or suffix
)

type info struct {
	exact  []string   // every string the node matches; nil when unknown
	prefix []string   // every match starts with one of these (used when exact is nil)
	suffix []string   // every match ends with one of these
	need   [][]string // for each set, every match contains one of its strings
}

var (
	anything = info{prefix: []string{""}, suffix: []string{""}}
	empty    = info{exact: []string{""}}
)

func (x info) pre() []string {
	if x.exact != nil {
		return x.exact
	}
	return x.prefix
}

func (x info) suf() []string {
	if x.exact != nil {
		return x.exact
	}
	return x.suffix
}

func fold(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func norm(set []string) []string {
	out := slices.Clone(set)
	slices.Sort(out)
	return slices.Compact(out)
}

// cross returns every a+b, or nil when there would be more than maxSet.
func cross(as, bs []string) []string {
	if len(as)*len(bs) > maxSet {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return norm(out)
}

func trimPrefixes(set []string) []string {
	out := make([]string, len(set))
	for i, s := range set {
		out[i] = s[:min(len(s), maxStr)]
	}
	return norm(out)
}

func trimSuffixes(set []string) []string {
	out := make([]string, len(set))
	for i, s := range set {
		out[i] = s[max(0, len(s)-maxStr):]
	}
	return norm(out)
}

// useful reports whether a set says something: no empty string in it.
func useful(set []string) bool {
	return len(set) > 0 && !slices.Contains(set, "")
}

func analyze(re *syntax.Regexp) info {
	switch re.Op {
	case syntax.OpNoMatch:
		return info{exact: []string{}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return empty
	case syntax.OpLiteral:
		return info{exact: []string{fold(string(re.Rune))}}
	case syntax.OpCharClass:
		return classInfo(re.Rune)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return anything
	case syntax.OpCapture:
		return analyze(re.Sub[0])
	case syntax.OpConcat:
		x := empty
		for _, sub := range re.Sub {
			x = concat(x, analyze(sub))
		}
		return x
	case syntax.OpAlternate:
		var xs []info
		for _, sub := range re.Sub {
			xs = append(xs, analyze(sub))
		}
		return alternate(xs)
	case syntax.OpQuest:
		return alternate([]info{analyze(re.Sub[0]), empty})
	case syntax.OpStar:
		return anything
	case syntax.OpPlus:
		return repeat(analyze(re.Sub[0]), 1, -1)
	case syntax.OpRepeat:
		if re.Min == 0 {
			if re.Max == 1 {
				return alternate([]info{analyze(re.Sub[0]), empty})
			}
			return anything
		}
		return repeat(analyze(re.Sub[0]), re.Min, re.Max)
	}
	return anything
}

// classInfo: a small ASCII class is a set of one-byte strings.
func classInfo(ranges []rune) info {
	var set []string
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i+1] >= utf8.RuneSelf || ranges[i+1]-ranges[i] > 2*maxSet {
			return anything
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			set = append(set, fold(string(r)))
		}
	}
	set = norm(set)
	if len(set) > 16 {
		return anything
	}
	return info{exact: set}
}

func concat(x, y info) info {
	var z info
	if x.exact != nil && y.exact != nil {
		if e := cross(x.exact, y.exact); e != nil && longest(e) <= 4*maxStr {
			z.exact = e
			z.need = append(slices.Clone(x.need), y.need...)
			return z
		}
	}
	if x.exact != nil {
		if p := cross(x.exact, y.pre()); p != nil {
			z.prefix = trimPrefixes(p)
		} else {
			z.prefix = trimPrefixes(x.exact)
		}
	} else {
		z.prefix = x.prefix
	}
	if y.exact != nil {
		if s := cross(x.suf(), y.exact); s != nil {
			z.suffix = trimSuffixes(s)
		} else {
			z.suffix = trimSuffixes(y.exact)
		}
	} else {
		z.suffix = y.suffix
	}
	z.need = append(slices.Clone(x.need), y.need...)
	for _, s := range [][]string{x.pre(), x.suf(), y.pre(), y.suf()} {
		if useful(s) {
			z.need = append(z.need, s)
		}
	}
	// What spans the boundary: the end of x's match and the start of y's.
	if b := cross(x.suf(), y.pre()); useful(b) {
		z.need = append(z.need, b)
	}
	return z
}

func longest(set []string) int {
	n := 0
	for _, s := range set {
		n = max(n, len(s))
	}
	return n
}

func alternate(xs []info) info {
	var z info
	exact := []string{}
	for _, x := range xs {
		if exact != nil && x.exact != nil && len(exact)+len(x.exact) <= maxSet {
			exact = append(exact, x.exact...)
		} else {
			exact = nil
		}
	}
	if exact != nil {
		return info{exact: norm(exact)}
	}
	var pre, suf []string
	for _, x := range xs {
		pre = append(pre, x.pre()...)
		suf = append(suf, x.suf()...)
	}
	z.prefix, z.suffix = norm(pre), norm(suf)
	// Every match is one of the branches' matches, so taking one required
	// set from each branch makes a required set. Try the best of each, and
	// every string that all branches require alike.
	var best []string
	for _, x := range xs {
		b := bestSet(requiredSets(x))
		if b == nil {
			best = nil
			break
		}
		best = append(best, b...)
	}
	if best != nil {
		z.need = append(z.need, norm(best))
	}
	for _, s := range requiredSets(xs[0]) {
		if len(s) != 1 {
			continue
		}
		all := true
		for _, x := range xs[1:] {
			found := false
			for _, t := range requiredSets(x) {
				if len(t) == 1 && strings.Contains(t[0], s[0]) {
					found = true
					break
				}
			}
			all = all && found
		}
		if all {
			z.need = append(z.need, s)
		}
	}
	return z
}

func repeat(x info, lo, hi int) info {
	if x.exact != nil && lo == hi {
		e := []string{""}
		for range lo {
			if e = cross(e, x.exact); e == nil {
				break
			}
		}
		if e != nil && longest(e) <= 4*maxStr {
			return info{exact: e, need: x.need}
		}
	}
	z := info{prefix: trimPrefixes(x.pre()), suffix: trimSuffixes(x.suf()), need: slices.Clone(x.need)}
	if useful(x.exact) {
		z.need = append(z.need, x.exact)
	}
	return z
}

// requiredSets lists the sets one of whose strings every match contains.
func requiredSets(x info) [][]string {
	var out [][]string
	for _, s := range [][]string{x.exact, x.prefix, x.suffix} {
		if useful(s) {
			out = append(out, s)
		}
	}
	for _, s := range x.need {
		if useful(s) {
			out = append(out, s)
		}
	}
	return out
}

// bestSet picks the set whose shortest string is longest: the rarest one,
// roughly.
func bestSet(sets [][]string) []string {
	var best []string
	bestLen := -1
	for _, s := range sets {
		if n := shortest(s); n > bestLen || (n == bestLen && len(s) < len(best)) {
			best, bestLen = s, n
		}
	}
	return best
}

func shortest(set []string) int {
	n := -1
	for _, s := range set {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

// maxLen is the longest match in bytes, -1 when unbounded.
func maxLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += utf8.RuneLen(r)
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return utf8.RuneLen(min(re.Rune[len(re.Rune)-1], utf8.MaxRune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	case syntax.OpCapture:
		return maxLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			m := maxLen(sub)
			if m < 0 {
				return -1
			}
			n += m
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, sub := range re.Sub {
			m := maxLen(sub)
			if m < 0 {
				return -1
			}
			n = max(n, m)
		}
		return n
	case syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return -1
	case syntax.OpRepeat:
		m := maxLen(re.Sub[0])
		if re.Max < 0 || m < 0 {
			return -1
		}
		return m * re.Max
	}
	return 0
}

// leadingWordBoundary reports whether every match must start at a \b: the
// expression opens with one, through captures and concatenations.
func leadingWordBoundary(re *syntax.Regexp) bool {
	for {
		switch re.Op {
		case syntax.OpWordBoundary:
			return true
		case syntax.OpCapture:
			re = re.Sub[0]
		case syntax.OpConcat:
			if len(re.Sub) == 0 {
				return false
			}
			re = re.Sub[0]
		default:
			return false
		}
	}
}

// casePrefix returns the bytes every match starts with, in their case: the
// leading literal of an expression that does not fold case there.
func casePrefix(re *syntax.Regexp) string {
	var b []byte
	var walk func(re *syntax.Regexp) bool // false: stop
	walk = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpWordBoundary, syntax.OpEmptyMatch, syntax.OpBeginText:
			return true
		case syntax.OpCapture:
			return walk(re.Sub[0])
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				if !walk(sub) {
					return false
				}
			}
			return true
		case syntax.OpLiteral:
			if re.Flags&syntax.FoldCase != 0 {
				return false
			}
			for _, r := range re.Rune {
				if r >= utf8.RuneSelf {
					return false
				}
				b = append(b, byte(r))
			}
			return true
		}
		return false
	}
	walk(re)
	return string(b)
}

// weaken replaces a required set by one string every member contains, when
// there is one of two bytes or more: checking for it is one search. A set
// without one is kept when it is small.
func weaken(set []string) []string {
	if len(set) == 1 {
		return set
	}
	s0 := set[0]
	for _, s := range set {
		if len(s) < len(s0) {
			s0 = s
		}
	}
	for n := len(s0); n >= 2; n-- {
		for i := 0; i+n <= len(s0); i++ {
			c := s0[i : i+n]
			all := true
			for _, s := range set {
				all = all && strings.Contains(s, c)
			}
			if all {
				return []string{c}
			}
		}
	}
	if len(set) <= 4 {
		return set
	}
	return nil
}
