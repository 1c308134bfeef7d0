package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"
)

// verdict is the judge's call on one hit.
type verdict int

const (
	// vFalse: the span is not a credential.
	vFalse verdict = iota
	// vFixture: the span has a credential's shape (a vendor format with a
	// random body, key material, a signed token, a high-entropy value of a
	// secret-named field) but sits in a test, an example or documentation,
	// or fails its vendor's checksum. A redactor should hide it all the
	// same: a reader cannot tell it from a live one.
	vFixture
	// vCredential: credential-shaped and nothing says it is a fake.
	vCredential
)

var verdictNames = [...]string{"false", "fixture", "credential"}

func (v verdict) String() string { return verdictNames[v] }

// judgeMethod is printed with the results and written to the manual text.
const judgeMethod = `A hit is judged by its span (the bytes its marker replaced) and then by where it sits; rac's own rules are not consulted.
(a) A span in a known vendor token format (GitHub, npm, GitLab, Slack, AWS key ids, Anthropic, OpenAI, Google, Stripe, SendGrid, Hugging Face, PyPI, DigitalOcean, Vault, Docker Hub, Linear, age and about 25 more) is credential-shaped when its body looks random; a body that holds a placeholder (EXAMPLE, xxxx, 1234, abcd, test, here, token, a run of one character, words, under 3 bits/char of entropy, 2.5 for bodies under 24 characters) makes it false. Where the vendor has a checksum (GitHub's ghp_/gho_/ghu_/ghs_/ghr_ and npm_: the CRC32 of the 30-character body in the last 6 base62 characters; age: bech32) a random body that fails it is a fixture. A private-key span is credential-shaped when it is base64 key material (at least 40 characters, 4 bits/char) or the base64 of a PEM private key; a JWT when its header decodes to JSON with "alg".
(b) Any other span (a secret-named assignment's value, a header, a cookie, a URL password, a flag's value, Secret data after base64 decoding) is false when the field's name says it is a pagination cursor, an idempotency or change id (NextToken, PageToken, ClientRequestToken, ChangeToken, Marker, ...) or the value is a secret's name in an ARN; otherwise it is credential-shaped when it has at least 12 characters, at least 3.5 bits/char of Shannon entropy and two of lower case, upper case and digits, and is not a code reference (a call, an index, {...}, *pointer, &address, a dotted chain of words, $VAR, ${...}, {{...}}, %s), a placeholder (xxx, <...>, your..., example, changeme, password, a sequence such as 1234 or abcdef), a path, a URL without a password, prose (several words, none credential-shaped) or a sequence of words (camelCase, snake_case, kebab-case, at most two numbers). A value that is base64 of text is judged as that text (the password of user:password).
(c) Everything else is false.
True hits are split: a fixture is credential-shaped but sits in a test, example, fixture or documentation file (a path segment naming test, fixture, example, sample, mock, fake, demo, spec, doc or man; a .md, .rst, .txt or .html file; /usr/share/doc; go test output), on a line marked for secret scanners (gitleaks:allow, nosec, pragma: allowlist secret), in a file holding three or more different credential-shaped values (a collection of samples), or fails its vendor's checksum; a credential is any other credential-shaped span. Both count as true: a reader cannot tell them from live ones, so a redactor should hide them.`

// judge calls one hit.
func judge(h *hitRec, it *item, line []byte) (verdict, string) {
	if why := notSecretByContext(h); why != "" {
		return vFalse, why
	}
	shaped, fake, why := credentialShaped(h.rule, h.span)
	switch {
	case !shaped:
		return vFalse, why
	case fake:
		return vFixture, why
	case it.docs || testPath(h.name):
		return vFixture, why + "; test/doc context"
	case allowComment(line):
		return vFixture, why + "; the line tells secret scanners it is a sample"
	}
	return vCredential, why
}

// cursorNames end the names of fields that hold a pagination cursor, an
// idempotency or change id: opaque, often random, and no credential.
var cursorNames = []string{"nexttoken", "pagetoken", "paginationtoken", "continuationtoken", "changetoken",
	"clientrequesttoken", "idempotencytoken", "lifecycleactiontoken", "synctoken", "cancellationtoken",
	"termtoken", "marker", "cursor"}

