package main

import (
	"fmt"
	"math"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
)

// plan is how a rule runs around a hit: the table row's derived fields.
type plan struct {
	mode       string // a fieldMode constant's name
	lits       []string
	at         [][]int  // fieldAnchored: where each literal sits in a match
	full       []string // fieldAnchored: what a match starts with, when lits are parts of it
	need       [][]string
	lb         bool
	maxLen     int
	casePrefix string
	from       string
	assign     bool // fieldAnchored: a service name, then an assignment operator
}

// rule is one expression under analysis.
type rule struct {
	re   *syntax.Regexp
	req  [][]string     // sets one string of which every match holds
	from *syntax.Regexp // re without an optional run it opens with
	rest string         // from as text, when it is not re
	fx   info
}

func analyzeRule(id, expr string, keywords []string) (plan, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return plan{}, err
	}
	r := rule{re: re, req: dedupeSets(requiredSets(analyze(re))), from: re}
	// An expression that opens with an optional run of a class (gitleaks'
	// [\w.-]{0,50}? before a service name) has a match without it wherever
	// it has one: the rest can be tried at a hit as if it were all.
	if re.Op == syntax.OpConcat {
		i := 0
		for i < len(re.Sub)-1 && optionalClass(re.Sub[i]) {
			i++
		}
		if i > 0 {
			r.from = &syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[i:]}
			r.rest = r.from.String()
		}
	}
	r.fx = analyze(r.from)
	pl := plan{maxLen: maxLen(re)}
	kws, overridden := literals[id]
	if !overridden {
		kws = keywords
	}
	switch {
	case r.anchored(&pl, kws) || r.inside(&pl, kws):
	case overridden:
		return plan{}, fmt.Errorf("not every match contains one of the literals %q", kws)
	default:
		// The keywords need not be in the match: gitleaks runs the rule on
		// any file that holds one. Where every match holds a long string
		// of its own, that stands for the rule instead (rac then redacts a
		// match without a keyword too); otherwise the keywords are context
		// near the match.
		var best []string
		for _, set := range r.req {
			if shortest(set) >= 5 && (best == nil || len(set) < len(best) || (len(set) == len(best) && shortest(set) > shortest(best))) {
				best = set
			}
		}
		if best != nil && !r.anchored(&pl, best) {
			pl.mode, pl.lits = "fieldInside", best
		}
		if pl.mode == "" {
			pl.mode, pl.lits = "fieldContext", norm(keywords)
		}
	}
	if err := r.finish(&pl, expr); err != nil {
		return plan{}, err
	}
	return pl, nil
}

// anchored plans the rule to run at each hit alone when every match (of
// from) starts with one of lits. A leading \b is checked on the byte
// before the hit, which the anchored expression cannot see, so the first
// byte of every match must then be a word byte, where \b at the start of
// the text holds.
func (r rule) anchored(pl *plan, lits []string) bool {
	pre := r.fx.pre()
	if !useful(pre) {
		return false
	}
	var chosen []string
	for _, p := range pre {
		found := false
		for _, k := range lits {
			if strings.HasPrefix(p, k) {
				chosen = append(chosen, k)
				found = true
			}
		}
		if !found {
			return false
		}
	}
	lb := leadingWordBoundary(r.from)
	if lb && !allWordStart(pre) {
		return false
	}
	// rac's tokens need a left boundary (doc.go: a token glued to a letter
	// or digit is left alone on purpose), gitleaks' \b or not; a service
	// name after an optional run needs none.
	if r.rest == "" && allWordStart(pre) {
		lb = true
	}
	pl.mode, pl.lits, pl.lb, pl.from, pl.casePrefix = "fieldAnchored", norm(chosen), lb, r.rest, casePrefix(r.from)
	return true
}

// inside plans the rule to search near each hit when every match holds
// one of lits somewhere.
func (r rule) inside(pl *plan, lits []string) bool {
	for _, set := range r.req {
		var chosen []string
		all := true
		for _, s := range set {
			found := false
			for _, k := range lits {
				if strings.Contains(s, k) {
					chosen = append(chosen, k)
					found = true
				}
			}
			all = all && found
		}
		if all && (pl.lits == nil || len(norm(chosen)) < len(pl.lits)) {
			pl.mode, pl.lits = "fieldInside", norm(chosen)
		}
	}
	return pl.mode != ""
}

