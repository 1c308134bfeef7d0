package redact

// The rule table. Everything rac recognises as a secret is listed here as
// data; the matchers it names live in match.go. To add a token shape with a
// literal prefix and a body alphabet, add a shape entry: no code is needed.
//
// Literals are prefilter strings, matched on ASCII-folded input; every
// matcher verifies the original bytes itself, case-sensitively unless the rule
// is about header or variable names, which are case-insensitive in practice.

// Marker priorities: when spans of several rules overlap, the union is
// replaced and the marker names the rule with the highest priority.
const (
	prioAssignment = 10
	prioHeader     = 20
	prioKube       = 30
	prioToken      = 50
	prioPrivateKey = 60
	prioExtra      = 70
	prioEnv        = 100
)

// rule is one row of the table. Exactly one of match and shape is set.
type rule struct {
	id       string
	prio     int
	literals []string
	match    matchFunc
	shape    *tokenShape
}

// tokenShape describes the common token form: an exact, case-sensitive
// prefix, then a run of one alphabet. The whole run is consumed (so a token is
// never cut short by a length cap), trailing trim bytes are given back, and
// the run must be at least min long; with max > 0 a longer run is not this
// token at all (exact-length shapes also want rb).
type tokenShape struct {
	prefixes []string
	body     string // alphabet in byteSet syntax, e.g. "A-Za-z0-9_"
	min, max int
	trim     string // bytes that may not end a token (separators that follow it)
	lb       bool   // previous byte must not be [A-Za-z0-9_] (lbOK: an escape ends in a separator)
	rb       bool   // next byte must not be [A-Za-z0-9_]
	reject   func(tok []byte) bool
}

