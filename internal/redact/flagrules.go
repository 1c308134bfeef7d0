package redact

import (
	"bytes"
	"strings"
	"sync"
)

// Command lines in output: a set -x trace (+ mysql -uroot -pS3cret db,
// ++ docker login -p X, + cmd '--password' 'multi word'), a ps listing, a CI
// log echoing what it runs, JSON argument lists (["--token", "X"]). The
// argv grammar of argv.go runs on them: a flag rule and a program rule find
// where a command line starts, shell word splitting reads it, and the
// grammar's built-in table says which words are secret. (The redact.args
// entries of a configuration apply to argv, not here: the rule table is
// built without them.)
//
// Word splitting is hand-written rather than mvdan.cc/sh's parser: it runs
// in the write path on every hit, on a window of one line that may start in
// the middle of a quoted string or be cut by ps, and it must map each byte
// of a word back to the line. Measured side by side on a 115-byte set -x
// line of mysql (2 cores, shared): a reused syntax.Parser took 3.8-8.6 us
// and 19 allocations (3 KiB) per parse, and rejects a line cut inside a
// quote ("reached EOF without closing quote"); cmdLexer.lex took 1.4-1.8 us
// and 2 allocations (1 KiB), and reads any byte sequence.

// prioSecretFlag is below the assignment rule's: --password=X is an
// assignment as much as a flag, and keeps that marker where both match.
const prioSecretFlag = prioAssignment - 1

func flagRules() []rule {
	lits := flagLiterals()
	return []rule{
		// --password X, -token X, '--client-secret' 'X': a flag whose name is
		// secret-like (any program).
		{id: secretFlagID, prio: prioSecretFlag, literals: lits.flags, match: matchFlagWord},
		// mysql -pX, sshpass -p X, htpasswd -nb USER X: the table's programs.
		{id: secretFlagID, prio: prioSecretFlag, literals: lits.progs, match: matchCommandWord},
		// The marker of a secret argument (vault login X); matchCommandWord
		// adds its spans, so it has no literals of its own.
		{id: secretArgID, prio: prioSecretFlag, match: func(*engine, []byte, int, int, int32, int32) {}},
	}
}

type flagLits struct{ flags, progs []string }

// outputPrograms are what the program rule watches for in output: a table
// program's name, the start of several names (mysql: mysqldump,
// mysqladmin; mongo: mongosh, mongodump), or a name and the first word of
// its entries (docker alone is everywhere in a build log). The other
// table programs are found in argv only.
//
// Each literal is as specific as the program allows (zip -p, not zip):
// every hit runs the program rule's word splitting on its line. The
// vector prefilter (teddy.go) spreads literal starts over as many bucket
// groups as it needs, so the list's length costs a little scan time, not
// the prefilter itself. A literal shared with the assignment rule costs nothing there, so the
// flag rule takes no literal of its own (-auth alone cost a variable's
// room: --auth-token is seen through token).
var outputPrograms = []string{
	"mysql", "mariadb", "mongo", "curl", "sshpass", "docker login", "htpasswd",
	"openssl", "redis-cli", "sqlcmd", "ldap", "smbclient", "zip -p", "7z ",
	"az login", "ssh-keygen", "aws configure",
}

// flagLiterals: the flag rule shares the keyword literals of the assignment
// rule (a shared literal costs the automaton nothing; only the hits run one
// more matcher, which gives up at once unless a '-' starts the word),
// except auth: its hits are skipped inside Author words only while the
// assignment rule alone has it.
var flagLiterals = sync.OnceValue(func() flagLits {
	var l flagLits
	for _, s := range assignmentLiterals() {
		if s != "auth" {
			l.flags = append(l.flags, s)
		}
	}
	l.progs = append(l.progs, outputPrograms...)
	return l
})

// Bounds of the command line read around a hit.
const (
	cmdMaxBytes = 4 << 10
	cmdMaxWords = 64
)

