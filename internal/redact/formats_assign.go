package redact

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
)

// Assignments: a name the classifier calls secret-like, a separator and a
// value, in the forms configuration files, code and command output write
// them:
//
//	NAME=VALUE  NAME: VALUE  "name": "value"  --name=value  name = 'value'
//	NAME := VALUE  NAME ?= VALUE  ENV['NAME'] ||= 'value'  ${NAME:-value}
//	'name' => 'value'  :name => "value"          (Ruby, PHP, Perl, Puppet)
//	<password>value</password>                   (XML, Maven settings.xml)
//	key="ApiKey" value="..."  "name": "X", "value": "..."  (.NET config, env lists)
//	define('NAME', 'value')  env('NAME', 'value') (calls; upper-case names only)
//	machine h login u password value             (.netrc)
//	PASSWORD 'value'  IDENTIFIED BY 'value'      (SQL CREATE/ALTER USER, ROLE)
//	Uid=sa;Pwd=value;  ?user=u&pass=value&x=1    (connection and query strings)
//	requirepass value  api_key    value          (name and value alone on a line)
//	host:5432:db:user:value                      (~/.pgpass, port 5432 or *)
//
// The whole value is the secret. A quoted value runs to its closing quote
// (backslash escapes and YAML/SQL's doubled quote do not end it). An
// unquoted value of a line that starts with the name (YAML, INI, .env,
// optionally indented, after export, a list dash, a diff or comment marker
// or a grep file:line: prefix) runs to the end of the line, before an
// inline " #" or " //" comment (and a logfmt line, NAME=a user=b, is read
// pair by pair); anywhere else it runs to the next blank, except in a
// connection string (after ';', or a first element ending in ';'), where
// blanks belong to it and ';' ends it.
// Inside a value, ',' and ';' end it only before the next name= pair or a
// blank, and a quote only before a blank or punctuation, so iqL,Fa;x'y is
// one value. In a query string & and # end it.
//
// What stays, on purpose:
//
//   - placeholders (isPlaceholder): ********, xxxx, <password>, ${VAR},
//     $VAR, $(cmd), {{ .Values.x }}, %s, your-api-key, [REDACTED...], and
//     words such as changeme, null, none, required, string, SecretStr: they
//     stand for a secret without being one, and redacting them hides what a
//     config or a help text says;
//   - code (unquoted only): references (cfg.Password, os.environ["X"],
//     ENV['X'], *token, &Config{...}), calls and composite literals
//     (getToken(ctx), Basic{...}), type annotations (password: str,
//     Optional[str] = None, Vec<u8>), expressions (pw + salt), a variable
//     passed on whose name is itself secret-like (Token: accessToken,
//     Password: password, s.pass = pass), Go's := after a lower-case name,
//     backquoted commands and f-string templates; a quoted value is data,
//     so "Correct.Horse.Battery" and "sk.abc.xyz" are redacted;
//   - structure: a value that opens a mapping or list closed on the same
//     line ({...}, [a, b]) or nothing at all (auth: {), and {name}
//     format fields;
//   - values shorter than 4 bytes, numbers, hex constants and times (3600,
//     0x1c, 12:30:00; a quoted run of 6 or more digits is a PIN and is
//     redacted), printf holes (%s, %T:%v), heredoc starts (<<EOT) and PEM
//     headers (the private-key rule owns the body);
//   - prose: after a name at the start of a line, two or more words, the
//     first and half of them plain words (auth: retry failed logins), is a
//     commit subject or a changelog entry; after a password's name it takes
//     three words and a little word of English (normalize the password
//     prior to use), since plain words there may be a passphrase. Elsewhere
//     a lower-case word followed by another (TOKEN: unbound variable) is
//     prose, and so is a single plain word alone after a name (token
//     refreshed, passphrase_to_dek failed.).

// assignCtx is what the bytes around a name say about its value.
type assignCtx struct {
	query      bool // after ? & or #: the value stops at & and #
	connStr    bool // after ';' or before one: blanks are part of the value, ';' ends it
	lineStart  bool // only a line-start prefix before the name
	plusBlank  bool // that prefix holds "+ ", a shell trace's marker
	quotedName bool // "pass": a key in JSON or a hash, not a test verdict
	equals     bool // NAME=VALUE (or := ?= ||=), not NAME: VALUE
}

// matchAssignment is the secret-assignment rule's matcher.
func matchAssignment(e *engine, line []byte, hs, he int, ri, _ int32) {
	if he-hs == 3 && (line[hs]|0x20) == 'k' && (hs == 0 || !nameSet[line[hs-1]]) {
		return // a name that starts with key (key:, keyFile, keys) has no qualifier
	}
	ne, ok := nameEnd(line, hs)
	if !ok || ne == e.lastAssignEnd {
		return // the same name, reached through another keyword literal
	}
	e.lastAssignEnd = ne
	assign(e, line, hs, ne, ri, false)
}

// nameEnd returns the end of the run of name bytes from a literal hit at
// hs (a literal such as sig= ends in a byte that is none).
func nameEnd(line []byte, hs int) (int, bool) { return nameEndFrom(line, hs, hs) }

// nameEndFrom is nameEnd for a name whose bytes line[hs:from] are name
// bytes already known, fewer than 128: its walk starts at from.
func nameEndFrom(line []byte, hs, from int) (int, bool) {
	// The bound is taken once, not checked on every byte: the walk runs on
	// most hits.
	lim := min(len(line), hs+128)
	ne := from
	for ne < lim && nameSet[line[ne]] {
		ne++
	}
	if ne == hs+128 && ne < len(line) && nameSet[line[ne]] {
		return 0, false // not a name: a long run of name bytes
	}
	return ne, ne > hs
}

// nameStart returns the start of the run of name bytes that holds hs,
// walking back at most 128 bytes.
func nameStart(line []byte, hs int) int {
	lo := max(0, hs-128)
	ns := hs
	for ns > lo && nameSet[line[ns-1]] {
		ns--
	}
	return ns
}

