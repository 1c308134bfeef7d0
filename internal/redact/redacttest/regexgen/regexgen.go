// Package regexgen writes strings that an expression may match, from a
// seeded source, for tests that want many true positives of a rule: one
// line each (no newline is ever written), printable ASCII, repetition
// counts kept near their minimum. Assertions (\b, ^, $) are not planned
// for, so a caller keeps only the strings the expression really matches.
package regexgen

import (
	"math/rand/v2"
	"regexp/syntax"
	"strings"
)

// Generator writes strings for one expression.
type Generator struct {
	re  *syntax.Regexp
	rng *rand.Rand
	// FoldCase spells the letters of case-insensitive literals in random
	// case; otherwise as written.
	FoldCase bool
}

// New parses expr as Go's regexp does.
func New(expr string, rng *rand.Rand) (*Generator, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return &Generator{re: re, rng: rng}, nil
}

// Generate returns one string, or false when the expression forces a
// byte it never writes (a newline).
func (g *Generator) Generate() (string, bool) {
	var b strings.Builder
	ok := g.gen(&b, g.re)
	return b.String(), ok
}

// printable is what a class or . is written as: printable ASCII and tab.
func printable(r rune) bool { return r == '\t' || (r >= ' ' && r <= '~') }

func (g *Generator) gen(b *strings.Builder, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r == '\n' {
				return false
			}
			if g.FoldCase && re.Flags&syntax.FoldCase != 0 && g.rng.IntN(2) == 0 {
				r = swapCase(r)
			}
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		r, ok := g.pick(re.Rune)
		if !ok {
			return false
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		// Half the time a dot: rules write . for the dots of a host name.
		if g.rng.IntN(2) == 0 {
			b.WriteByte('.')
		} else {
			b.WriteByte(byte(' ' + 1 + g.rng.IntN('~'-' ')))
		}
	case syntax.OpCapture:
		return g.gen(b, re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !g.gen(b, sub) {
				return false
			}
		}
	case syntax.OpAlternate:
		return g.gen(b, re.Sub[g.rng.IntN(len(re.Sub))])
	case syntax.OpQuest:
		return g.repeat(b, re.Sub[0], 0, 1)
	case syntax.OpStar:
		return g.repeat(b, re.Sub[0], 0, -1)
	case syntax.OpPlus:
		return g.repeat(b, re.Sub[0], 1, -1)
	case syntax.OpRepeat:
		return g.repeat(b, re.Sub[0], re.Min, re.Max)
	case syntax.OpNoMatch:
		return false
	}
	// Empty matches and assertions write nothing.
	return true
}

func (g *Generator) repeat(b *strings.Builder, sub *syntax.Regexp, lo, hi int) bool {
	span := 8
	if hi >= 0 {
		span = min(hi-lo, 10)
	}
	n := lo + g.rng.IntN(span+1)
	for range n {
		if !g.gen(b, sub) {
			return false
		}
	}
	return true
}

// pick draws a rune from a class, printable ones only, weighting each
// range by its size.
func (g *Generator) pick(ranges []rune) (rune, bool) {
	var rs []rune
	for i := 0; i < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r <= '~'; r++ {
			if printable(r) {
				rs = append(rs, r)
			}
		}
	}
	if len(rs) == 0 {
		// A class of control bytes alone ([\r\n]): a carriage return keeps
		// the string on one line.
		for i := 0; i < len(ranges); i += 2 {
			if ranges[i] <= '\r' && '\r' <= ranges[i+1] {
				return '\r', true
			}
		}
		return 0, false
	}
	return rs[g.rng.IntN(len(rs))], true
}

func swapCase(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return r - 'a' + 'A'
	case r >= 'A' && r <= 'Z':
		return r - 'A' + 'a'
	}
	return r
}
