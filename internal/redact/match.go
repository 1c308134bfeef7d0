package redact

import (
	"bytes"
	"encoding/base64"
)

// A matchFunc verifies one prefilter hit: line is the whole line (or, for a
// long line, what is held of it), [hs, he) the literal's bytes in it, ri the
// rule and pi the literal. It adds the secret spans it confirms.
type matchFunc func(e *engine, line []byte, hs, he int, ri, pi int32)

// byteSet is a membership table; mkset takes "A-Za-z0-9_.-" style specs,
// where a '-' that is first or last is literal.
type byteSet [256]bool

func mkset(spec string) byteSet {
	var s byteSet
	for i := 0; i < len(spec); i++ {
		if i+2 < len(spec) && spec[i+1] == '-' {
			for c := int(spec[i]); c <= int(spec[i+2]); c++ {
				s[c] = true
			}
			i += 2
			continue
		}
		s[spec[i]] = true
	}
	return s
}

func mksetExcept(except string) byteSet {
	var s byteSet
	for i := range s {
		s[i] = true
	}
	for i := 0; i < len(except); i++ {
		s[except[i]] = false
	}
	return s
}

var (
	wordSet     = mkset("A-Za-z0-9_")
	alnumSet    = mkset("A-Za-z0-9")
	tokenSet    = mkset("A-Za-z0-9_-")
	nameSet     = mkset("A-Za-z0-9_.-")
	schemeSet   = mkset("A-Za-z0-9+.-")
	b64Std      = mkset("A-Za-z0-9+/")
	b64Pem      = mkset("A-Za-z0-9+/=")
	azureSet    = mkset("A-Za-z0-9_~.")
	azureBody   = mkset("A-Za-z0-9_~.-")
	headerValue = mksetExcept(" \t\r\n\v\f\"',;\\")
	urlUserStop = mkset(" \t\r\n\v\f:/@\"'<>")
	urlPassStop = mkset(" \t\r\n\v\f/@\"'<>")
	cookieSet   = mksetExcept("\r\n\"'")
	nonSpace    = mksetExcept(" \t\r\n\v\f")
	slackAppSet = mkset("A-Za-z0-9-")
	hexSet      = mkset("0-9A-Fa-f")
)

func isAlnum(b byte) bool { return alnumSet[b] }

func isLetter(b byte) bool { return (b|0x20) >= 'a' && (b|0x20) <= 'z' }

func isLowerWord(v []byte) bool {
	for _, c := range v {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return len(v) > 0
}

// lbOK is the left boundary of a token: the byte before i is not
// [A-Za-z0-9_], or it ends an encoded separator (escapedSepBefore).
func lbOK(line []byte, i int) bool { return i == 0 || !wordSet[line[i-1]] || escapedSepBefore(line, i) }

// escapedSepBefore reports whether line[:i] ends in an encoded separator
// whose last byte is a letter or digit: a percent-encoded byte (%20 after
// Bearer, %3D after =, %2F, %22, or %253D, encoded twice) or a backslash
// escape (\n, \t, \r, \uXXXX). curl -v listings, URL-encoded redirects and
// JSON logs put tokens right after them, and the word test alone took the
// escape for a word glued to the token. \" and \\ end in a byte that is no
// word byte and pass lbOK without this. It is only reached after a word
// byte, so text without escapes pays nothing for it.
func escapedSepBefore(line []byte, i int) bool {
	if i >= 3 && hexSet[line[i-1]] && hexSet[line[i-2]] {
		if line[i-3] == '%' {
			return true
		}
		if i >= 5 && line[i-3] == '5' && line[i-4] == '2' && line[i-5] == '%' {
			return true
		}
		if i >= 6 && hexSet[line[i-3]] && hexSet[line[i-4]] && line[i-5] == 'u' && line[i-6] == '\\' {
			return true
		}
	}
	if i >= 2 && line[i-2] == '\\' {
		switch line[i-1] {
		case 'n', 't', 'r':
			return true
		}
	}
	return false
}

func rbOK(line []byte, j int) bool { return j >= len(line) || !wordSet[line[j]] }

func hasAt(line []byte, i int, s string) bool {
	return i >= 0 && i+len(s) <= len(line) && string(line[i:i+len(s)]) == s
}

// hasFoldAt compares ASCII case-insensitively; s must be lower case.
func hasFoldAt(line []byte, i int, s string) bool {
	if i < 0 || i+len(s) > len(line) {
		return false
	}
	for k := 0; k < len(s); k++ {
		if foldByte(line[i+k]) != s[k] {
			return false
		}
	}
	return true
}

func runOf(line []byte, i int, set *byteSet) int {
	for i < len(line) && set[line[i]] {
		i++
	}
	return i
}

func matchShape(e *engine, line []byte, hs, he int, ri, _ int32) {
	cr := &e.r.rules[ri]
	sh := cr.shape
	ok := false
	for _, p := range sh.prefixes {
		if len(p) == he-hs && string(line[hs:he]) == p {
			ok = true
			break
		}
	}
	if !ok || (sh.lb && !lbOK(line, hs)) {
		return
	}
	j := runOf(line, he, cr.body)
	for j > he && cr.trim[line[j-1]] {
		j--
	}
	n := j - he
	if n < sh.min || (sh.max > 0 && n > sh.max) || (sh.rb && !rbOK(line, j)) {
		return
	}
	if sh.reject != nil && sh.reject(line[hs:j]) {
		return
	}
	e.add(line, hs, j, ri)
}

// matchSlackApp: LB xapp-\d-[A-Za-z0-9-]{9,}[A-Za-z0-9] (a trailing '-'
// is given back).
func matchSlackApp(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "xapp-") || !lbOK(line, hs) {
		return
	}
	if he+1 >= len(line) || line[he] < '0' || line[he] > '9' || line[he+1] != '-' {
		return
	}
	j := runOf(line, he+2, &slackAppSet)
	for j > he+2 && line[j-1] == '-' {
		j--
	}
	if j-(he+2) >= 10 {
		e.add(line, hs, j, ri)
	}
}