// assign finds the value after the name that holds hs and ends at ne, and
// adds it when the name is secret-like (or, with named, when the caller has
// already matched the name against the user's list). What follows the name
// is looked at first: most hits (token refreshed, TestTokenRefresh) have no
// value at all, and finding a name's start costs a walk back.
//
//nolint:funlen // runs on every assignment-name hit: the value's form decides, in order, what is read next; split with assign's and assignSeparated's (emitLine, assignOperator, assignColumn: still over 60) it measured slower on 10 of 11 BenchmarkWriter/WriterShapes cases, median of 7 alternating runs +1% to +12% ns/op (gotestv +10%, JSONlogs +4%)
func assign(e *engine, line []byte, hs, ne int, ri int32, named bool) {
	k := ne
	nameQuoted := false
	if hasAt(line, k, `\"`) {
		k += 2
		nameQuoted = true
	} else if k < len(line) && (line[k] == '"' || line[k] == '\'') {
		k++
		nameQuoted = true
	}
	if nameQuoted && k < len(line) && line[k] == ']' {
		k++ // ENV['DB_PASSWORD'] ||= 'x'
	}
	j := skipBlanks(line, k)
	if nameQuoted && (j >= len(line) || line[j] == ',') && jsonNameMember(e, line, hs, ne, ri) {
		return // "Name": "/prod/db/password", its "Value" on a later line
	}
	if j >= len(line) {
		return
	}
	const (
		separated = iota + 1
		element
		field
		keyword
		column
	)
	form := 0
	switch c := line[j]; {
	case c == ':' || c == '=':
		form = separated
	case (c == '|' && hasAt(line, j, "||=")) || (c == '?' && hasAt(line, j, "?=")):
		form = separated // Ruby's ||=, make's ?=
		j = bytes.IndexByte(line[j:], '=') + j
	case c == '>' && j == ne:
		form = element
	case nameQuoted:
		form = field
	case j > ne && ne-hs <= 8 && hasFoldAt(line, ne-8, "password") && (ne-8 == 0 || !nameSet[line[ne-9]]):
		form = keyword
	case j > ne && hasAt(line, j, "->") && j+2 < len(line) && isBlank(line[j+2]):
		j = skipBlanks(line, j+2) // ls -l of a secrets folder: api_token -> value
		if j == len(line) || skipBlanks(line, wordEnd(line, j)) != len(line) {
			return // no value, or more than one word
		}
		form = column
	case j > ne && skipBlanks(line, wordEnd(line, j)) == len(line):
		form = column // requirepass x, a vault kv get row: the name, blanks, one value
	case j > ne && npmrcKey(line, hs):
		form = column // npm config set //host/:_authToken x --location=user
	default:
		return
	}
	ns := nameStart(line, hs)
	if ns >= 2 && line[ns-1] == '/' && line[ns-2] == '/' {
		return // URL userinfo: matchURLCredentials' business
	}
	name := line[ns:ne]
	var pb byte
	if ns > 0 {
		pb = line[ns-1]
	}
	if (form == element && pb != '<') || (form == keyword && ne-ns != 8) {
		return
	}
	ctx := assignCtx{query: pb == '?' || pb == '&' || pb == '#', quotedName: nameQuoted}
	if p := skipBlanksBack(line, ns); p > 0 && line[p-1] == ';' {
		ctx.connStr = true
	}
	if form == separated {
		// The value's cheap checks come before the name's: most
		// assignments in ordinary output have short or numeric values
		// (max_tokens:1024), and classifying a name costs more.
		assignSeparated(e, line, ns, ne, j, ri, ctx, named)
		return
	}
	if !named && !e.assignmentName(name) && !contextName(name, ctx) {
		return
	}
	switch form {
	case element:
		if vs, ve, ok := xmlContent(line, ne+1); ok && quotedValueOK(line[vs:ve], name, false) {
			e.add(line, vs, ve, ri)
		}
	case field:
		if vs, ve, ok := valueField(line, j, ns-1); ok {
			if quotedValueOK(line[vs:ve], name, false) {
				e.add(line, vs, ve, ri)
			}
		} else {
			tfResourceStart(e, line, ns, ne, ri)
		}
	case keyword:
		assignKeyword(e, line, ns, j, ri)
	case column:
		if ok, _ := lineStartPrefix(line, ns); !ok && (!npmrcKey(line, hs) || line[j] == '-') {
			return // not npm config delete //host/:_authToken --location=user
		}
		ve := wordEnd(line, j)
		for ve > j && (line[ve-1] == ',' || line[ve-1] == ';') {
			ve-- // a Go struct field: signingKey crypto.PrivateKey,
		}
		if v := line[j:ve]; !plainWord(v) && unquotedValueOK(v, name) {
			e.add(line, j, ve, ri) // not "token refreshed", "passphrase_to_dek failed."
		}
	}
}

