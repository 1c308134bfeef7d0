package redact

import (
	"reflect"
)

// Most keyword hits in dense output are names that hold no secret: the
// PASS of every go test -v verdict line, SSH_AUTH_SOCK= and
// TOKENIZERS_PARALLELISM= in an environment dump. The rules say so after
// region has found the hit's line and analyze has set up for it, which
// costs such a line more than the rules' own answer. quietHit gives that
// answer from the bytes around the hit, before any of it, for the hits
// whose literal has no other rule than the assignment and flag rules; a
// line whose hits are all quiet is passed over like a line without hits.
// It must never say quiet where a rule could match: TestQuietHitLosesNothing
// compares the redactor with and without it.

// nameWordRule reports the assignment rule's matchAssignment and the flag
// rule's matchFlagWord, the two rules quietName knows.
func (cr *compiledRule) nameWordRule() bool {
	if cr.match == nil {
		return false
	}
	p := reflect.ValueOf(cr.match).Pointer()
	return p == reflect.ValueOf(matchAssignment).Pointer() || p == reflect.ValueOf(matchFlagWord).Pointer()
}

// quietHit reports a hit no rule of its literal can match on its line: the
// auth of an Author word (authorWord), or a name that quietName rules out.
// src holds whole lines from the start of the hit's line.
// region asks it only for the literals of r.mayQuiet and not after
// notQuietAfter, which rules out most hits that are not quiet without a
// call: quietRun, which takes its steps.
func (e *engine) quietHit(src []byte, h hit) bool {
	r := e.r
	hs := int(h.end) - int(r.patLens[h.pat])
	if h.pat == r.authLit && authorWord(src, hs) {
		return true
	}
	return r.nameLit[h.pat] && e.quietName(src, hs, hs+int(r.nameSkip[h.pat]))
}

// quietRun returns how many of hits, from the first, region passes over:
// those of the literals of r.mayQuiet that notQuietAfter does not rule
// out and quietHit finds quiet. It is region's loop over the hits in a
// row, apart from region, which reloads its own many values after every
// call, and with quietHit's steps in it, a call a hit less (BenchmarkRegionShapes
// min-MB/s +3% on go test -v; quietRun calling quietHit: -2%).
// TestQuietRunIsQuietHit holds the two to the same verdicts.
func (e *engine) quietRun(src []byte, hits []hit) int {
	r := e.r
	for i, h := range hits {
		if !r.mayQuiet[h.pat] || notQuietAfter(src, h.end) {
			return i
		}
		hs := int(h.end) - int(r.patLens[h.pat])
		if h.pat == r.authLit && authorWord(src, hs) {
			continue
		}
		if !r.nameLit[h.pat] || !e.quietName(src, hs, hs+int(r.nameSkip[h.pat])) {
			return i
		}
	}
	return len(hits)
}

// quietName reports a literal at hs inside a name that neither
// matchFlagWord nor matchAssignment can take: the name does not start with
// '-' (a flag), and either no operator, quote or blank follows it (assign
// finds no form), or = or : follows it at once and the name is not
// secret-like (assignmentName) nor one that contextName takes in this
// context (a query string's or a connection string's pwd, pass = x). It follows assign's and
// assignSeparated's steps to their first return for such a name; every
// form it does not know is left to them. The bytes of src[hs:from] are
// name bytes (the literal's, see nameSkip): the walk to the name's end
// starts at from.
func (e *engine) quietName(src []byte, hs, from int) bool {
	ne, ok := nameEndFrom(src, hs, from)
	if !ok {
		return false
	}
	c := byte('\n') // the end of src ends the line
	if ne < len(src) {
		c = src[ne]
	}
	// The byte after the name first: most hits that are not quiet are
	// words of prose (token refreshed), and need no walk back.
	switch c {
	case '=', ':':
	case ' ', '\t':
		return quietBlank(src, hs, ne)
	case '"', '\'':
		return quietQuoted(src, hs, ne)
	case '|', '?', '>', '\\', '\r':
		return false // a form of assign's: ||=, ?=, <name>, \"name\"
	default:
		// assign finds no form: TesttokenSource, cfg.Token, ctx.tokenSource(ctx)
		return src[nameStart(src, hs)] != '-'
	}
	ns := nameStart(src, hs)
	if src[ns] == '-' {
		return false // matchFlagWord's business
	}
	name := src[ns:ne]
	secret, cand := e.nameKinds(name)
	if secret {
		return false
	}
	if !cand {
		return true // assignSeparated returns before the value
	}
	// contextName needs pass = x, a query (?pwd=) or a connection string
	// (;Pwd=x or Pwd=x;) for a candidate name.
	if string(name) == "pass" || (ns > 0 && (src[ns-1] == '?' || src[ns-1] == '&' || src[ns-1] == '#')) {
		return false
	}
	if p := skipBlanksBack(src, ns); p > 0 && src[p-1] == ';' {
		return false
	}
	k := ne + 1
	if k < len(src) {
		switch src[k] {
		case ':', '=', '~', '>', '-', '?', '+':
			return false // assignSeparated reads these operators on
		}
	}
	k = skipBlanks(src, k)
	w := wordEnd(src, k)
	return w == k || src[w-1] != ';'
}

// quietBlank is quietName for a name that blanks follow (--- PASS:
// TesttokenSource (0.06s), a go test -v verdict): assign's forms that
// start so are an operator after the blanks (separated, ||=, ?=), the
// keyword form of a name ending in password, and the column forms (a
// value alone after the name, or after ->), which take a value only at
// the start of a line (lineStartPrefix) or after an npmrc key. A name
// followed by the end of its line has no value.
func quietBlank(src []byte, hs, ne int) bool {
	ns := nameStart(src, hs)
	if src[ns] == '-' {
		return false // matchFlagWord's business
	}
	j := skipBlanks(src, ne)
	if j >= len(src) || src[j] == '\n' {
		return true
	}
	switch src[j] {
	case ':', '=', '|', '?', '>':
		return false // NAME = x, NAME ||= x, NAME ?= x
	}
	if ne-ns >= 8 && hasFoldAt(src, ne-8, "password") {
		return false // assignKeyword's: PASSWORD 'x', password x in .netrc
	}
	if ns >= 3 && src[ns-1] == ':' && src[ns-2] == '/' {
		return false // npmrcKey
	}
	ok, _ := lineStartPrefix(src, ns)
	return !ok
}

// quietQuoted is quietName for a quoted name whose value is a number
// ("max_tokens":1024, "token_count": 1301 in JSON logs): assign reads the
// separated form, and assignSeparated returns at numberAt. Every other
// quoted name is left to the rules.
func quietQuoted(src []byte, hs, ne int) bool {
	j := skipBlanks(src, ne+1)
	if j >= len(src) || src[j] != ':' {
		return false
	}
	// := and :: start no number. numberAt takes a number that the end of
	// src ends, not one that a newline ends: region's src ends its lines
	// in '\n', so such a hit is left to the rules.
	return numberAt(src, skipBlanks(src, j+1))
}

// notQuietAfter reports a hit whose literal a blank or a quote follows, the
// most common hits that are not quiet ("token": in JSON, token refreshed),
// before quietHit is called for them. It may only ever say not quiet: for
// a literal such as sig= the byte is not the one after the name.
func notQuietAfter(src []byte, end int32) bool {
	if int(end) >= len(src) {
		return false
	}
	switch src[end] {
	case ' ', '"', '\'', '\t':
		return true
	}
	return false
}