// matchSlackWebhook: the secret path of
// hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/]{20,})
// (group 1); the host stays, and no left boundary is needed after https://.
func matchSlackWebhook(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "hooks.slack.com/") {
		return
	}
	k := -1
	for _, kind := range []string{"services/", "workflows/", "triggers/"} {
		if hasAt(line, he, kind) {
			k = he + len(kind)
			break
		}
	}
	if k < 0 {
		return
	}
	j := runOf(line, k, &b64Std)
	if j-k >= 20 {
		e.add(line, k, j, ri)
	}
}

// matchAnthropic: LB sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_-]{32,}
func matchAnthropic(e *engine, line []byte, hs, _ int, ri, _ int32) {
	if !hasAt(line, hs, "sk-ant-") || !lbOK(line, hs) {
		return
	}
	he := hs + len("sk-ant-") // the literal is sk-, shared with OpenAI's keys
	k := he
	for k < len(line) && k-he < 10 && line[k] >= 'a' && line[k] <= 'z' {
		k++
	}
	if k-he < 2 || k+3 > len(line) {
		return
	}
	if line[k] < '0' || line[k] > '9' || line[k+1] < '0' || line[k+1] > '9' || line[k+2] != '-' {
		return
	}
	k += 3
	j := runOf(line, k, &tokenSet)
	if j-k >= 32 {
		e.add(line, hs, j, ri)
	}
}

// matchOpenAIMarker: LB sk-[A-Za-z0-9_-]{16,509}T3BlbkFJ[A-Za-z0-9_-]{16,}.
// The hit is the marker in the middle, so walk back (at most 512 bytes, hence
// the 509) to the first sk- that starts the key.
func matchOpenAIMarker(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "T3BlbkFJ") {
		return
	}
	k := hs
	for k > 0 && hs-k < 512 && tokenSet[line[k-1]] {
		k--
	}
	start := -1
	for p := k; p+3 <= hs-16; {
		at := bytes.Index(line[p:hs-16], []byte("sk-"))
		if at < 0 {
			break
		}
		if p += at; lbOK(line, p) {
			start = p
			break
		}
		p++
	}
	if start < 0 {
		return
	}
	j := runOf(line, he, &tokenSet)
	if j-he >= 16 {
		e.add(line, start, j, ri)
	}
}