// assignSeparated handles NAME: VALUE, NAME=VALUE and NAME => 'VALUE'; sep
// is the index of the ':' or '='.
//
//nolint:funlen // runs on every NAME=/NAME: hit, its cheap value checks ordered before the costly name checks; split with assign's and assignSeparated's (emitLine, assignOperator, assignColumn: still over 60) it measured slower on 10 of 11 BenchmarkWriter/WriterShapes cases, median of 7 alternating runs +1% to +12% ns/op (gotestv +10%, JSONlogs +4%)
func assignSeparated(e *engine, line []byte, ns, ne, sep int, ri int32, ctx assignCtx, named bool) {
	s := line[sep]
	k := sep + 1
	arrow := false
	if k < len(line) {
		c := line[k]
		switch {
		case s == ':' && c == ':':
			return // :: is code
		case s == ':' && c == '=':
			if hasLower(line[ns:ne]) {
				return // Go's :=, whose values are code (range x, <-ch, T{...})
			}
			s = '=' // make's API_KEY := x
			k++
		case s == '=' && (c == '=' || c == '~'):
			return // == and =~ are code
		case s == '=' && c == '>':
			arrow = true // a Ruby, PHP or Perl hash entry
			k++
		case s == ':' && ns >= 2 && line[ns-1] == '{' && line[ns-2] == '$' && (c == '-' || c == '=' || c == '?' || c == '+'):
			k++ // ${DB_PASSWORD:-default}: the default is the value
		}
	}
	k = skipBlanks(line, k)
	if numberAt(line, k) {
		return // max_tokens:1024, "expires_in": 3600, TIMEOUT=30s
	}
	// Nothing is added unless the name is secret-like (or named by the
	// caller, or a name of its context: contextName), so a name that is
	// none in any context is done with before its value is walked
	// (SSH_AUTH_SOCK=, a long value); a classified name is cached.
	name := line[ns:ne]
	if !named {
		secret, cand := e.nameKinds(name)
		if !secret && !cand {
			return
		}
		named = secret
	}
	ctx.equals = s == '='
	// wFrom, wEnd: the word wordEnd found at wFrom, which the checks
	// below ask for again at the same start
	wFrom, wEnd := -1, -1
	if !ctx.query && !ctx.connStr {
		wFrom, wEnd = k, wordEnd(line, k)
		if w := wEnd; w > k && line[w-1] == ';' && line[k] != '"' && line[k] != '\'' {
			ctx.connStr = true // Pwd=x; Uid=sa: a connection string's first element
		}
	}
	// The context contextName reads is settled here.
	if !named && !contextName(name, ctx) {
		return // PASS: in go test -v, PWD=/home/dev
	}
	if vs, ve, tmpl, ok := quotedValue(line, k, ctx.query); ok {
		if ve-vs >= 4 && quotedValueOK(line[vs:ve], name, tmpl) {
			e.add(line, vs, ve, ri)
		}
		return
	}
	if k >= len(line) {
		return
	}
	if arrow {
		return // unquoted after =>: a variable or an expression
	}
	ctx.lineStart, ctx.plusBlank = lineStartPrefix(line, ns)
	vs := k
	switch line[vs] {
	case '(':
		return
	case '{', '[':
		if ctx.connStr && line[vs] == '{' {
			// ODBC quotes a value in braces: Pwd={p;ss w}.
			if end := bytes.IndexByte(line[vs:], '}'); end > 1 {
				if v := line[vs+1 : vs+end]; len(v) >= 4 && !isPlaceholder(v) {
					e.add(line, vs+1, vs+end, ri)
				}
				return
			}
		}
		if structureAt(line, vs) {
			return
		}
	case '<':
		if bytes.IndexByte(line[vs:], '>') > 0 {
			return // <your-password>, <token>
		}
	case '!':
		// A YAML tag (!vault |, !!str x): what follows it is the value.
		if vs+1 < len(line) && (isLetter(line[vs+1]) || line[vs+1] == '!') {
			vs = skipBlanks(line, runOf(line, vs, &nonSpace))
		}
	}
	if s == ':' && vs < len(line) && (line[vs] == '|' || line[vs] == '>') && blockIndicator(line, vs) {
		yamlBlockStart(e, line, ns, line[k:vs], ri) // password: |, its value on the lines below
		return
	}
	toEOL := ctx.lineStart && !ctx.query && name[0] != '-' && !(s == '=' && ctx.plusBlank)
	var ve int
	codeTo := -1 // line[vs:codeTo] is known not to be code
	if toEOL {
		w := wEnd
		if wFrom != vs {
			w = wordEnd(line, vs)
		}
		if codeValue(line[vs:w]) {
			return // Token: cfg.Token, before the walk to the end of the line
		}
		codeTo = w
		ve = lineValueEnd(line, vs)
		// NAME=abc user=bob: a logfmt line, one value per pair.
		if s == '=' && w < ve && pairAt(line, skipBlanks(line, w)) {
			toEOL = false
		}
	}
	if !toEOL {
		ve = wordValueEnd(line, vs, ctx)
	}
	ve = trimClosers(line, vs, ve)
	if toEOL {
		for ve > vs && (line[ve-1] == ',' || line[ve-1] == ';') {
			ve-- // Token: cfg.Token, in a struct literal; password: str;
		}
	}
	v := line[vs:ve]
	// unquotedValueOK, without asking codeValue again of the word it
	// answered for above
	if len(v) < 4 || numeric(v) || (ve != codeTo && codeValue(v)) || isPlaceholder(v) || commonValueReject(v, name) {
		return
	}
	if toEOL {
		if proseWords(v, name) {
			return // auth: retry failed logins
		}
	} else if s == ':' && ve+1 < len(line) && line[ve] == ' ' && v[0] >= 'a' && v[0] <= 'z' && plainWord(v) && isLetter(line[ve+1]) {
		return // prose: "auth: retry failed logins", "TOKEN: unbound variable", "key: don't assume"
	}
	e.add(line, vs, ve, ri)
}

// assignKeyword handles the forms where a blank separates the name password
// from its value: SQL's PASSWORD 'x' (CREATE USER, ALTER ROLE ... WITH
// PASSWORD) and .netrc's password x. v is where the value starts.
func assignKeyword(e *engine, line []byte, ns, v int, ri int32) {
	if hasFoldAt(line, v, "for") && v+3 < len(line) && isBlank(line[v+3]) {
		// SET PASSWORD FOR 'u'@'h' = 'x'
		eq := bytes.IndexByte(line[v:], '=')
		if eq < 0 {
			return
		}
		v = skipBlanks(line, v+eq+1)
		if v >= len(line) || line[v] != '\'' {
			return
		}
	}
	if line[v] == '\'' {
		if vs, ve, _, ok := quotedValue(line, v, false); ok && quotedValueOK(line[vs:ve], nil, false) {
			e.add(line, vs, ve, ri)
		}
		return
	}
	if string(line[ns:ns+8]) != "password" {
		return // .netrc keywords are lower case; PASSWORD x is prose or SQL
	}
	first := firstWord(line)
	standalone := false
	switch string(first) {
	case "machine", "default", "login", "account":
	case "password":
		standalone = true
	default:
		return
	}
	vs, ve, _, ok := quotedValue(line, v, false)
	if !ok {
		vs, ve = v, wordEnd(line, v)
	}
	val := line[vs:ve]
	if standalone {
		// "password incorrect", "password changed": prose, unless a netrc
		// keyword or nothing follows and the value is no plain word.
		rest := skipBlanks(line, min(ve+1, len(line)))
		if rest < len(line) && !netrcKeyword(firstWord(line[rest:])) {
			return
		}
		if isLowerWord(val) {
			return
		}
	}
	if quotedValueOK(val, nil, false) {
		e.add(line, vs, ve, ri)
	}
}

func netrcKeyword(w []byte) bool {
	switch string(w) {
	case "machine", "default", "login", "password", "account", "macdef":
		return true
	}
	return false
}

// firstWord returns the first run of non-blank bytes of line.
func firstWord(line []byte) []byte {
	s := skipBlanks(line, 0)
	return line[s:wordEnd(line, s)]
}

func skipBlanks(line []byte, k int) int {
	for k < len(line) && isBlank(line[k]) {
		k++
	}
	return k
}

func skipBlanksBack(line []byte, k int) int {
	for k > 0 && isBlank(line[k-1]) {
		k--
	}
	return k
}