// notSecretByContext names why the text before a value says it is no
// secret (the field is a cursor, the value is a secret's name in an ARN),
// or returns "". A vendor token, a key or a JWT is judged by itself.
func notSecretByContext(h *hitRec) string {
	span := strings.TrimSpace(h.span)
	if m, _, _, _ := vendorToken(span); m || h.rule == "private-key" || jwtRE.MatchString(span) {
		return ""
	}
	if strings.HasSuffix(h.before, ":secret:") && strings.Contains(h.before, "arn:") {
		return "the name of a secret in an ARN"
	}
	name := fieldName(h.before)
	for _, c := range cursorNames {
		if strings.HasSuffix(name, c) {
			return "the field is a cursor or request id (" + name + ")"
		}
	}
	return ""
}

// fieldName is the name an assignment gives its value: the identifier
// before the separator, folded, without _ - and .
func fieldName(before string) string {
	b := strings.TrimRight(before, " \t\"'`=:")
	i := len(b)
	for i > 0 && (isMarkerByte(b[i-1]) && b[i-1] != ':') {
		i--
	}
	return strings.NewReplacer("_", "", "-", "", ".", "").Replace(strings.ToLower(b[i:]))
}

// allowComments are the marks secret scanners honour on a line holding a
// known sample.
var allowComments = []string{"gitleaks:allow", "nosec", "pragma: allowlist secret", "trufflehog:ignore", "nosonar", "detect-secrets"}

func allowComment(line []byte) bool {
	l := bytes.ToLower(line)
	for _, c := range allowComments {
		if bytes.Contains(l, []byte(c)) {
			return true
		}
	}
	return false
}

// credentialShaped decides whether span looks like a credential; fake
// reports a credential shape with evidence of a fake (a failed checksum).
func credentialShaped(rule, span string) (shaped, fake bool, why string) {
	s := strings.TrimSpace(span)
	switch rule {
	case "private-key":
		return keyMaterial(s)
	case "k8s-secret-data":
		return secretData(s)
	case "cookie-header":
		return cookieValues(s)
	}
	if ok, sh, fk, w := vendorToken(s); ok {
		return sh, fk, w
	}
	if i := strings.Index(s, "PRIVATE KEY-----"); i >= 0 {
		body := s[i+len("PRIVATE KEY-----"):]
		if j := strings.Index(body, "-----END"); j >= 0 {
			body = body[:j]
		}
		return keyMaterial(body)
	}
	if m := jwtRE.FindString(s); m != "" && len(m) >= len(s)/2 {
		if jwtHeaderOK(m) {
			return true, false, "jwt with a JSON header"
		}
		return false, false, "jwt-like, header is not JSON"
	}
	return genericValue(s)
}

// ---- (a) vendor formats ----

type vendor struct {
	name     string
	re       *regexp.Regexp
	prefix   int              // bytes of the match before the random body
	checksum func(string) int // 1 ok, 0 no checksum known, -1 failed
}