// matchJWT: LB eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*
// (header, payload, optional signature; it stops at '&', '@' and quotes).
func matchJWT(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "eyJ") || !lbOK(line, hs) {
		return
	}
	j := runOf(line, he, &tokenSet)
	if j-he < 10 || !hasAt(line, j, ".eyJ") {
		return
	}
	k := j + 4
	j = runOf(line, k, &tokenSet)
	if j-k < 10 || j >= len(line) || line[j] != '.' {
		return
	}
	j = runOf(line, j+1, &tokenSet)
	e.add(line, hs, j, ri)
}

// matchSendGrid: LB (SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}) RB
// [A-Za-z0-9_-]: exact run lengths.
func matchSendGrid(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "SG.") || !lbOK(line, hs) {
		return
	}
	j := runOf(line, he, &tokenSet)
	if j-he != 22 || j >= len(line) || line[j] != '.' {
		return
	}
	k := runOf(line, j+1, &tokenSet)
	if k-(j+1) == 43 {
		e.add(line, hs, k, ri)
	}
}

// matchAzureSecret: ([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}), with
// no [A-Za-z0-9_~.] before it and no [A-Za-z0-9_~.-] after it.
// The literal is the digit and Q~.
func matchAzureSecret(e *engine, line []byte, dq, he int, ri, _ int32) {
	hs := dq + 1
	if !hasAt(line, hs, "Q~") || hs < 4 {
		return
	}
	if d := line[hs-1]; d < '0' || d > '9' {
		return
	}
	start := hs - 4
	for i := start; i < hs-1; i++ {
		if !azureSet[line[i]] {
			return
		}
	}
	if start > 0 && (wordSet[line[start-1]] || azureSet[line[start-1]]) {
		return
	}
	j := runOf(line, he, &azureBody)
	if n := j - he; n < 31 || n > 34 {
		return
	}
	e.add(line, start, j, ri)
}

// pemLabel matches [ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?----- at i,
// shortest label first, looking for PRIVATE KEY from index from (i at
// first). It returns the index after the label, -1 if there is none, and
// where to look for the next longer one.
func pemLabel(line []byte, i, from int) (end, next int) {
	lim := min(len(line), i+101) // PRIVATE KEY starts at most 100 bytes in
	for q := from; q < lim; q++ {
		if hasAt(line, q, "PRIVATE KEY") {
			k := q + len("PRIVATE KEY")
			if hasAt(line, k, " BLOCK") {
				k += len(" BLOCK")
			}
			if hasAt(line, k, "-----") {
				return k + 5, q + 1
			}
		}
		if c := line[q]; !(c == ' ' || c == '_' || c == '-' || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			break
		}
	}
	return -1, 0
}

// matchPEMHeader keeps the header and footer and redacts the body between
// them on the same line (a JSON string with \n escapes, or \\n when that
// JSON is itself in a string; a one-line dump), or starts the PEM state
// machine when the body follows on the next lines. The header may start
// anywhere on its line. Its spans are group 1 (unless blank) or group 2 of
//
//	-----BEGIN[ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?-----(?:(.*?)-----END[ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?-----|(?:[ \t\r]|\\+[nr]|\x1b\[[0-9;]*m)*([A-Za-z0-9+/=](?:[A-Za-z0-9+/= \t\r\\]*[A-Za-z0-9+/=\\])?))
//
// A label may itself hold PRIVATE KEY-----, so when neither a footer nor a
// body follows the shortest header, the next longer one is tried, as the
// expression would.
func matchPEMHeader(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "-----BEGIN") {
		return
	}
	for q := he; ; {
		hdrEnd, next := pemLabel(line, he, q)
		if hdrEnd < 0 || e.pemAfterHeader(line, hs, hdrEnd, ri) {
			return
		}
		q = next
	}
}