// wordEnd returns the end of the run of non-blank bytes at k. It runs on
// the word after most hits (the test name after go test -v's PASS:, the
// path after PWD=), so it looks at eight bytes a step: a word ends only at
// a byte below '!' (the blanks, '\n', '\v', '\f'), and the lowest such
// byte of a step is found exactly (wordEndBytes is the byte-by-byte walk,
// TestWordEndMatchesBytes and FuzzWordEnd compare them).
func wordEnd(line []byte, k int) int {
	for k+8 <= len(line) {
		x := binary.LittleEndian.Uint64(line[k:])
		// A byte below 0x21 sets its high bit here, and the lowest one
		// flagged is exactly the first such byte: below it no byte
		// borrows, and none at or above 0x21 (nor at or above 0x80) is
		// flagged without a borrow.
		m := (x - 0x2121212121212121) &^ x & 0x8080808080808080
		if m == 0 {
			k += 8
			continue
		}
		j := k + bits.TrailingZeros64(m)>>3
		if !nonSpace[line[j]] {
			return j
		}
		k = j + 1 // a control byte that is not blank: still the word
	}
	return wordEndBytes(line, k)
}

// wordEndBytes is wordEnd one byte at a time.
func wordEndBytes(line []byte, k int) int {
	for k < len(line) && nonSpace[line[k]] {
		k++
	}
	return k
}

// isSpaceByte is a table load: it runs on every byte of the words around
// most hits.
func isSpaceByte(c byte) bool { return !nonSpace[c] }

// quotedValue reads a quoted value at k: "...", '...', `...` or the \"...\"
// of JSON inside a string, optionally after a Python string prefix
// (b'x', f"x"). tmpl reports an f-string or a backquoted value, whose
// braces are interpolation and whose words are a command. An unterminated
// quote runs to the end of the line, in a query string to the
// next & or #.
func quotedValue(line []byte, k int, query bool) (vs, ve int, tmpl, ok bool) {
	if k+2 < len(line) && (line[k+1] == '"' || line[k+1] == '\'') {
		switch line[k] {
		case 'f', 'F':
			tmpl = true
			k++
		case 'b', 'B', 'r', 'R', 'u', 'U':
			k++
		}
	}
	if k >= len(line) {
		return 0, 0, false, false
	}
	var quote byte
	escaped := false
	switch {
	case hasAt(line, k, `\"`):
		quote, escaped = '"', true
		k += 2
	case line[k] == '"' || line[k] == '\'' || line[k] == '`':
		quote = line[k]
		tmpl = tmpl || quote == '`' // a shell command substitution or a JS template
		k++
	default:
		return 0, 0, false, false
	}
	vs = k
	for k < len(line) {
		c := line[k]
		if query && (c == '&' || c == '#') {
			break
		}
		if escaped {
			if c == '\\' && k+1 < len(line) && line[k+1] == '"' {
				break
			}
		} else if c == quote {
			if quote == '\'' && k+1 < len(line) && line[k+1] == '\'' {
				k += 2 // YAML and SQL double a quote inside single quotes
				continue
			}
			break
		} else if c == '\\' {
			k++
		}
		k++
	}
	if k >= len(line) && !escaped && vs < len(line) && strings.IndexByte(",);+", line[vs]) >= 0 {
		// "this token:", err): the quote closes a string the name is in
		return 0, 0, false, false
	}
	ve = skipBlanksBack(line, min(k, len(line)))
	return vs, max(ve, vs), tmpl, true
}

// lineStartPrefix reports whether only a line-start prefix precedes the
// name at ns: blanks, export, a YAML list dash, a diff, comment or quote
// marker (+ - # ; >), after an optional grep file:line: prefix. plusBlank
// reports a "+ " in it, which set -x traces print before a command. It
// walks back from the name, so a long line costs only its short prefix.
// line may hold lines before the name's (a region, for quietBlank): a
// newline is the line's start, and the line's start is searched for only
// at a grep prefix's colon.
func lineStartPrefix(line []byte, ns int) (ok, plusBlank bool) {
	k := ns
	for k > 0 && ns-k <= 64 {
		c := line[k-1]
		switch {
		case c == '\n':
			return true, plusBlank
		case isBlank(c):
			if c == ' ' && k >= 2 && line[k-2] == '+' {
				plusBlank = true
			}
			k--
		case c == '+' || c == '-' || c == '#' || c == ';' || c == '>':
			k--
		case k >= 6 && string(line[k-6:k]) == "export" && k < ns:
			k -= 6
		case c == ':':
			ls := bytes.LastIndexByte(line[:k], '\n') + 1
			return k-ls <= 256 && grepPrefixLen(line[ls:k]) == k-ls, plusBlank
		default:
			return false, false
		}
	}
	return k == 0 || line[k-1] == '\n', plusBlank
}

// grepPrefixLen returns the length of a grep -H/-n prefix (config.yml:12:,
// .env:) at the start of p, or 0.
func grepPrefixLen(p []byte) int {
	i := 0
	for i < len(p) && p[i] != ':' && !isSpaceByte(p[i]) {
		i++
	}
	if i == 0 || i >= len(p) || p[i] != ':' {
		return 0
	}
	i++
	d := i
	for d < len(p) && isDigit(p[d]) {
		d++
	}
	if d > i && d < len(p) && p[d] == ':' {
		return d + 1
	}
	if !bytes.ContainsAny(p[:i], "./") {
		return 0 // pkcs11:token=..., a URI's scheme rather than a file's name
	}
	return i
}

// lineValueEnd is the end of a value that runs to the end of the line: before
// an inline comment (a # or // after a blank) and trailing blanks.
func lineValueEnd(line []byte, vs int) int {
	k := vs + 1
	for ; k+8 <= len(line); k += 8 {
		x := load8(line, k)
		for m := bytesEq(x, '#') | bytesEq(x, '/'); m != 0; m &= m - 1 {
			if j := k + flagged(m); valueCommentAt(line, j) {
				return max(vs, skipBlanksBack(line, j))
			}
		}
	}
	for ; k < len(line); k++ {
		if valueCommentAt(line, k) {
			return max(vs, skipBlanksBack(line, k))
		}
	}
	return max(vs, skipBlanksBack(line, len(line)))
}

// valueCommentAt reports a comment that ends a value at k (k > 0): # or //
// after a blank.
func valueCommentAt(line []byte, k int) bool {
	c := line[k]
	return (c == '#' || c == '/') && isBlank(line[k-1]) && (c == '#' || hasAt(line, k, "//"))
}