// finish picks the literals' parts, the strings to look for before the
// expression runs, and the assignment test.
func (r rule) finish(pl *plan, expr string) error {
	for _, l := range pl.lits {
		if len(l) < 2 {
			return fmt.Errorf("literal %q is shorter than two bytes", l)
		}
	}
	full := pl.lits
	pl.lits, pl.at = chooseLiterals(pl.lits)
	if pl.mode == "fieldAnchored" && !slices.Equal(full, pl.lits) {
		pl.full = full
	}
	if pl.mode != "fieldAnchored" || !slices.ContainsFunc(pl.at, func(a []int) bool { return len(a) != 1 || a[0] != 0 }) {
		pl.at = nil
	}
	if pl.mode != "fieldAnchored" {
		pl.casePrefix = ""
	}
	// gitleaks' service-name rules (GenerateSemiGenericRegex) put an
	// assignment operator at most 23 bytes after the name, across blanks,
	// quotes and word bytes: a cheap test before the expression.
	if pl.mode == "fieldAnchored" && pl.from != "" && slices.ContainsFunc(assignSuffixes, func(a string) bool { return strings.Contains(expr, a) }) {
		pl.assign = true
		if pl.full == nil {
			pl.full = pl.lits
		}
	}
	// The strings worth looking for before the expression runs: two bytes
	// or more, and not implied by the literal hit itself.
	for _, set := range r.req {
		if set = weaken(set); set == nil || shortest(set) < 2 || impliedBy(set, pl.lits) {
			continue
		}
		pl.need = append(pl.need, set)
	}
	pl.need = dedupeSets(pl.need)
	sort.SliceStable(pl.need, func(i, j int) bool { return shortest(pl.need[i]) > shortest(pl.need[j]) })
	pl.need = pl.need[:min(len(pl.need), 2)]
	return nil
}

// assignSuffixes follow the service name in gitleaks' semi-generic rules,
// case-insensitive or not.
var assignSuffixes = []string{
	`)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`,
	`)(?:[ \t\w.-]{0,20})[\s'"]{0,3})(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`,
}

// optionalClass reports whether re is a class or any byte, repeated from
// zero times: it may match nothing and asserts nothing.
func optionalClass(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpQuest:
	case syntax.OpRepeat:
		if re.Min != 0 {
			return false
		}
	default:
		return false
	}
	switch re.Sub[0].Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	}
	return false
}

func allWordStart(ss []string) bool {
	for _, s := range ss {
		c := s[0]
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// impliedBy reports whether every literal contains a string of set: then
// the hit alone satisfies it.
func impliedBy(set, lits []string) bool {
	for _, l := range lits {
		found := false
		for _, s := range set {
			found = found || strings.Contains(l, s)
		}
		if !found {
			return false
		}
	}
	return true
}

func dedupeSets(sets [][]string) [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, s := range sets {
		s = norm(s)
		k := strings.Join(s, "\x00")
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

var trigramRank = func() map[string]int {
	m := make(map[string]int, len(commonTrigrams))
	for i, t := range commonTrigrams {
		m[t] = i
	}
	return m
}()

// maxPart bounds a literal's length: past five bytes a literal is hardly
// rarer, and every byte of every literal is a state of the automaton,
// whose table every byte of output steps through.
const maxPart = 5

// chooseLiterals replaces each literal by the part of it that costs the
// prefilter least (cost): every match holds all of a literal, so it holds
// any part of it. A part is four bytes at least where the literal is, and
// at most maxPart. It returns the parts and, for each, where it sits in
// the literals it stands for.
func chooseLiterals(lits []string) ([]string, [][]int) {
	var parts []string
	at := map[string][]int{}
	for _, l := range lits {
		best, bestCost := l, cost(l)
		if len(l) > maxPart {
			best, bestCost = l[:maxPart], cost(l[:maxPart])
		}
		for i := 0; i < len(l); i++ {
			for j := i + min(len(l), 4); j <= min(len(l), i+maxPart); j++ {
				p := l[i:j]
				if c := cost(p); c < bestCost || (c == bestCost && len(p) > len(best)) {
					best, bestCost = p, c
				}
			}
		}
		if _, ok := at[best]; !ok {
			parts = append(parts, best)
		}
		for i := 0; i+len(best) <= len(l); i++ {
			if l[i:i+len(best)] == best && !slices.Contains(at[best], i) {
				at[best] = append(at[best], i)
			}
		}
	}
	sort.Strings(parts)
	offsets := make([][]int, len(parts))
	for k, p := range parts {
		offsets[k] = at[p]
		sort.Ints(offsets[k])
	}
	return parts, offsets
}

// cost estimates what a literal costs per byte of output: a stop of the
// prefilter wherever its first three bytes are, and a hit wherever all of
// it is. A hit costs about thirty stops (the engine finds the hit's line
// and runs the rules on it), and each byte past the third makes a literal
// about twenty times rarer.
func cost(p string) float64 {
	if len(p) < 3 {
		return 1 // at every place its pair is: a last resort
	}
	for _, n := range racLiterals {
		if strings.Contains(p, n) || (strings.HasPrefix(n, p) && len(p) >= len(n)-1) {
			// Where rac's own rules stop and hit anyway (p holds one of
			// their literals, or all of one but its last byte), one more
			// literal costs a matcher call on a line analyzed already.
			return 0
		}
	}
	return trigramFreq(p[:3]) * (1 + 30*math.Pow(0.05, float64(len(p)-3)))
}

// trigramFreq is the share of positions in output a trigram is at, from
// its rank among commonTrigrams (a power law fits them within a factor of
// two); one not among them is taken to be as frequent as the last.
func trigramFreq(t string) float64 {
	r, ok := trigramRank[t]
	if !ok {
		r = len(commonTrigrams)
	}
	return 0.02 * math.Pow(float64(r+1), -0.85)
}