// matchFlagWord verifies a flag-keyword hit: the word holding it must be a
// flag (-name or --name, optionally quoted) after a boundary, and the
// any-program rule decides on it and the word after it.
func matchFlagWord(e *engine, line []byte, hs, he int, ri, _ int32) {
	ns := hs
	for ns > 0 && hs-ns < 128 && nameSet[line[ns-1]] {
		ns--
	}
	if line[ns] != '-' {
		return
	}
	ws := ns
	if ns > 0 && (line[ns-1] == '\'' || line[ns-1] == '"') {
		ws--
		if ws > 0 && line[ws] == '\'' && line[ws-1] == '$' {
			ws--
		}
	}
	if !cmdBoundary(line, ws) {
		return
	}
	var wa [cmdLexerWords]cmdWord
	var ba [cmdLexerBytes]byte
	lx := newCmdLexer(wa[:], ba[:])
	lx.lex(line, ws, 2, true)
	if ws < ns && len(lx.words) > 0 && bytes.ContainsAny(lx.text(0), " \t") {
		// A quoted string holding a command line (ARGS="--token X -v"):
		// read inside it.
		ws = ns
		lx.lex(line, ws, 2, true)
	}
	if len(lx.words) == 0 || lx.words[0].rs != ws {
		return
	}
	var texts [3][]byte
	texts[1] = lx.text(0)
	if len(texts[1]) < 3 || texts[1][0] != '-' {
		return
	}
	n := 2
	if len(lx.words) > 1 {
		texts[2] = lx.text(1)
		n = 3
	}
	// Program "" has no entries: the any-program rule and the '!' entries.
	t := DefaultArgvRules()
	hits := t.scan(texts[:n], 0, nil, 0)
	if len(hits) == 0 || t.ownedFlag(line, ws, texts[1]) {
		return
	}
	lx.addHits(e, line, hits, 1, ri)
}

// ownedFlag reports whether a table program earlier in the command that
// ends at ws has an entry of its own for flag, so the program rule reads
// it (mysql -u root --password appdb prompts; appdb is the database).
func (t *ArgvRules) ownedFlag(line []byte, ws int, flag []byte) bool {
	name, _, _ := bytes.Cut(flag, []byte("="))
	for k, words := ws, 0; k > 0 && words < cmdMaxWords; words++ {
		for k > 0 && isBlank(line[k-1]) {
			k--
		}
		end := k
		for k > 0 && !isBlank(line[k-1]) && !cmdOperator(line[k-1]) {
			k--
		}
		for _, e := range t.byProg[string(argBase(bytes.Trim(line[k:end], "'\"+")))] {
			if e.flag == string(name) && e.kind != argPos && e.kind != argPair {
				return true
			}
		}
		if k > 0 && cmdOperator(line[k-1]) {
			return false
		}
	}
	return false
}

// matchCommandWord verifies a program-name hit: the word holding it,
// after a boundary, must name a table program (a path to one too), and the
// command line from there is read with the grammar.
func matchCommandWord(e *engine, line []byte, hs, _ int, ri, _ int32) {
	ws := hs
	for ws > 0 && hs-ws < 256 && pathSet[line[ws-1]] {
		ws--
	}
	if !cmdBoundary(line, ws) {
		return
	}
	we := hs // the literal may go on past the name (docker login)
	for we < len(line) && pathSet[line[we]] {
		we++
	}
	t := DefaultArgvRules()
	if we >= len(line) || !isBlank(line[we]) || !t.progs[string(argBase(line[ws:we]))] {
		return // not a program with arguments
	}
	if prevWordIsFlag(line, ws) {
		return // a flag's value: find . -name mysql -print
	}
	var wa [cmdLexerWords]cmdWord
	var ba [cmdLexerBytes]byte
	lx := newCmdLexer(wa[:], ba[:])
	lx.lex(line, ws, cmdMaxWords, true)
	if len(lx.words) < 2 {
		return
	}
	texts := make([][]byte, len(lx.words))
	for i := range lx.words {
		texts[i] = lx.text(i)
	}
	hits := t.scan(texts, 0, nil, 0)
	lx.addHits(e, line, hits, 0, ri)
}

var pathSet = mkset("A-Za-z0-9_./+-")

// prevWordIsFlag reports whether the word before ws (one blank away) is a
// flag, other than -- and the flags that come right before a command
// (sudo -E, docker exec -it, sh -c): a program name there is that flag's
// value.
func prevWordIsFlag(line []byte, ws int) bool {
	if ws < 2 || !isBlank(line[ws-1]) {
		return false
	}
	k := ws - 1
	for k > 0 && !isBlank(line[k-1]) {
		k--
	}
	w := line[k : ws-1]
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	switch string(w) {
	case "--", "-E", "-i", "-it", "-ti", "-t":
		return false
	}
	return !isShellC(w) // sh -c mysql ...: the script's first word
}

// cmdBoundary: a command line or a flag starts at i when nothing word-like
// is glued to it: the line's start, a blank, a quote, an opening bracket,
// or a shell operator (;, |, &, `, $( and =, as in ARGS="--token X").
func cmdBoundary(line []byte, i int) bool {
	if i == 0 {
		return true
	}
	switch line[i-1] {
	case ' ', '\t', '"', '\'', '(', '[', '{', ',', ';', '|', '&', '`', '=':
		return true
	}
	return false
}