// lineValueEndBytes is lineValueEnd one byte at a time.
func lineValueEndBytes(line []byte, vs int) int {
	ve := len(line)
	for k := vs + 1; k < len(line); k++ {
		if c := line[k]; (c == '#' || c == '/') && isBlank(line[k-1]) && (c == '#' || hasAt(line, k, "//")) {
			ve = k
			break
		}
	}
	return max(vs, skipBlanksBack(line, ve))
}

// wordValueEnd is the end of an unquoted value in the middle of a line.
func wordValueEnd(line []byte, vs int, ctx assignCtx) int {
	k := vs
	for ; k < len(line); k++ {
		k = runOf(line, k, &wordValuePlain)
		if k >= len(line) {
			break
		}
		c := line[k]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			if !ctx.connStr {
				return k
			}
		case c == '\n' || c == '\v' || c == '\f':
			return k
		case ctx.query && (c == '&' || c == '#'):
			return k
		case c == ';' && ctx.connStr:
			return max(vs, skipBlanksBack(line, k)) // not before the value: TOKEN= ;x; is empty
		case c == ',' && ctx.connStr:
		case c == ',' || c == ';':
			if valueEndsAt(line, k+1) || pairAt(line, skipBlanks(line, k+1)) {
				return k
			}
		case c == '"' || c == '\'' || c == '`':
			if k == vs || valueEndsAt(line, k+1) {
				return k
			}
		case c == '\\' && k+1 < len(line) && line[k+1] == '"':
			return k // the end of a JSON string the assignment sits in
		}
	}
	if ctx.connStr {
		return skipBlanksBack(line, k)
	}
	return k
}

// wordValuePlain are the bytes wordValueEnd steps over without a look.
var wordValuePlain = mksetExcept(" \t\r\n\v\f&#;,\"'`\\")

// valueEndsAt reports whether a separator or quote before i ends a value:
// the line ends, or a blank or closing punctuation follows.
func valueEndsAt(line []byte, i int) bool {
	if i >= len(line) {
		return true
	}
	switch line[i] {
	case ' ', '\t', '\r', '\n', ',', ';', ')', ']', '}', '>', '/', '&', '"', '\'', '`', '\\':
		return true
	}
	return false
}

// pairAt reports whether a name=value pair starts at i (User ID=sa,
// uid=1000): a name of at most 40 bytes, possibly with single blanks, then
// '=' but not '=='.
func pairAt(line []byte, i int) bool {
	if i >= len(line) || !(isLetter(line[i]) || line[i] == '_') {
		return false
	}
	k := i
	for k < len(line) && k-i <= 40 {
		c := line[k]
		switch {
		case nameSet[c]:
		case c == ' ' && k+1 < len(line) && nameSet[line[k+1]]:
		case c == '=':
			return k+1 >= len(line) || line[k+1] != '='
		default:
			return false
		}
		k++
	}
	return false
}

// structureAt reports whether the { or [ at vs opens a mapping or list
// rather than a secret: nothing or a blank, quote or bracket follows, or it
// is closed later on the line around a structure ([a, b], {k: v}) or a
// name ({password}, {0}, [REDACTED]). Braces around a token ({aB3xQ9...})
// and an unclosed bracket ([k9Mq...) are secrets.
func structureAt(line []byte, vs int) bool {
	open := line[vs]
	if vs+1 >= len(line) {
		return true
	}
	switch line[vs+1] {
	case ' ', '\t', '\r', '"', '\'', '{', '[', '}', ']':
		return true
	}
	closer := byte('}')
	if open == '[' {
		closer = ']'
	}
	depth := 0
	for k := vs; k < len(line); k++ {
		switch line[k] {
		case open:
			depth++
		case closer:
			if depth--; depth == 0 {
				return !bracedToken(line[vs+1 : k])
			}
		}
	}
	return false
}

// bracedToken reports whether the text inside brackets is a token: letters
// and digits together, or punctuation that names and structures do not use.
func bracedToken(in []byte) bool {
	letter, digit := false, false
	for _, c := range in {
		switch {
		case isLetter(c):
			letter = true
		case isDigit(c):
			digit = true
		case c == '_' || c == '.' || c == '-':
		case isSpaceByte(c) || c == ',' || c == ':' || c == '"' || c == '\'' || c == '{' || c == '[' || c == '(' || c == '=':
			return false
		default:
			return true
		}
	}
	return letter && digit
}

// trimClosers gives back closing brackets at the end of a value that it
// did not open: f(password=x), {user: a, password: b}.
func trimClosers(line []byte, vs, ve int) int {
	for ve > vs {
		var open byte
		switch line[ve-1] {
		case ')':
			open = '('
		case ']':
			open = '['
		case '}':
			open = '{'
		default:
			return ve
		}
		if bytes.IndexByte(line[vs:ve-1], open) >= 0 {
			return ve
		}
		ve--
	}
	return ve
}

// xmlContent returns the text of an element that starts at k (after
// <name>), up to its closing tag on the same line, or a CDATA section's
// content. Without a closing tag the <name> is no element
// (trailer.<token>.command in prose).
func xmlContent(line []byte, k int) (vs, ve int, ok bool) {
	if hasAt(line, k, "<![CDATA[") {
		vs = k + len("<![CDATA[")
		end := bytes.Index(line[vs:], []byte("]]>"))
		if end < 0 {
			return vs, len(line), true
		}
		return vs, vs + end, true
	}
	vs = skipBlanks(line, k)
	end := bytes.Index(line[vs:], []byte("</"))
	if end < 0 {
		return 0, 0, false
	}
	return vs, max(vs, skipBlanksBack(line, vs+end)), true
}

// valueField reads the value of a name-value pair whose name field holds
// the secret-like name: key="ApiKey" value="x" in .NET appSettings,
// {"name": "DB_PASSWORD", "value": "x"} in container env lists, and a call
// with the name and the value as its first arguments: define('DB_PASSWORD',
// 'x') in wp-config.php, env('APP_KEY', 'x'), os.getenv("TOKEN", "x"),
// whose names are upper case (Push("token", "name") is a lexer's). k is
// after the name's closing quote and blanks; open is where the name's
// opening quote is.
func valueField(line []byte, k, open int) (vs, ve int, ok bool) {
	if k < len(line) && line[k] == ',' {
		k = skipBlanks(line, k+1)
		if p := skipBlanksBack(line, open); p > 0 && line[p-1] == '(' && !hasLower(line[open+1:k]) {
			vs, ve, _, ok = quotedValue(line, k, false)
			return vs, ve, ok && ve > vs
		}
	}
	q := skipQuote(line, k)
	if !hasFoldAt(line, q, "value") {
		return 0, 0, false
	}
	k = skipQuote(line, q+len("value"))
	k = skipBlanks(line, k)
	if k >= len(line) || (line[k] != '=' && line[k] != ':') {
		return 0, 0, false
	}
	vs, ve, _, ok = quotedValue(line, skipBlanks(line, k+1), false)
	return vs, ve, ok && ve > vs
}