var vendors = []vendor{
	{"github", regexp.MustCompile(`^gh[pousr]_[A-Za-z0-9]{36}$`), 4, base62CRC},
	{"github-stateless", regexp.MustCompile(`^ghs_[0-9]+_[A-Za-z0-9_.-]{60,}$`), 4, nil},
	{"github-pat", regexp.MustCompile(`^github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}$`), 11, nil},
	{"npm", regexp.MustCompile(`^npm_[A-Za-z0-9]{36}$`), 4, base62CRC},
	{"gitlab", regexp.MustCompile(`^(?:glpat|gloas|gldt|glrt|glcbt|glptt|glft|glimt|glagent|glsoat|glffct)-[A-Za-z0-9_.-]{20,}$`), 6, nil},
	{"gitlab-runner", regexp.MustCompile(`^GR1348941[A-Za-z0-9_-]{20,}$`), 9, nil},
	{"slack", regexp.MustCompile(`^xox[abposre][.-][A-Za-z0-9.-]{10,}$`), 5, nil},
	{"slack-app", regexp.MustCompile(`^xapp-\d-[A-Za-z0-9-]{10,}$`), 7, nil},
	{"slack-webhook", regexp.MustCompile(`^T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}$`), 0, nil},
	{"aws-key-id", regexp.MustCompile(`^(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}$`), 4, nil},
	{"anthropic", regexp.MustCompile(`^sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_-]{32,}$`), 14, nil},
	{"openai", regexp.MustCompile(`^sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}T3BlbkFJ[A-Za-z0-9_-]{16,}$`), 3, nil},
	{"openai", regexp.MustCompile(`^sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}$`), 8, nil},
	{"google-api", regexp.MustCompile(`^AIza[A-Za-z0-9_-]{35}$`), 4, nil},
	{"google-oauth", regexp.MustCompile(`^ya29\.[A-Za-z0-9_-]{20,}$`), 5, nil},
	{"google-oauth-secret", regexp.MustCompile(`^GOCSPX-[A-Za-z0-9_-]{28}$`), 7, nil},
	{"stripe", regexp.MustCompile(`^[rs]k_(?:live|test)_[A-Za-z0-9]{10,}$`), 8, nil},
	{"stripe-webhook", regexp.MustCompile(`^whsec_[A-Za-z0-9]{20,}$`), 6, nil},
	{"sendgrid", regexp.MustCompile(`^SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}$`), 3, nil},
	{"shopify", regexp.MustCompile(`^shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}$`), 6, nil},
	{"huggingface", regexp.MustCompile(`^hf_[A-Za-z0-9]{30,}$`), 3, nil},
	{"pypi", regexp.MustCompile(`^pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}$`), 20, nil},
	{"digitalocean", regexp.MustCompile(`^do[por]_v1_[a-f0-9]{64}$`), 7, nil},
	{"vault", regexp.MustCompile(`^hv[sbr]\.[A-Za-z0-9_-]{20,}$`), 4, nil},
	{"dockerhub", regexp.MustCompile(`^dckr_pat_[A-Za-z0-9_-]{20,}$`), 9, nil},
	{"linear", regexp.MustCompile(`^lin_api_[A-Za-z0-9]{40}$`), 8, nil},
	{"age", regexp.MustCompile(`^AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}$`), 16, bech32Check},
	{"1password", regexp.MustCompile(`^ops_eyJ[A-Za-z0-9+/=_-]{40,}$`), 4, nil},
	{"azure-ad", regexp.MustCompile(`^[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}$`), 0, nil},
	{"telegram", regexp.MustCompile(`^\d{5,16}:A[A-Za-z0-9_-]{34}$`), 0, nil},
	{"sentry", regexp.MustCompile(`^(?:sntrys_eyJ[A-Za-z0-9+/=_-]{40,}|sntryu_[a-f0-9]{64})$`), 7, nil},
	{"grafana", regexp.MustCompile(`^(?:glc_eyJ[A-Za-z0-9+/=_-]{30,}|glsa_[A-Za-z0-9]{32}_[a-f0-9]{8})$`), 4, nil},
	{"newrelic", regexp.MustCompile(`^NR(?:AK|II|JS)-[A-Za-z0-9]{20,}$`), 5, nil},
	{"mailgun", regexp.MustCompile(`^key-[a-f0-9]{32}$`), 4, nil},
	{"databricks", regexp.MustCompile(`^dapi[a-f0-9]{32}(?:-\d)?$`), 4, nil},
	{"doppler", regexp.MustCompile(`^dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}$`), 6, nil},
	{"pulumi", regexp.MustCompile(`^pul-[a-f0-9]{40}$`), 4, nil},
	{"postman", regexp.MustCompile(`^PMAK-[a-f0-9]{24}-[a-f0-9]{34}$`), 5, nil},
	{"planetscale", regexp.MustCompile(`^pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}$`), 11, nil},
	{"groq", regexp.MustCompile(`^gsk_[A-Za-z0-9]{48,}$`), 4, nil},
	{"xai", regexp.MustCompile(`^xai-[A-Za-z0-9]{70,}$`), 4, nil},
	{"perplexity", regexp.MustCompile(`^pplx-[A-Za-z0-9]{40,}$`), 5, nil},
	{"openrouter", regexp.MustCompile(`^sk-or-v1-[a-f0-9]{64}$`), 9, nil},
	{"replicate", regexp.MustCompile(`^r8_[A-Za-z0-9]{37}$`), 3, nil},
	{"tailscale", regexp.MustCompile(`^tskey-[a-z]+-[A-Za-z0-9]+-[A-Za-z0-9]{10,}$`), 6, nil},
	{"square", regexp.MustCompile(`^(?:EAAA[A-Za-z0-9_-]{60}|sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43})$`), 4, nil},
	{"facebook", regexp.MustCompile(`^EAA[A-Za-z0-9]{60,}$`), 3, nil},
	{"atlassian", regexp.MustCompile(`^ATATT3[A-Za-z0-9_=-]{100,}$`), 6, nil},
	{"supabase", regexp.MustCompile(`^sbp_[a-f0-9]{40}$`), 4, nil},
}