// pemAfterHeader handles what follows a header ending at hdrEnd and reports
// whether that decided the header; false means another header end may.
func (e *engine) pemAfterHeader(line []byte, hs, hdrEnd int, ri int32) bool {
	for f := hdrEnd; e.noFooterFrom < 0 || f < e.noFooterFrom; {
		at := bytes.Index(line[f:], []byte("-----END"))
		if at < 0 {
			e.noFooterFrom = f // later headers on this line need not look again
			break
		}
		fs := f + at
		if end, _ := pemLabel(line, fs+len("-----END"), fs+len("-----END")); end >= 0 {
			body := line[hdrEnd:fs]
			if len(bytes.TrimSpace(body)) > 0 {
				e.add(line, hdrEnd, fs, ri)
			}
			return true
		}
		f = fs + 1
	}
	// No footer on this line: key material may follow the header here,
	// after blanks, colour codes or \n escapes (escaped any number of
	// times), and on the next lines.
	k := pemSkip(line, hdrEnd)
	if k < len(line) && b64Pem[line[k]] {
		j := k
		for j < len(line) && (b64Pem[line[j]] || isBlank(line[j]) || line[j] == '\\') {
			j++
		}
		for j > k && isBlank(line[j-1]) {
			j--
		}
		e.add(line, k, j, ri)
		if j < len(line) {
			return true // something else ends the key on this line
		}
	} else if k < len(line) {
		// A key in source code, one string literal per line: the header's
		// literal closes here and the body's follow (pemLiteralLine).
		q := line[k]
		if hs == 0 || line[hs-1] != q || (q != '"' && q != '\'') || !literalEnd(line, k+1) {
			return false // the header is quoted or mentioned, not printed
		}
		if e.open {
			e.notePEMOpen(hs)
			return true
		}
		e.setPending(mlState{mode: modePEM, prefix: pemStatePrefix(line[:hs-1]), quote: q})
		return true
	}
	if e.open {
		// The key may follow on the next lines: the long-line path keeps
		// the header until the line ends.
		e.notePEMOpen(hs)
		return true
	}
	// Whatever precedes the header (export KEY=", key: , a quote, a log
	// prefix, a colour code, a diff's +) may or may not be repeated on the
	// body lines; pemBodyLine accepts both. Indentation alone is no prefix,
	// and one too long to keep is treated as not repeated.
	e.setPending(mlState{mode: modePEM, prefix: pemStatePrefix(line[:hs])})
	return true
}

// pemSkip steps over what may separate a PEM header from its body on one
// line: blanks, SGR colour codes, and \n or \r escapes with any number of
// backslashes (JSON in JSON doubles them).
func pemSkip(line []byte, k int) int {
	for k < len(line) {
		switch c := line[k]; {
		case isBlank(c):
			k++
		case c == '\\':
			j := k + 1
			for j < len(line) && line[j] == '\\' {
				j++
			}
			if j >= len(line) || (line[j] != 'n' && line[j] != 'r') {
				return k
			}
			k = j + 1
		case c == 0x1b:
			n := sgrLen(line, k)
			if n == 0 {
				return k
			}
			k += n
		default:
			return k
		}
	}
	return k
}

// sgrLen returns the length of the SGR colour code \x1b[...m at k, or 0.
func sgrLen(line []byte, k int) int {
	if !hasAt(line, k, "\x1b[") {
		return 0
	}
	j := k + 2
	for j < len(line) && (line[j] == ';' || (line[j] >= '0' && line[j] <= '9')) {
		j++
	}
	if j < len(line) && line[j] == 'm' {
		return j + 1 - k
	}
	return 0
}

// matchPEMBase64: LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2} after no
// [A-Za-z0-9+/]. LS0tLS1CRUdJTi is "-----BEGIN" in base64; decode the start
// of the run and require PRIVATE KEY so base64 certificates stay.
func matchPEMBase64(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !hasAt(line, hs, "LS0tLS1CRUdJTi") || (hs > 0 && b64Std[line[hs-1]]) {
		return
	}
	j := runOf(line, he, &b64Std)
	if j-he < 20 {
		return
	}
	for p := 0; p < 2 && j < len(line) && line[j] == '='; p++ {
		j++
	}
	// Without its padding, decoded as raw base64, so a final partial
	// quantum is read too (the padded decoder stops before it).
	head := bytes.TrimRight(line[hs:min(j, hs+200)], "=")
	dec := make([]byte, base64.RawStdEncoding.DecodedLen(len(head)))
	n, _ := base64.RawStdEncoding.Decode(dec, head)
	if !bytes.Contains(dec[:n], []byte("PRIVATE KEY")) {
		return
	}
	e.add(line, hs, j, ri)
	// Wrapped output (base64 at 64 or 76 columns): follow the next lines.
	c, ls, _ := trimSpaceBounds(line)
	if !e.open && ls == hs && ls+len(c) == j && (len(c) == 64 || len(c) == 76) {
		e.setPending(mlState{mode: modePEMBase64, width: len(c)})
	}
}