// contextName accepts names that are secret only where they stand: pwd and
// pass alone in a connection or query string (PWD alone is the working
// directory), rclone's lower-case pass = and a quoted "pass" key, and sig
// and ...Signature in a query string (Azure SAS, S3 and GCS presigned URLs,
// which grant access as long as the URL is valid).
func contextName(name []byte, ctx assignCtx) bool {
	if len(name) == 4 && string(name) == "pass" && (ctx.quotedName || ctx.equals) {
		return true // rclone's pass = x, "pass": "x"; PASS: is go test's
	}
	if !ctx.query && !ctx.connStr {
		return false
	}
	var buf [32]byte
	if len(name) > len(buf) {
		return false
	}
	low := buf[:len(name)]
	for i, c := range name {
		low[i] = foldByte(c)
	}
	switch string(low) {
	case "pwd", "pass", "pw":
		return true
	}
	return ctx.query && (string(low) == "sig" || bytes.HasSuffix(low, []byte("signature")))
}

// contextNameCandidate reports whether contextName may accept name in
// some context.
func contextNameCandidate(name []byte) bool {
	switch len(name) {
	case 2:
		return hasFoldAt(name, 0, "pw")
	case 3:
		return hasFoldAt(name, 0, "pwd") || hasFoldAt(name, 0, "sig")
	case 4:
		return hasFoldAt(name, 0, "pass")
	}
	return len(name) >= 9 && hasFoldAt(name, len(name)-9, "signature")
}

// isPasswordName reports a name whose values may be passphrases of plain
// words.
func isPasswordName(name []byte) bool {
	for i := 0; i+3 <= len(name); i++ {
		if hasFoldAt(name, i, "pass") || hasFoldAt(name, i, "pwd") {
			return true
		}
	}
	return false
}

// proseWords reports a sentence rather than a value: two or more words,
// the first of them and at least half of them plain words. After a
// password's name a run of plain words may be a passphrase, so there it
// takes three words and one of the little words of English prose too
// (normalize the password prior to use; correct horse battery staple is a
// passphrase).
func proseWords(v []byte, name []byte) bool {
	if !hasBlank(v) {
		return false // one word: most values, settled without a look at each
	}
	words, plain, little := 0, 0, false
	first := true
	for i := 0; i < len(v); {
		if isBlank(v[i]) {
			i++
			continue
		}
		s := i
		for i < len(v) && !isBlank(v[i]) {
			i++
		}
		w := v[s:i]
		words++
		p := plainWord(w)
		if p {
			plain++
			little = little || littleWord(w)
		} else if first {
			return false
		}
		first = false
	}
	if words < 2 || plain*2 < words {
		return false
	}
	return !isPasswordName(name) || (words >= 3 && little)
}

// hasBlank reports a blank (isBlank) in v. A step is flagged only where
// it holds a blank, so a flag anywhere says yes.
func hasBlank(v []byte) bool {
	i := 0
	for ; i+8 <= len(v); i += 8 {
		x := load8(v, i)
		if bytesEq(x, ' ')|bytesEq(x, '\t')|bytesEq(x, '\r') != 0 {
			return true
		}
	}
	return hasBlankBytes(v[i:])
}

// hasBlankBytes is hasBlank one byte at a time.
func hasBlankBytes(v []byte) bool {
	for _, c := range v {
		if isBlank(c) {
			return true
		}
	}
	return false
}