// vendorToken judges span as a vendor token: matched reports that some
// format fits, shaped that its body is not a placeholder.
func vendorToken(s string) (matched, shaped, fake bool, why string) {
	for _, v := range vendors {
		if !v.re.MatchString(s) {
			continue
		}
		body := s[min(v.prefix, len(s)):]
		if p := placeholderBody(body); p != "" {
			return true, false, false, v.name + " format, placeholder body (" + p + ")"
		}
		if v.checksum != nil {
			switch v.checksum(s) {
			case 1:
				return true, true, false, v.name + " format, checksum ok"
			case -1:
				return true, true, true, v.name + " format, random body, checksum fails"
			}
		}
		return true, true, false, v.name + " format, random body"
	}
	return false, false, false, ""
}

// placeholderBody names why a token body is a placeholder, or returns "".
func placeholderBody(body string) string {
	lb := strings.ToLower(body)
	for _, w := range []string{"example", "sample", "dummy", "fake", "placeholder", "your", "redacted",
		"replace", "insert", "invalid", "notreal", "xxxx", "****", "...", "0000", "1234", "abcd", "test",
		"here", "token", "string", "random", "secret"} {
		if strings.Contains(lb, w) {
			return "contains " + w
		}
	}
	if run := longestRun(body); run >= 5 {
		return "a run of one character"
	}
	// a random body of 16 characters from 36 has about 3.5 bits/char, of
	// 40 from 62 about 4.8: the floor is lower for short bodies
	floor := 3.0
	if len(body) < 24 {
		floor = 2.5
	}
	if len(body) >= 12 && entropy(body) < floor {
		return fmt.Sprintf("entropy under %.1f bits/char", floor)
	}
	// words in camelCase or snake_case; an upper-case-only alphabet (AWS)
	// makes pronounceable runs by chance, so only bodies with lower case
	if strings.ToUpper(body) != body && wordy(body) {
		return "words"
	}
	return ""
}

var base62Alphabets = []string{
	"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
	"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
}

// base62CRC checks a GitHub or npm token: the last 6 characters are the
// CRC32 (IEEE) of the 30 before them, in base62. Both digit orders seen in
// the wild are accepted.
func base62CRC(tok string) int {
	if len(tok) < 36 {
		return 0
	}
	body, sum := tok[len(tok)-36:len(tok)-6], tok[len(tok)-6:]
	want := uint64(crc32.ChecksumIEEE([]byte(body)))
	for _, alpha := range base62Alphabets {
		var n uint64
		ok := true
		for i := 0; i < len(sum); i++ {
			d := strings.IndexByte(alpha, sum[i])
			if d < 0 {
				ok = false
				break
			}
			n = n*62 + uint64(d)
		}
		if ok && n == want {
			return 1
		}
	}
	return -1
}

// base62Encode is base62CRC's inverse, for tests and fixtures.
func base62Encode(n uint64) string {
	alpha := base62Alphabets[0]
	b := []byte("000000")
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = alpha[n%62]
		n /= 62
	}
	return string(b)
}

const bech32Charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

// bech32Check verifies an age secret key's bech32 checksum.
func bech32Check(tok string) int {
	s := strings.ToLower(tok)
	i := strings.LastIndexByte(s, '1')
	if i < 1 || len(s)-i < 7 {
		return -1
	}
	values := bech32Values(s[:i])
	for _, c := range s[i+1:] {
		d := strings.IndexRune(bech32Charset, c)
		if d < 0 {
			return -1
		}
		values = append(values, d)
	}
	if bech32Polymod(values) == 1 {
		return 1
	}
	return -1
}