// The comment above each shape entry is its regular expression (RE2), which
// matchdiff_test.go checks matchShape against: LB and RB are the left and
// right boundaries ([A-Za-z0-9_] must not touch the token, except that the
// last byte of a %XX or \n-style escape before it is a separator: lbOK), a
// last class
// without '.' and '-' is what trim gives back, and a group marks the span
// when RB follows it.
//
// builtinRules returns a fresh copy of the table so a Redactor can never see
// another's modifications.
func builtinRules() []rule {
	return []rule{
		// Private keys. PEM bodies on later lines are followed by the line state
		// machine in engine.go; the header matcher starts it.
		{id: "private-key", prio: prioPrivateKey, literals: []string{"-----begin"}, match: matchPEMHeader},
		{id: "private-key", prio: prioPrivateKey, literals: []string{"ls0tls1crudjti"}, match: matchPEMBase64},

		// GitHub: classic and app tokens, including the ~520-byte stateless
		// ghs_<appid>_<JWT> form, which contains '.' and '-'.
		// LB gh[pousr]_[A-Za-z0-9_.-]{35,}[A-Za-z0-9_]
		{id: "github-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"},
			body:     "A-Za-z0-9_.-", min: 36, trim: ".-", lb: true,
		}},
		// LB github_pat_[A-Za-z0-9_]{82,}
		{id: "github-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"github_pat_"}, body: "A-Za-z0-9_", min: 82, lb: true,
		}},

		// GitLab family; routable tokens carry ".xx.yyyyyyy" suffixes.
		// LB gl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_.-]{19,}[A-Za-z0-9_]
		{id: "gitlab-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{
				"glpat-", "gloas-", "gldt-", "glrt-", "glcbt-", "glptt-", "glft-",
				"glimt-", "glagent-", "glsoat-", "glffct-",
			},
			body: "A-Za-z0-9_.-", min: 20, trim: ".-", lb: true,
		}},
		// LB GR1348941[A-Za-z0-9_-]{19,}[A-Za-z0-9_]
		{id: "gitlab-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"GR1348941"}, body: "A-Za-z0-9_-", min: 20, trim: "-", lb: true,
		}},

		// Slack.
		// LB xox(?:[bparso]-|e[.-])[A-Za-z0-9.-]{9,}[A-Za-z0-9]
		{id: "slack-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xoxe."},
			body:     "A-Za-z0-9.-", min: 10, trim: ".-", lb: true,
		}},
		{id: "slack-token", prio: prioToken, literals: []string{"xapp-"}, match: matchSlackApp},
		{id: "slack-webhook", prio: prioToken, literals: []string{"hooks.slack.com/"}, match: matchSlackWebhook},

		// AWS access key ids: exact length, upper case only, so "Asia/Tokyo"
		// and the documentation key ending in EXAMPLE stay.
		// LB ((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}) RB
		{id: "aws-access-key-id", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"AKIA", "ASIA", "ABIA", "ACCA"},
			body:     "A-Z0-9", min: 16, max: 16, lb: true, rb: true, reject: awsExample,
		}},
		// LB (A3T[A-Z0-9]{17}) RB
		{id: "aws-access-key-id", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"A3T"}, body: "A-Z0-9", min: 17, max: 17, lb: true, rb: true, reject: awsExample,
		}},

		// Anthropic: sk-ant-<kind><NN>- (api03, admin01, oat01, ort01, sid01 ...).
		{id: "anthropic-key", prio: prioToken, literals: []string{"sk-ant-"}, match: matchAnthropic},

		// OpenAI: keys carry T3BlbkFJ ("OpenAI" in base64) in the middle; project,
		// service-account and admin keys also have a recognisable prefix.
		{id: "openai-key", prio: prioToken, literals: []string{"t3blbkfj"}, match: matchOpenAIMarker},
		// LB sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}
		{id: "openai-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"sk-proj-", "sk-svcacct-", "sk-admin-"},
			body:     "A-Za-z0-9_-", min: 40, lb: true,
		}},

		// LB AIza[A-Za-z0-9_-]{35,}
		{id: "google-api-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"AIza"}, body: "A-Za-z0-9_-", min: 35, lb: true,
		}},
		// LB ya29\.[A-Za-z0-9_-]{20,}
		{id: "google-oauth-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"ya29."}, body: "A-Za-z0-9_-", min: 20, lb: true,
		}},

		// LB [rs]k_(?:live|test)_[A-Za-z0-9]{10,}
		{id: "stripe-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"},
			body:     "A-Za-z0-9", min: 10, lb: true,
		}},
		// LB whsec_[A-Za-z0-9]{32,}
		{id: "stripe-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"whsec_"}, body: "A-Za-z0-9", min: 32, lb: true,
		}},

		// npm: exact length, so npm_config_cache and friends never match.
		// LB (npm_[A-Za-z0-9]{36}) RB
		{id: "npm-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"npm_"}, body: "A-Za-z0-9", min: 36, max: 36, lb: true, rb: true,
		}},

		{id: "jwt", prio: prioToken, literals: []string{"eyj"}, match: matchJWT},

		// Optional rows of the reference table.
		// LB (hf_[A-Za-z]{34}) RB
		{id: "huggingface-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"hf_"}, body: "A-Za-z", min: 34, max: 34, lb: true, rb: true,
		}},
		// LB pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}
		{id: "pypi-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"pypi-AgEIcHlwaS5vcmc"}, body: "A-Za-z0-9_-", min: 50, lb: true,
		}},
		// LB (do[por]_v1_[a-f0-9]{64}) RB
		{id: "digitalocean-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, body: "a-f0-9", min: 64, max: 64, lb: true, rb: true,
		}},
		// LB hv[sb]\.[A-Za-z0-9_-]{24,}
		{id: "vault-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"hvs.", "hvb."}, body: "A-Za-z0-9_-", min: 24, lb: true,
		}},
		// LB dckr_pat_[A-Za-z0-9_-]{27,}
		{id: "dockerhub-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"dckr_pat_"}, body: "A-Za-z0-9_-", min: 27, lb: true,
		}},
		// LB (lin_api_[A-Za-z0-9]{40}) RB
		{id: "linear-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"lin_api_"}, body: "A-Za-z0-9", min: 40, max: 40, lb: true, rb: true,
		}},
		// LB (AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}) RB
		{id: "age-secret-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"AGE-SECRET-KEY-1"}, body: "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", min: 58, max: 58, lb: true, rb: true,
		}},
		// LB (shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}) RB
		{id: "shopify-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"shpat_", "shpss_", "shpca_", "shppa_"}, body: "a-fA-F0-9", min: 32, max: 32, lb: true, rb: true,
		}},
		{id: "sendgrid-key", prio: prioToken, literals: []string{"sg."}, match: matchSendGrid},
		{id: "azure-client-secret", prio: prioToken, literals: []string{"q~"}, match: matchAzureSecret},

		// Headers and URL credentials: the name, the scheme and the host stay.
		{id: "auth-header", prio: prioHeader, literals: []string{"authorization", "api-key", "x-auth-token"}, match: matchAuthHeader},
		{id: "cookie-header", prio: prioHeader, literals: []string{"cookie"}, match: matchCookieHeader},
		{id: "url-credentials", prio: prioHeader, literals: []string{"://"}, match: matchURLCredentials},

		// kubectl get secret -o yaml|json (see the package doc).
		{id: "k8s-secret-data", prio: prioKube, literals: []string{"data:", "data\"", "data\\\""}, match: matchKubeData},

		// NAME=VALUE, NAME: VALUE and "name": "value" with a secret-like name. The
		// literals only need to cover every keyword segment of IsSecretName.
		{id: "secret-assignment", prio: prioAssignment, literals: assignmentLiterals(), match: matchAssignment},
	}
}