// plainWord reports letters, perhaps with an inner apostrophe or hyphen
// (don't, read-only) and trailing punctuation (failed., "exit"): a word of
// prose rather than part of a secret.
func plainWord(w []byte) bool {
	// bytes.Trim with a cutset builds its set on every call
	for len(w) > 0 && quoteParen[w[0]] {
		w = w[1:]
	}
	for len(w) > 0 && quoteParen[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	for len(w) > 0 && sentencePunct[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	if len(w) == 0 || !isLetter(w[0]) || !isLetter(w[len(w)-1]) {
		return false
	}
	for _, c := range w {
		if !isLetter(c) && c != '\'' && c != '-' {
			return false
		}
	}
	return true
}

var (
	quoteParen    = mkset("\"'`()")
	sentencePunct = mkset(",.;:!?")
)

// littleWord reports the function words of English prose.
func littleWord(w []byte) bool {
	var buf [8]byte
	for len(w) > 0 && sentencePunct[w[len(w)-1]] {
		w = w[:len(w)-1]
	}
	if len(w) > len(buf) {
		return false
	}
	for i, c := range w {
		buf[i] = foldByte(c)
	}
	switch string(buf[:len(w)]) {
	case "a", "an", "the", "to", "of", "in", "on", "for", "with", "from", "by",
		"and", "or", "not", "no", "is", "are", "be", "it", "as", "at", "if",
		"when", "use", "used", "into", "prior", "after", "before":
		return true
	}
	return false
}

// quotedValueOK validates a value that is data (quoted, an XML element's
// text, a netrc or SQL password): dotted words and calls are not code here.
// name may be nil.
func quotedValueOK(v, name []byte, tmpl bool) bool {
	if len(v) < 4 || isPlaceholder(v) || commonValueReject(v, name) {
		return false
	}
	if bytes.Contains(v, []byte("${")) || bytes.Contains(v, []byte("{{")) || bytes.Contains(v, []byte("$(")) {
		return false // built at run time: "Bearer ${TOKEN}"
	}
	return !tmpl || !bytes.ContainsAny(v, "{ ")
}

// unquotedValueOK validates an unquoted value, which may be code.
func unquotedValueOK(v, name []byte) bool {
	return len(v) >= 4 && !numeric(v) && !codeValue(v) && !isPlaceholder(v) && !commonValueReject(v, name)
}

// numberAt reports an unquoted number (or time or version) at k that ends
// where a value would: the commonest value in logs and JSON, settled
// before anything else is looked at.
func numberAt(line []byte, k int) bool {
	if hasAt(line, k, "0x") {
		k += 2 // 0x1c in generated constants
		if k >= len(line) || !hexSet[line[k]] {
			return false
		}
		d := runOf(line, k, &hexSet)
		return d == len(line) || !wordSet[line[d]]
	}
	d := k
	for d < len(line) && (isDigit(line[d]) || line[d] == '.' || line[d] == ':') {
		d++
	}
	if d == k || !isDigit(line[k]) {
		return false
	}
	if d == len(line) {
		return true
	}
	switch line[d] {
	case ' ', '\t', '\r', ',', ';', '}', ']', ')', '"', '\'', '&':
		return true
	}
	return false
}

// numeric reports a number or a time, not a secret: 1234, 42:7:, 12:30:00.
func numeric(v []byte) bool {
	for _, c := range v {
		if !isDigit(c) && c != ':' {
			return false
		}
	}
	return v[0] != ':'
}

// commonValueReject: a key's header (the private-key rule owns the body), a
// heredoc start (key = <<EOT), a quoted number too short to be a PIN, the
// name itself (Password: password, s.pass = pass), the name of a
// pagination field ("output_token": "NextToken").
func commonValueReject(v, name []byte) bool {
	if hasAt(v, 0, "-----BEGIN") || hasAt(v, 0, "<<") || cursorFieldName(v) {
		return true
	}
	digits := true
	for _, c := range v {
		if !isDigit(c) {
			digits = false
			break
		}
	}
	if digits && len(v) < 6 {
		return true
	}
	bare := name
	for len(bare) > 0 && (bare[0] == '-' || bare[0] == '.') {
		bare = bare[1:]
	}
	if dot := bytes.LastIndexByte(bare, '.'); dot >= 0 {
		bare = bare[dot+1:] // s.pass = pass
	}
	return len(bare) > 0 && bytes.EqualFold(v, bare)
}

// cursorFieldName reports a value that names a pagination field rather
// than holding a secret: two to four words of letters in PascalCase or
// camelCase, the last Token, Tokens, Marker or Cursor (NextToken,
// nextPageToken, ContinuationToken, NextMarker). API descriptions (the AWS SDKs' paginators:
// "input_token": "NextToken") are full of them: nine in ten of the false
// hits bench/fprate found on 1.1 GiB of text. A password of that shape is
// words anyone would guess.
func cursorFieldName(v []byte) bool {
	if len(v) < 6 || len(v) > 48 {
		return false
	}
	segs, last := 0, 0
	for i, c := range v {
		switch {
		case c >= 'A' && c <= 'Z':
			if i > 0 && i-last < 2 {
				return false // two capitals in a row: an acronym or random
			}
			segs++
			last = i
		case c >= 'a' && c <= 'z':
			if i == 0 {
				segs++ // camelCase: nextToken
			}
		default:
			return false
		}
	}
	if segs < 2 || segs > 4 || len(v)-last < 2 {
		return false
	}
	switch string(v[last:]) {
	case "Token", "Tokens", "Marker", "Cursor":
		return true
	}
	return false
}

// codeValue reports an unquoted value that reads as code: a dotted
// reference (cfg.Password), a call (getToken(ctx)) or composite literal
// (Config{...}, &Config{...}), a pointer (*token), an index or generic
// type (os.environ["X"], ENV['X'], Optional[str], Vec<u8>), an identifier
// followed by an operator (pw + salt, str = None), or a variable whose own
// name is secret-like (accessToken, DB_PASSWORD).
func codeValue(v []byte) bool {
	if len(v) > 1 && (v[0] == '&' || v[0] == '*') && (isLetter(v[1]) || v[1] == '_') {
		return true // &Config{...}, *token: an address or a pointer
	}
	i := 0
	dots := 0
	for i < len(v) {
		if !(v[i] == '_' || isLetter(v[i])) {
			break
		}
		for i < len(v) && wordSet[v[i]] {
			i++
		}
		if i < len(v) && v[i] == '.' {
			dots++
			i++
			continue
		}
		break
	}
	if i == 0 || v[i-1] == '.' {
		return false
	}
	if i == len(v) {
		return dots > 0 || variableName(v)
	}
	switch v[i] {
	case ',', ';', ')':
		return dots > 0 // token.GTR, in a table
	case '(', '{':
		return true // a call, a composite literal (Basic{...})
	case '[':
		// ENV['X'] may be cut at its quote: ENV['X
		return bytes.IndexByte(v[i:], ']') > 0 || (i+1 < len(v) && (v[i+1] == '\'' || v[i+1] == '"' || v[i+1] == ':'))
	case '<':
		return v[len(v)-1] == '>'
	case ' ', '\t':
		k := skipBlanks(v, i)
		return k < len(v) && strings.IndexByte("+*/%|&^<>=!?", v[k]) >= 0
	}
	return false
}

// variableName reports an identifier that names a secret the way code
// names variables (accessToken, DB_PASSWORD, api_key), as opposed to a
// password made of words (SuperSecret123 starts upper case and has digits).
func variableName(v []byte) bool {
	if len(v) > 64 {
		return false
	}
	underscore, upper := false, false
	for _, c := range v {
		switch {
		case isDigit(c):
			return false
		case c == '_':
			underscore = true
		case c >= 'A' && c <= 'Z':
			upper = true
		}
	}
	camel := v[0] >= 'a' && v[0] <= 'z' && upper
	var buf [64]byte
	return (camel || underscore) && isSecretNameBytes(buf[:copy(buf[:], v)])
}

// isPlaceholder recognises values that stand for a secret without being one.
func isPlaceholder(v []byte) bool {
	if len(v) == 0 {
		return true
	}
	switch c := v[0]; c {
	case '*', 'x', 'X', '.', '#', '-':
		if allByte(v, c) {
			return true
		}
	case '<':
		return v[len(v)-1] == '>'
	case '$':
		return dollarRef(v)
	case '{', '[', '%':
		if hasAt(v, 0, "{{") || hasAt(v, 0, "[REDACTED") || hasAt(v, 0, "%(") || printfVerbs(v) {
			return true
		}
	case 0xe2: // U+2022 bullets, as password fields print them
		if len(v)%3 == 0 && bytes.Count(v, []byte("\u2022")) == len(v)/3 {
			return true
		}
	}
	if hasAt(v, 0, "***") || hasAt(v, 0, "...") {
		return true
	}
	// your-api-key, YOUR_TOKEN, yourPassword
	if len(v) > 5 && hasFoldAt(v, 0, "your") && (v[4] == '-' || v[4] == '_' || (v[4] >= 'A' && v[4] <= 'Z')) {
		return true
	}
	if len(v) <= 12 {
		var low [12]byte
		for i, c := range v {
			low[i] = foldByte(c)
		}
		return isPlaceholderWord(low[:len(v)])
	}
	return false
}

// dollarRef reports a shell or template reference: ${VAR}, ${VAR:-x},
// $(cmd), $VAR or $VAR/path in upper case ($_ENV['X'] too). $ecret, $Xk9q
// and other values that merely start with $ are secrets.
func dollarRef(v []byte) bool {
	if len(v) < 2 {
		return false
	}
	switch v[1] {
	case '{':
		return bytes.IndexByte(v, '}') > 0
	case '(':
		return bytes.IndexByte(v, ')') > 0
	}
	k := 1
	for k < len(v) && ((v[k] >= 'A' && v[k] <= 'Z') || v[k] == '_' || (k > 1 && isDigit(v[k]))) {
		k++
	}
	if k == 1 {
		return false
	}
	if k == len(v) {
		return true
	}
	switch v[k] {
	case '/', ':', '.', '}', '"', '\'', '[':
		return true
	}
	return false
}

func allByte(v []byte, c byte) bool {
	for _, b := range v {
		if b != c {
			return false
		}
	}
	return true
}

// matchIdentifiedBy: SQL's IDENTIFIED BY 'x' (MySQL, MariaDB, Oracle;
// IDENTIFIED WITH plugin BY 'x' and an unquoted Oracle password too).
// IDENTIFIED BY PASSWORD '*hash' and BY VALUES 'hash' give hashes, which
// are redacted as well; BY RANDOM PASSWORD has no value.
func matchIdentifiedBy(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasFoldAt(line, hs, "identified") || !lbOK(line, hs) || he >= len(line) || !isBlank(line[he]) {
		return
	}
	k := skipBlanks(line, he)
	if hasFoldAt(line, k, "with") && k+4 < len(line) && isBlank(line[k+4]) {
		k = skipBlanks(line, wordEnd(line, skipBlanks(line, k+4)))
	}
	if !hasFoldAt(line, k, "by") || k+2 >= len(line) || !isBlank(line[k+2]) {
		return
	}
	k = skipBlanks(line, k+2)
	for _, kw := range []string{"password", "values"} {
		if hasFoldAt(line, k, kw) && k+len(kw) < len(line) && isBlank(line[k+len(kw)]) {
			k = skipBlanks(line, k+len(kw))
		}
	}
	if hasFoldAt(line, k, "random") {
		return
	}
	vs, ve, _, ok := quotedValue(line, k, false)
	if !ok {
		if !hasAt(line, hs, "IDENTIFIED") {
			return // identified by Coverity.: prose; SQL is written in capitals
		}
		vs, ve = k, k
		for ve < len(line) && !isSpaceByte(line[ve]) && line[ve] != ';' {
			ve++
		}
	}
	if quotedValueOK(line[vs:ve], nil, false) {
		e.add(line, vs, ve, ri)
	}
}

// matchStorageKeyValue: an Azure storage account key (64 random bytes, 88
// bytes of base64) as the value of a "value" field, as az storage account
// keys list prints it (JSON, on its own line below "keyName", or YAML).
// The name of the field says nothing, so the shape must:
//
//	"(?i:value)"[ \t\r]*:[ \t\r]*(?:"|'|\\")?([A-Za-z0-9+/]{86}==)
//
// with no [A-Za-z0-9+/=] after it.
func matchStorageKeyValue(e *engine, line []byte, hs, he int, ri, _ int32) {
	k := skipQuote(line, hs)
	if !hasFoldAt(line, k, "value") {
		return
	}
	k, ok := headerSeparator(line, k+len("value"))
	if !ok {
		return
	}
	j := runOf(line, k, &b64Std)
	if j-k != 86 || !hasAt(line, j, "==") || (j+2 < len(line) && b64Pem[line[j+2]]) {
		return
	}
	e.add(line, k, j+2, ri)
}

// matchPgpass: a line of ~/.pgpass, host:port:database:user:password, the
// password (which may hold \: escapes) to the end of the line. The literal
// is the usual port or the all-hosts wildcard, the only fixed text such a
// line has.
func matchPgpass(e *engine, line []byte, hs, he int, ri, _ int32) {
	var bounds [5]int // start of each field
	n := 0
	start := skipBlanks(line, 0)
	bounds[0] = start
	n = 1
	for k := start; k < len(line) && n < 5; k++ {
		switch c := line[k]; {
		case c == '\\':
			k++
		case c == ':':
			bounds[n] = k + 1
			n++
		case isSpaceByte(c):
			return // hosts, databases and users hold no blanks
		}
	}
	if n < 5 || hs < start || hs >= bounds[4] {
		return
	}
	port := line[bounds[1] : bounds[2]-1]
	if !(string(port) == "*" || (len(port) > 0 && numeric(port))) {
		return
	}
	for f := 0; f < 4; f++ {
		if bounds[f+1]-1 == bounds[f] {
			return // an empty field: not a pgpass line
		}
	}
	vs, ve := bounds[4], skipBlanksBack(line, len(line))
	if ve > vs && quotedValueOK(line[vs:ve], nil, false) {
		e.add(line, vs, ve, ri)
	}
}

func hasLower(b []byte) bool {
	for _, c := range b {
		if c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// printfVerbs reports a value made of format verbs and punctuation (%s,
// %T:%v, %-20q): a format string's hole, not a secret.
func printfVerbs(v []byte) bool {
	verbs := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '%':
			i++
			for i < len(v) && strings.IndexByte("-+# 0123456789.*", v[i]) >= 0 {
				i++
			}
			if i >= len(v) || !isLetter(v[i]) {
				return false
			}
			verbs++
		case strings.IndexByte(":/ ,._=-", c) >= 0:
		case c == '\\' && i+1 < len(v) && strings.IndexByte("ntr", v[i+1]) >= 0:
			i++ // "Saving token: %s\n"
		default:
			return false
		}
	}
	return verbs > 0
}

// npmrcKey reports a name scoped to a registry the way .npmrc writes it,
// //host/path/:_authToken, whose value npm config set takes as its next
// argument anywhere on a line.
func npmrcKey(line []byte, hs int) bool {
	ns := nameStart(line, hs)
	return ns >= 3 && line[ns-1] == ':' && line[ns-2] == '/'
}