// bech32Values expands the human-readable part as BIP 173 does.
func bech32Values(hrp string) []int {
	values := make([]int, 0, len(hrp)*2+1+64)
	for _, c := range hrp {
		values = append(values, int(c)>>5)
	}
	values = append(values, 0)
	for _, c := range hrp {
		values = append(values, int(c)&31)
	}
	return values
}

func bech32Polymod(values []int) int {
	gen := [5]int{0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3}
	chk := 1
	for _, v := range values {
		top := chk >> 25
		chk = (chk&0x1ffffff)<<5 ^ v
		for j := range gen {
			if (top>>j)&1 == 1 {
				chk ^= gen[j]
			}
		}
	}
	return chk
}

// ---- key material, JWTs, Secret data, cookies ----

var jwtRE = regexp.MustCompile(`eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`)

func jwtHeaderOK(tok string) bool {
	head, _, _ := strings.Cut(tok, ".")
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	if err != nil {
		return false
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m["alg"]
	return ok
}

var escapes = strings.NewReplacer(`\\n`, "", `\n`, "", `\r`, "", `\\r`, "", `"`, "", `'`, "", " ", "", "\t", "", ",", "")

// keyMaterial judges a private-key span: a PEM body line, a one-line key
// between header and footer, or base64 of a whole PEM block.
func keyMaterial(s string) (bool, bool, string) {
	if strings.HasPrefix(s, "LS0tLS1CRUdJTi") {
		b, err := base64.StdEncoding.DecodeString(padB64(strings.TrimRight(s, "=")))
		if err == nil && bytes.Contains(b, []byte("PRIVATE KEY")) {
			return true, false, "base64 of a PEM private key"
		}
		return false, false, "base64 PEM that does not decode to a private key"
	}
	body := escapes.Replace(s)
	if p := placeholderBody(body); p != "" && !isB64(body) {
		return false, false, "key placeholder: " + p
	}
	if len(body) < 40 || !isB64(body) {
		return false, false, fmt.Sprintf("not key material (%d base64 bytes)", len(body))
	}
	if e := entropy(body); e < 4.0 {
		return false, false, fmt.Sprintf("base64 of entropy %.1f", e)
	}
	return true, false, "base64 key material"
}

func isB64(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			return false
		}
	}
	return s != ""
}

func padB64(s string) string {
	for len(s)%4 != 0 {
		s += "="
	}
	return s
}

// secretData judges a Kubernetes data: value: base64 that decodes to text
// is judged as that text; to binary, by its length and entropy.
func secretData(s string) (bool, bool, string) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return genericValue(s)
	}
	if utf8.Valid(b) && printable(b) {
		ok, fk, why := genericValue(string(b))
		return ok, fk, "decodes to text: " + why
	}
	if len(b) >= 16 && entropy(s) >= 4.0 {
		return true, false, fmt.Sprintf("decodes to %d random bytes", len(b))
	}
	return false, false, fmt.Sprintf("decodes to %d bytes of low entropy", len(b))
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return true
}

// cookieValues judges each name=value of a cookie list; one
// credential-shaped value makes the hit true.
func cookieValues(s string) (bool, bool, string) {
	first := ""
	for _, part := range strings.Split(s, ";") {
		name, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			continue
		}
		if analyticsCookie(name) {
			if first == "" {
				first = "analytics cookie " + name
			}
			continue
		}
		if sh, fk, why := genericValue(v); sh {
			return true, fk, "cookie value: " + why
		} else if first == "" {
			first = why
		}
	}
	if first == "" {
		first = "no name=value pair"
	}
	return false, false, "cookie: " + first
}