// addHits turns the grammar's hits on lx's words (numbered from first) into
// spans of the line, leaving out values that stand for a secret (help
// texts: --password string, --token TOKEN, -p<password>).
func (lx *cmdLexer) addHits(e *engine, line []byte, hits []argHit, first int, ri int32) {
	argRule := int32(-1)
	for _, h := range hits {
		wi := h.word - first
		if wi < 0 || wi >= len(lx.words) {
			continue
		}
		if !outputValueOK(lx.text(wi)[h.start:h.end]) {
			continue
		}
		s, end := lx.rawSpan(line, wi, h.start, h.end)
		r := ri
		if h.positional {
			if argRule < 0 {
				argRule = ruleByID(e.r, secretArgID, ri)
			}
			r = argRule
		}
		e.add(line, s, end, r)
	}
}

func ruleByID(r *Redactor, id string, fallback int32) int32 {
	for i := range r.rules {
		if r.rules[i].id == id {
			return int32(i)
		}
	}
	return fallback
}

// outputValueOK: in output, a flag's value may be a help text's
// placeholder or a word of prose rather than a secret.
func outputValueOK(v []byte) bool {
	if len(v) == 0 || isPlaceholder(v) {
		return false
	}
	if v[0] == '[' && v[len(v)-1] == ']' {
		return false // usage syntax: -p[password]
	}
	if v[0] == '=' || v[0] == ':' || !bytes.ContainsFunc(v, func(r rune) bool { return r < 128 && isAlnum(byte(r)) }) {
		return false // a diff's removed line: -secret = x, -token := get()
	}
	metavar := true // PASSWORD, CLIENT_SECRET, TEXT
	for _, c := range v {
		if !(c >= 'A' && c <= 'Z' || c == '_' || c == '-') {
			metavar = false
			break
		}
	}
	if metavar && len(v) > 1 {
		return false
	}
	if len(v) <= 8 {
		var low [8]byte
		for i, c := range v {
			low[i] = foldByte(c)
		}
		switch string(low[:len(v)]) {
		case "to", "and", "or", "the", "with", "for", "is", "a", "an", "in", "of", "on",
			"if", "when", "from", "as", "at", "by", "be", "are", "was", "not", "this",
			"that", "it", "flag", "option", "instead", "value", "text", "arg":
			return false
		}
	}
	return true
}

// cmdWord is a word of a command line: its bytes in the line, [rs, re),
// and its text (quotes and escapes removed), [ts, te) of the lexer's buf.
type cmdWord struct {
	rs, re int
	ts, te int
}

// cmdLexer splits a command line in text into words the way a shell would:
// single quotes, double quotes (with \" \\ \$ \` escapes), $'...', and
// backslash escapes outside quotes. A command ends at an unquoted ; | & < >
// ( ) or `, at the end of the line, and in strict mode (output) at a gap of
// two blanks (aligned help text), or after a quoted word followed by
// something other than one blank or a JSON list's comma. The caller lends
// it words and buf (newCmdLexer), so a lexer on the stack allocates nothing
// for a short command line.
type cmdLexer struct {
	words []cmdWord
	buf   []byte
	next  int // where lexing stopped
}

// cmdLexerWords and cmdLexerBytes size the buffers a caller lends.
const (
	cmdLexerWords = 16
	cmdLexerBytes = 512
)

func newCmdLexer(words []cmdWord, buf []byte) cmdLexer {
	return cmdLexer{words: words[:0], buf: buf[:0]}
}

func (lx *cmdLexer) text(i int) []byte { w := lx.words[i]; return lx.buf[w.ts:w.te] }