// matchAuthHeader: Authorization, Proxy-Authorization, X-Api-Key, Api-Key,
// X-Goog-Api-Key, X-Auth-Token; the name and a Bearer/Basic/Token scheme
// stay. Without a colon (nginx's proxy_set_header Authorization "Basic x")
// the scheme is what says a credential follows. The span is group 1, at
// least 4 bytes and no placeholder, of
//
//	LB (?i:(?:proxy-)?authorization|(?:x-goog-|x-)?api-key|x-auth-token)(?:(?:"|'|\\")?[ \t\r]*:[ \t\r]*(?:"|'|\\")?(?:(?i:bearer|basic|token|bot|digest)[ \t\r]+)?|[ \t\r]+(?:"|')?(?i:bearer|basic|token|bot|digest)[ \t\r]+)([^ \t\r\n\v\f"',;\\]*)
//
// The optional prefixes (proxy-, x-, x-goog-) end in '-', which is a
// boundary, so only the literal itself needs one: xproxy-authorization is an
// authorization header whatever comes before it, as the expression says.
func matchAuthHeader(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !lbOK(line, hs) {
		return
	}
	k, ok := headerSeparator(line, he)
	if !ok {
		k = skipBlanks(line, he)
		if k == he {
			return
		}
		if k < len(line) && (line[k] == '"' || line[k] == '\'') {
			k++
		}
	}
	schemed := false
	for _, scheme := range []string{"bearer", "basic", "token", "bot", "digest"} {
		if hasFoldAt(line, k, scheme) && k+len(scheme) < len(line) && isBlank(line[k+len(scheme)]) {
			k += len(scheme)
			for k < len(line) && isBlank(line[k]) {
				k++
			}
			schemed = true
			break
		}
	}
	if !ok && !schemed {
		return
	}
	j := runOf(line, k, &headerValue)
	if v := line[k:j]; len(v) >= 4 && !isPlaceholder(v) {
		e.add(line, k, j, ri)
	}
}

// headerSeparator accepts `"?[ \t]*:[ \t]*"?` (either quote) after a header
// name and returns where the value starts.
func headerSeparator(line []byte, k int) (int, bool) {
	k, ok := colonAt(line, skipQuote(line, k))
	if !ok {
		return 0, false
	}
	return skipQuote(line, k), true
}

// colonAt accepts `[ \t]*:[ \t]*` at k and returns the index after it.
func colonAt(line []byte, k int) (int, bool) {
	for k < len(line) && isBlank(line[k]) {
		k++
	}
	if k >= len(line) || line[k] != ':' {
		return 0, false
	}
	k++
	for k < len(line) && isBlank(line[k]) {
		k++
	}
	return k, true
}

// skipQuote steps over a quote at k: ", ' or the \" of JSON inside a string.
func skipQuote(line []byte, k int) int {
	switch {
	case k < len(line) && (line[k] == '"' || line[k] == '\''):
		return k + 1
	case k+1 < len(line) && line[k] == '\\' && line[k+1] == '"':
		return k + 2
	}
	return k
}

// matchCookieHeader: Cookie and Set-Cookie; the whole cookie list is the
// secret, group 1 (at least 4 bytes, no placeholder) of
//
//	LB (?i:(?:set-)?cookie)(?:"|'|\\")?[ \t\r]*:[ \t\r]*(?:"|'|\\")?([^\r\n"']*?)[ \t\r]*(?:$|[\r\n"']|\\")
//
// set- ends in a boundary, so only cookie itself needs one (see
// matchAuthHeader).
func matchCookieHeader(e *engine, line []byte, hs, he int, ri, _ int32) {
	if !lbOK(line, hs) {
		return
	}
	k, ok := headerSeparator(line, he)
	if !ok {
		return
	}
	j := k
	for j < len(line) && cookieSet[line[j]] && !(line[j] == '\\' && j+1 < len(line) && line[j+1] == '"') {
		j++
	}
	for j > k && isBlank(line[j-1]) {
		j--
	}
	if v := line[k:j]; len(v) >= 4 && !isPlaceholder(v) {
		e.add(line, k, j, ri)
	}
}