// analyticsCookie: tracking cookies carry visitor ids and timestamps,
// which nobody logs in with.
func analyticsCookie(name string) bool {
	for _, p := range []string{"__utm", "_ga", "_gid", "_gat", "_fbp", "_hj", "__qca", "_pk_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// ---- (b) values ----

var (
	urlRE        = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*://`)
	escapeRE     = regexp.MustCompile(`\\+(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|[nrt0"'])`)
	identChainRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|->|::)[A-Za-z_$][A-Za-z0-9_$]*)+$`)
	templateRE   = regexp.MustCompile(`\$\{|\{\{|\$\(|%[sdvqx]|%\(|#\{|<%|\$[A-Za-z_]`)
	placeholders = []string{"xxx", "***", "...", "your", "example", "sample", "dummy", "fake", "placeholder",
		"changeme", "change_me", "change-me", "redacted", "replace", "insert", "todo", "foobar", "notreal",
		"secret_here", "password", "<", ">", "•",
		// sequences: a random value rarely holds one
		"0123", "1234", "2345", "3456", "4567", "5678", "6789", "abcdef"}
)

// genericValue judges a value by rule (b).
func genericValue(raw string) (bool, bool, string) {
	// escapes (\n, \x00, \u0041) are how the text was quoted, not what it
	// holds
	v := strings.Trim(escapeRE.ReplaceAllString(raw, " "), "\"'`\\ \t,;")
	lv := strings.ToLower(v)
	if ok, sh, fk, why := vendorToken(v); ok {
		return sh, fk, why
	}
	switch {
	case len(v) < 12:
		return false, false, fmt.Sprintf("short (%d)", len(v))
	case templateRE.MatchString(v):
		return false, false, "template or variable reference"
	case strings.ContainsAny(v, "()[]") || strings.Contains(v, "=>") || strings.IndexAny(v, "*&!") == 0:
		return false, false, "code expression"
	case strings.ContainsAny(v, "{}"):
		return false, false, "template or structure ({...})"
	}
	if f := strings.Fields(v); len(f) > 1 {
		return fieldsValue(f)
	}
	for _, p := range placeholders {
		if strings.Contains(lv, p) {
			return false, false, "placeholder (" + p + ")"
		}
	}
	if urlRE.MatchString(v) {
		return urlValue(v)
	}
	if text, ok := base64Text(v); ok {
		// user:password, as in Basic auth and .npmrc's _auth
		if _, pass, found := strings.Cut(text, ":"); found {
			text = pass
		}
		sh, fk, why := genericValue(text)
		return sh, fk, "base64 of text: " + why
	}
	if why := notSecretText(v); why != "" {
		return false, false, why
	}
	e := entropy(v)
	if e < 3.5 {
		return false, false, fmt.Sprintf("entropy %.2f", e)
	}
	if c := classes(v); c < 2 {
		return false, false, "one character class"
	}
	return true, false, fmt.Sprintf("high entropy %.2f, %d classes", e, classes(v))
}

// fieldsValue judges a value with spaces (prose, a scheme and a token) by
// its words: one credential-shaped word makes it true.
func fieldsValue(fields []string) (bool, bool, string) {
	for _, f := range fields {
		if sh, fk, why := genericValue(f); sh {
			return true, fk, "a word of several: " + why
		}
	}
	return false, false, fmt.Sprintf("%d words, none credential-shaped", len(fields))
}

// base64Text decodes v when it is base64 (standard or URL alphabet) of
// printable text: then the text is what was written, not v.
func base64Text(v string) (string, bool) {
	if len(v) < 12 || !isB64(strings.NewReplacer("-", "+", "_", "/").Replace(v)) {
		return "", false
	}
	raw := strings.TrimRight(v, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(raw)
		if err == nil && len(b) > 0 && utf8.Valid(b) && printable(b) {
			return string(b), true
		}
	}
	return "", false
}

// notSecretText names why v reads as code, a path or words, or returns "".
func notSecretText(v string) string {
	switch {
	case identChainRE.MatchString(v) && allWordy(strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' || r == '>' || r == ':' })):
		return "code reference"
	case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "~/"):
		return "path"
	case strings.Contains(v, "/") && allWordy(strings.Split(v, "/")):
		return "path"
	case strings.Contains(v, "@") && strings.Contains(v[strings.IndexByte(v, '@'):], "."):
		if wordy(strings.ReplaceAll(v, "@", ".")) {
			return "e-mail address"
		}
	case wordy(v):
		return "word sequence"
	case path.Ext(v) != "" && len(path.Ext(v)) <= 6 && wordy(strings.TrimSuffix(v, path.Ext(v))):
		return "file name"
	}
	return ""
}

// urlValue: a URL is false unless it carries a password.
func urlValue(v string) (bool, bool, string) {
	rest := v[strings.Index(v, "://")+3:]
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return false, false, "URL without credentials"
	}
	_, pass, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return false, false, "URL with a user and no password"
	}
	sh, fk, why := genericValue(pass)
	return sh, fk, "URL password: " + why
}

func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var n [256]int
	for i := 0; i < len(s); i++ {
		n[s[i]]++
	}
	h := 0.0
	for _, c := range n {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

func classes(s string) int {
	var lower, upper, digit int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower = 1
		case c >= 'A' && c <= 'Z':
			upper = 1
		case c >= '0' && c <= '9':
			digit = 1
		}
	}
	return lower + upper + digit
}

func longestRun(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i] == s[i-1] {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}

// ---- words ----

// wordRuns splits s into runs of letters at non-letters and at case
// changes (camelCase, HTTPServer) and returns them with the number of runs
// of digits seen.
func wordRuns(s string) (runs []string, digitRuns int) {
	start := -1
	flush := func(i int) {
		if start >= 0 && i > start {
			runs = append(runs, s[start:i])
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		isUp, isLow := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z'
		if !isUp && !isLow {
			if c >= '0' && c <= '9' && (i == 0 || s[i-1] < '0' || s[i-1] > '9') {
				digitRuns++
			}
			flush(i)
			continue
		}
		if start >= 0 && i > start {
			p := s[i-1]
			pUp := p >= 'A' && p <= 'Z'
			nextLow := i+1 < len(s) && s[i+1] >= 'a' && s[i+1] <= 'z'
			if (isUp && !pUp) || (isUp && pUp && nextLow) {
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return runs, digitRuns
}

// wordRun: a run that reads as a word or a common abbreviation.
func wordRun(r string) bool {
	if len(r) <= 1 {
		return strings.ContainsAny(r, "aAiIoO")
	}
	vowels, cons, maxCons := 0, 0, 0
	for i := 0; i < len(r); i++ {
		if strings.IndexByte("aeiouyAEIOUY", r[i]) >= 0 {
			vowels++
			cons = 0
		} else {
			cons++
			maxCons = max(maxCons, cons)
		}
	}
	if len(r) <= 3 || len(r) == 4 && strings.ToUpper(r) == r {
		return true // an abbreviation: ID, URL, HTTP
	}
	return vowels > 0 && vowels >= len(r)/6 && maxCons <= 4
}

// wordy: s is a sequence of words (identifiers, prose, kebab-case), with
// at most two numbers (a version, a year) among them. Capitals of up to six
// letters (RSAPSS, OAUTH) pass as abbreviations among two or more longer
// words: a random string has no such words.
func wordy(s string) bool {
	runs, digitRuns := wordRuns(s)
	letters, wordLetters, singles, long, longLetters := 0, 0, 0, 0, 0
	for _, r := range runs {
		if len(r) >= 4 && wordRun(r) {
			longLetters += len(r)
			if strings.ToUpper(r) != r {
				long++
			}
		}
	}
	for _, r := range runs {
		letters += len(r)
		if len(r) == 1 {
			singles++
		}
		if wordRun(r) || long >= 2 && len(r) <= 6 && strings.ToUpper(r) == r {
			wordLetters += len(r)
		}
	}
	if letters == 0 || digitRuns > 2 || singles > 1+len(runs)/4 {
		return false
	}
	// Random mixed case breaks into runs of two or three letters, which
	// pass as abbreviations one by one: words of four letters or more must
	// carry half the letters.
	return float64(wordLetters) >= 0.85*float64(letters) && (letters <= 3 || 2*longLetters >= letters)
}

func allWordy(parts []string) bool {
	n := 0
	for _, p := range parts {
		if p == "" {
			continue
		}
		n++
		if len(p) > 3 && !wordy(p) {
			return false
		}
	}
	return n > 0
}

// ---- context ----

var testSegments = []string{"test", "fixture", "example", "sample", "mock", "fake", "demo", "spec"}

// testPath reports a path of a test, an example, a fixture or documentation.
func testPath(p string) bool {
	lp := strings.ToLower(p)
	switch path.Ext(lp) {
	case ".md", ".rst", ".txt", ".markdown", ".adoc", ".html", ".htm":
		return true
	}
	for _, seg := range strings.Split(lp, "/") {
		if seg == "doc" || seg == "docs" || seg == "man" || strings.HasPrefix(seg, "readme") {
			return true
		}
		for _, t := range testSegments {
			if strings.Contains(seg, t) {
				return true
			}
		}
	}
	return false
}