// lex reads at most maxWords words of one command from line[i:].
func (lx *cmdLexer) lex(line []byte, i, maxWords int, strict bool) {
	lx.words = lx.words[:0]
	lx.buf = lx.buf[:0]
	limit := len(line)
	if strict {
		limit = min(limit, i+cmdMaxBytes)
	}
	for i < limit && len(lx.words) < maxWords {
		if !strict {
			for i < limit && isBlank(line[i]) {
				i++
			}
			if i >= limit {
				break
			}
		}
		if cmdOperator(line[i]) {
			break
		}
		ts := len(lx.buf)
		it := wordIter{line: line[:limit], i: i, strict: strict}
		for {
			c, _, ok := it.next()
			if !ok {
				break
			}
			lx.buf = append(lx.buf, c)
		}
		if it.i == i {
			break
		}
		lx.words = append(lx.words, cmdWord{rs: i, re: it.i, ts: ts, te: len(lx.buf)})
		i = it.i
		if i >= limit {
			break
		}
		switch c := line[i]; {
		case isBlank(c):
			if strict && (i+1 >= limit || isBlank(line[i+1])) {
				lx.next = i
				return
			}
			i++
		case strict && it.quoted && c == ',':
			i++
			if i < limit && line[i] == ' ' {
				i++
			}
		default:
			lx.next = i
			return
		}
	}
	lx.next = i
}

func cmdOperator(c byte) bool {
	switch c {
	case ';', '|', '&', '<', '>', '(', ')', '`', '\n':
		return true
	}
	return false
}

// wordIter walks one word of a command line from i, a byte of its text at
// a time. quoted says whether the last thing read closed a quote; in strict
// mode a closing quote followed by , ] } or : ends the word (JSON:
// ["--token", "X"]).
type wordIter struct {
	line   []byte
	i      int
	strict bool
	q      byte // the open quote: ', " or $ for $'...'; 0 outside quotes
	quoted bool
}

// next returns the next byte of the word's text and the index of the line
// it comes from; ok is false at the word's end (it.i is then where it ends).
func (it *wordIter) next() (c byte, raw int, ok bool) {
	line := it.line
	for it.i < len(line) {
		c := line[it.i]
		if it.q != 0 {
			switch {
			case c == '\'' && it.q != '"', c == '"' && it.q == '"':
				it.q, it.quoted = 0, true
				it.i++
				continue
			case c == '\\' && it.i+1 < len(line) && (it.q == '"' && strings.IndexByte("\"\\$`", line[it.i+1]) >= 0 ||
				it.q == '$' && (line[it.i+1] == '\'' || line[it.i+1] == '\\')):
				it.i += 2
				return line[it.i-1], it.i - 1, true
			}
			it.i++
			return c, it.i - 1, true
		}
		switch {
		case isBlank(c) || cmdOperator(c):
			return 0, 0, false
		case it.strict && it.quoted && (c == ',' || c == ']' || c == '}' || c == ':'):
			return 0, 0, false
		case c == '\'' || c == '"':
			it.q = c
			it.i++
			continue
		case c == '$' && it.i+1 < len(line) && line[it.i+1] == '\'':
			it.q = '$'
			it.i += 2
			continue
		case c == '\\':
			it.quoted = false
			if it.i+1 < len(line) {
				it.i += 2
				return line[it.i-1], it.i - 1, true
			}
			it.i++
			continue
		}
		it.quoted = false
		it.i++
		return c, it.i - 1, true
	}
	return 0, 0, false
}

// rawSpan maps [start, end) of word wi's text to the line: from the byte
// the first came from to just after the byte the last came from.
func (lx *cmdLexer) rawSpan(line []byte, wi, start, end int) (int, int) {
	w := lx.words[wi]
	if w.re-w.rs == w.te-w.ts {
		return w.rs + start, w.rs + end // nothing was quoted or escaped
	}
	s, e := w.re, w.re
	it := wordIter{line: line[:w.re], i: w.rs}
	for k := 0; k < end; k++ {
		_, raw, ok := it.next()
		if !ok {
			break
		}
		if k == start {
			s = raw
		}
		e = raw + 1
	}
	return s, e
}

// scanLine reads b as command lines (not strict: any run of blanks
// separates words) and returns the grammar's secrets as ranges of b.
func (t *ArgvRules) scanLine(b []byte, hits []argHit, depth int) []argHit {
	lx := newCmdLexer(nil, nil)
	for i := 0; i < len(b); {
		lx.lex(b, i, 1<<16, false)
		if len(lx.words) > 0 {
			texts := make([][]byte, len(lx.words))
			for k := range lx.words {
				texts[k] = lx.text(k)
			}
			for _, h := range t.scan(texts, 0, nil, depth) {
				s, e := lx.rawSpan(b, h.word, h.start, h.end)
				hits = append(hits, argHit{word: 0, start: s, end: e, positional: h.positional})
			}
		}
		i = lx.next
		for i < len(b) && (cmdOperator(b[i]) || isBlank(b[i])) {
			i++
		}
		if i == lx.next && len(lx.words) == 0 {
			i++ // cannot happen: a position that starts no word is an operator or a blank
		}
	}
	return hits
}