// matchURLCredentials: scheme://user:password@host; the password (group 2,
// 3 to 256 bytes) is the secret unless a placeholder, and with the GitHub
// convention TOKEN:x-oauth-basic@ it is the user (group 1, at least 3
// bytes). The user may be empty (redis://:password@host). A password may
// hold a raw @ (postgres://u:p@ss@db/app): as URL parsers do, the last @
// before the host ends it, and after an @ a ? or # starts the query.
//
//	[A-Za-z][A-Za-z0-9+.-]{1,20}://([^ \t\r\n\v\f:/@"'<>]{0,256}):([^ \t\r\n\v\f/@"'<>]*(?:@[^ \t\r\n\v\f/@"'<>?#]*)*)@
func matchURLCredentials(e *engine, line []byte, hs, he int, ri, _ int32) {
	// A scheme of 2..21 bytes starting with a letter must end at hs.
	s := hs
	for s > 0 && hs-s < 21 && schemeSet[line[s-1]] {
		s--
	}
	letter := false
	for p := s; p <= hs-2; p++ {
		if c := line[p]; (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			letter = true
			break
		}
	}
	if !letter {
		return
	}
	u := he
	k := u
	for k < len(line) && k-u <= 256 && !urlUserStop[line[k]] {
		k++
	}
	if k >= len(line) || line[k] != ':' || k-u > 256 {
		return
	}
	p := k + 1
	at := -1
	// The scan is bounded so a line of many schemes stays linear; past the
	// bound the last @ seen so far ends the password.
	for j := p; j < len(line) && j-p < urlHostScan; j++ {
		c := line[j]
		if c == '@' {
			at = j
		} else if urlPassStop[c] || (at >= 0 && (c == '?' || c == '#')) {
			break
		}
	}
	if at < 0 || at-p < 3 || at-p > 256 {
		return
	}
	pass := line[p:at]
	if string(pass) == "x-oauth-basic" {
		if k-u >= 3 {
			e.add(line, u, k, ri)
		}
		return
	}
	if isPlaceholder(pass) {
		return
	}
	e.add(line, p, at, ri)
}

// urlHostScan bounds the search for the @ that ends a URL's password.
const urlHostScan = 1024

// authorWord reports whether the "auth" at b[hs:] begins a name segment that
// nameSegments reads as exactly "author" (Author, author, AUTHOR, standing
// alone as a segment). Such a name has the non-secret segment author, so
// isSecretNameBytes rejects it whatever else it holds: the hit can never
// become a span, and region skips it without looking at its line. Git prints
// an Author: line for every commit, and verifying each one cost more than
// scanning the rest of the log.
//
// A capital A followed by lower case always starts a segment; after the
// final lower-case r, only a lower-case letter or a digit would continue it
// (an upper-case letter starts the next one). The all-lower and all-upper
// spellings need non-alphanumeric bytes on both sides.
func authorWord(b []byte, hs int) bool {
	if hs < 0 || hs+6 > len(b) {
		return false
	}
	var next byte // 0: the end of b, which ends the segment
	if hs+6 < len(b) {
		next = b[hs+6]
	}
	switch string(b[hs : hs+6]) {
	case "Author":
		return !(next >= 'a' && next <= 'z') && !(next >= '0' && next <= '9')
	case "author", "AUTHOR":
		return (hs == 0 || !isAlnum(b[hs-1])) && !isAlnum(next)
	}
	return false
}

// matchEnvLiteral confirms an exact, case-sensitive occurrence of a secret
// environment value (or one of its encodings).
func matchEnvLiteral(e *engine, line []byte, hs, he int, ri, pi int32) {
	if string(line[hs:he]) == e.r.pats[pi] {
		e.add(line, hs, he, ri)
	}
}

const extraWindow = 64 << 10

// matchExtra runs a team rule's anchored regexp on the rest of the line.
func matchExtra(e *engine, line []byte, hs, he int, ri, _ int32) {
	cr := &e.r.rules[ri]
	if cr.lb && !lbOK(line, hs) {
		return
	}
	if !hasAt(line, hs, cr.extraPrefix) {
		return
	}
	// The window is clamped so a pattern that fails late cannot make a
	// line of many prefixes quadratic.
	loc := cr.re.FindIndex(line[hs:min(len(line), hs+extraWindow)])
	if loc == nil || loc[0] != 0 || loc[1] == 0 {
		return
	}
	e.add(line, hs, hs+loc[1], ri)
}