func awsExample(tok []byte) bool {
	return len(tok) >= 7 && string(tok[len(tok)-7:]) == "EXAMPLE"
}

// keyQualifiers are the words that make a following "key" segment secret.
var keyQualifiers = []string{"api", "access", "private", "secret", "signing", "session", "client", "master", "encryption"}

func assignmentLiterals() []string {
	lits := []string{"token", "secret", "pass", "pwd", "credential", "auth", "_pat", "-pat", "apikey"}
	for _, q := range keyQualifiers {
		if q == "secret" {
			continue // "secret" is a literal already
		}
		for _, sep := range []string{"", "_", "-", "."} {
			lits = append(lits, q+sep+"key")
		}
	}
	return lits
}

// Name classification data, used by IsSecretName (names.go). The word sets
// are switches rather than maps: the redactor classifies a name for most
// assignments it sees, and a switch on a short string costs a few compares
// where a map lookup hashes it first (four times slower here).

// Compound segments ending in one of these are secret too (PGPASSWORD,
// GITHUBTOKEN); auth and pat are left out on purpose (oauth, compat).
var secretSuffixes = []string{"password", "passwd", "passphrase", "secret", "token"}

// isSecretSegment: a name needs one of these segments (or "key" after a
// keyQualifier).
func isSecretSegment(s []byte) bool {
	switch string(s) {
	case "token", "secret", "password", "passwd", "passphrase",
		"apikey", "credential", "credentials", "auth", "pat",
		"accesskey", "privatekey", "secretkey", "signingkey",
		"sessionkey", "clientkey", "masterkey", "encryptionkey",
		"clientsecret", "accesstoken", "authtoken", "refreshtoken":
		return true
	}
	return false
}

// isSecretLastSegment: secret only as the last of two or more segments
// (DB_PASS, MYSQL_PWD), never alone: PWD is the working directory.
func isSecretLastSegment(s []byte) bool {
	return string(s) == "pass" || string(s) == "pwd"
}

// isNonSecretLast: the variable names a thing about a secret, not the
// secret itself.
func isNonSecretLast(s []byte) bool {
	switch string(s) {
	case "name", "file", "path", "dir", "id", "url", "uri",
		"endpoint", "type", "length", "len", "size", "count",
		"ttl", "expiry", "expires", "expiration", "header",
		"field", "env", "var", "ref", "mode", "sock",
		"enabled", "disabled", "required", "min", "max",
		"version", "kind", "hash", "host", "port", "user",
		"username", "prefix", "suffix", "format", "scope",
		"scopes", "provider", "method", "timeout", "limit",
		"helper", "location", "policy", "issuer", "audience",
		"algorithm", "files", "dirs", "paths", "names",
		"ids", "urls", "types", "command", "cmd", "store",
		"cache", "index", "schema", "strategy", "config":
		return true
	}
	return false
}

// isNonSecretAny: any of these segments means the name is not about a
// secret value.
func isNonSecretAny(s []byte) bool {
	switch string(s) {
	case "public", "tokens", "tokenizer", "tokenizers",
		"author", "max", "min":
		return true
	}
	return false
}

// isFileExtension: names ending in a source-file extension are file names
// (token.go:42:7:).
func isFileExtension(s []byte) bool {
	switch string(s) {
	case "go", "py", "rs", "js", "ts", "jsx", "tsx",
		"mjs", "cjs", "c", "h", "cc", "cpp", "hpp",
		"java", "kt", "rb", "php", "cs", "swift",
		"scala", "sh", "bash", "zsh", "ps1", "yaml",
		"yml", "json", "toml", "ini", "cfg", "conf",
		"xml", "html", "css", "md", "txt", "lock",
		"sum", "mod", "proto", "sql", "tf", "lua",
		"pem", "crt", "pub", "key", "log", "test",
		"o", "a", "so", "class", "jar", "vue":
		return true
	}
	return false
}

// isPlaceholderWord reports whether a lower-cased value is a word that
// stands for a secret without being one (see isPlaceholder in match.go).
func isPlaceholderWord(low []byte) bool {
	switch string(low) {
	case "null", "none", "nil", "true", "false",
		"undefined", "changeme", "redacted", "hidden",
		"masked", "secret", "password", "token",
		"bearer", "basic", "required", "optional",
		"string", "example", "empty", "unset":
		return true
	}
	return false
}
