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
//
//nolint:funlen // a table: one entry a rule (id, priority, literals, shape, matcher), read and compared in one place
func builtinRules() []rule {
	return []rule{
		// Private keys. PEM bodies on later lines are followed by the line state
		// machine in engine.go; the header matcher starts it.
		{id: "private-key", prio: prioPrivateKey, literals: []string{"-----begin"}, match: matchPEMHeader},
		{id: "private-key", prio: prioPrivateKey, literals: []string{"ls0tls1crudjti"}, match: matchPEMBase64},
		// PuTTY keys (.ppk): the base64 lines after "Private-Lines: N"
		ppkRule(),
		// AWS SSM: the "Value" of a "Type": "SecureString" parameter
		secureStringRule(),

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

		// The sk- family shares one prefilter literal: a literal per kind
		// (sk-ant-, sk-proj-, sk-or-v1-, ...) costs the vector prefilter a
		// bucket entry each, and sk- covers them all.
		// Anthropic: sk-ant-<kind><NN>- (api03, admin01, oat01, ort01, sid01 ...).
		{id: "anthropic-key", prio: prioToken, literals: []string{"sk-"}, match: matchAnthropic},
		// OpenAI: keys carry T3BlbkFJ ("OpenAI" in base64) in the middle; project,
		// service-account and admin keys also have a recognisable prefix, and
		// OpenAI-compatible services (and OpenAI's oldest keys) use sk- and
		// exactly 48 letters and digits.
		{id: "openai-key", prio: prioToken, literals: []string{"t3blbkfj"}, match: matchOpenAIMarker},
		{id: "openai-key", prio: prioToken, literals: []string{"sk-"}, match: matchOpenAIKey},
		{id: "openrouter-key", prio: prioToken, literals: []string{"sk-"}, match: matchOpenRouter},

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
		// Other AI providers.
		// LB (gsk_[A-Za-z0-9]{52}) RB
		{id: "groq-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"gsk_"}, body: "A-Za-z0-9", min: 52, max: 52, lb: true, rb: true,
		}},
		// LB (r8_[A-Za-z0-9]{37}) RB
		{id: "replicate-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"r8_"}, body: "A-Za-z0-9", min: 37, max: 37, lb: true, rb: true,
		}},
		// LB (xai-[A-Za-z0-9]{80}) RB
		{id: "xai-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"xai-"}, body: "A-Za-z0-9", min: 80, max: 80, lb: true, rb: true,
		}},
		// LB (pplx-[A-Za-z0-9]{48}) RB
		{id: "perplexity-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"pplx-"}, body: "A-Za-z0-9", min: 48, max: 48, lb: true, rb: true,
		}},

		// Developer platforms.
		// Databricks prints a -N suffix after some tokens; it is no secret.
		// LB (dapi[a-f0-9]{32}) RB
		{id: "databricks-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"dapi"}, body: "a-f0-9", min: 32, max: 32, lb: true, rb: true,
		}},
		// PMAK-<24 hex>-<34 hex>.
		// LB (PMAK-[a-fA-F0-9-]{59}) RB
		{id: "postman-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"PMAK-"}, body: "a-fA-F0-9-", min: 59, max: 59, lb: true, rb: true,
		}},
		// Doppler service tokens carry the config's slug (dp.st.prd.xxx).
		// LB dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_.-]{39,}[A-Za-z0-9_]
		{id: "doppler-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."},
			body:     "A-Za-z0-9_.-", min: 40, trim: ".-", lb: true,
		}},
		// LB (pul-[a-f0-9]{40}) RB
		{id: "pulumi-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"pul-"}, body: "a-f0-9", min: 40, max: 40, lb: true, rb: true,
		}},
		// Grafana service accounts: glsa_<32 alnum>_<8 hex>.
		// LB (glsa_[A-Za-z0-9_]{41}) RB
		{id: "grafana-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"glsa_"}, body: "A-Za-z0-9_", min: 41, max: 41, lb: true, rb: true,
		}},
		// LB glc_[A-Za-z0-9+/=]{32,}
		{id: "grafana-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"glc_"}, body: "A-Za-z0-9+/=", min: 32, lb: true,
		}},
		// LB (NRAK-[A-Z0-9]{27}) RB
		{id: "newrelic-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"NRAK-"}, body: "A-Z0-9", min: 27, max: 27, lb: true, rb: true,
		}},
		// LB (NRII-[A-Za-z0-9-]{32}) RB
		{id: "newrelic-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"NRII-"}, body: "A-Za-z0-9-", min: 32, max: 32, lb: true, rb: true,
		}},
		// Cloudflare's scannable credentials: a kind, 40 characters and a
		// checksum.
		// LB cf(?:k|ut|at)_[A-Za-z0-9]{40,}
		{id: "cloudflare-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"cfk_", "cfut_", "cfat_"}, body: "A-Za-z0-9", min: 40, lb: true,
		}},
		// tskey-auth-<id>CNTRL-<secret>, tskey-api-, tskey-client-, ...
		// LB tskey-[A-Za-z0-9-]{19,}[A-Za-z0-9]
		{id: "tailscale-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"tskey-"}, body: "A-Za-z0-9-", min: 20, trim: "-", lb: true,
		}},
		// 1Password service accounts: ops_ and base64 JSON.
		// base64 or base64url.
		// LB ops_eyJ[A-Za-z0-9+/=_-]{100,}
		{id: "1password-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"ops_eyJ"}, body: "A-Za-z0-9+/=_-", min: 100, lb: true,
		}},
		// LB (sbp_[a-f0-9]{40}) RB
		{id: "supabase-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"sbp_"}, body: "a-f0-9", min: 40, max: 40, lb: true, rb: true,
		}},
		// LB pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{31,}[A-Za-z0-9_=]
		{id: "planetscale-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"pscale_tkn_", "pscale_pw_", "pscale_oauth_"},
			body:     "A-Za-z0-9_=.-", min: 32, trim: ".-", lb: true,
		}},
		// LB ATATT3[A-Za-z0-9_=-]{180,}
		{id: "atlassian-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"ATATT3"}, body: "A-Za-z0-9_=-", min: 180, lb: true,
		}},
		// Sentry organisation tokens: base64 JSON, '_' and the secret.
		// LB sntrys_eyJ[A-Za-z0-9+/=_]{60,}
		{id: "sentry-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"sntrys_eyJ"}, body: "A-Za-z0-9+/=_", min: 60, lb: true,
		}},
		// LB (sntryu_[a-f0-9]{64}) RB
		{id: "sentry-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"sntryu_"}, body: "a-f0-9", min: 64, max: 64, lb: true, rb: true,
		}},

		// Payments and messaging.
		// LB (EAAA[A-Za-z0-9_-]{60}) RB
		{id: "square-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"EAAA"}, body: "A-Za-z0-9_-", min: 60, max: 60, lb: true, rb: true,
		}},
		// Square's OAuth access tokens and application secrets.
		// LB sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}
		{id: "square-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"sq0atp-", "sq0csp-"}, body: "A-Za-z0-9_-", min: 22, lb: true,
		}},
		// LB EAA[CGM][A-Za-z0-9]{100,}
		{id: "facebook-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"EAAC", "EAAG", "EAAM"}, body: "A-Za-z0-9", min: 100, lb: true,
		}},
		// LB (key-[a-f0-9]{32}) RB
		{id: "mailgun-key", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"key-"}, body: "a-f0-9", min: 32, max: 32, lb: true, rb: true,
		}},
		{id: "mailchimp-key", prio: prioToken, literals: []string{"-us"}, match: matchMailchimp},
		// Telegram bot tokens, bare or in a Bot API URL (/bot<id>:<secret>/).
		{id: "telegram-bot-token", prio: prioToken, literals: []string{":aa"}, match: matchTelegram},

		// Google OAuth client secrets (client_secret.json) and refresh tokens
		// (gcloud's and client libraries' stored credentials).
		// LB (GOCSPX-[A-Za-z0-9_-]{28}) RB
		{id: "google-oauth-secret", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"GOCSPX-"}, body: "A-Za-z0-9_-", min: 28, max: 28, lb: true, rb: true,
		}},
		// LB 1//0[A-Za-z0-9_-]{40,}
		{id: "google-oauth-token", prio: prioToken, shape: &tokenShape{
			prefixes: []string{"1//0"}, body: "A-Za-z0-9_-", min: 40, lb: true,
		}},

		{id: "sendgrid-key", prio: prioToken, literals: []string{"sg."}, match: matchSendGrid},
		// The digit before Q~ is part of the literal: Q~ alone (two bytes) let
		// the vector prefilter pass a tenth of all positions.
		{id: "azure-client-secret", prio: prioToken, literals: []string{"0q~", "1q~", "2q~", "3q~", "4q~", "5q~", "6q~", "7q~", "8q~", "9q~"}, match: matchAzureSecret},

		// Headers and URL credentials: the name, the scheme and the host stay.
		{id: "auth-header", prio: prioHeader, literals: []string{"authorization", "api-key", "x-auth-token"}, match: matchAuthHeader},
		{id: "cookie-header", prio: prioHeader, literals: []string{"cookie"}, match: matchCookieHeader},
		{id: "url-credentials", prio: prioHeader, literals: []string{"://"}, match: matchURLCredentials},

		// kubectl get secret -o yaml|json (see the package doc).
		{id: "k8s-secret-data", prio: prioKube, literals: []string{"data:", "data\"", "data\\\""}, match: matchKubeData},

		// NAME=VALUE, NAME: VALUE and "name": "value" with a secret-like name. The
		// literals only need to cover every keyword segment of IsSecretName.
		{id: "secret-assignment", prio: prioAssignment, literals: assignmentLiterals(), match: matchAssignment},
		{id: "secret-assignment", prio: prioAssignment, literals: []string{"identified"}, match: matchIdentifiedBy},
		{id: "secret-assignment", prio: prioAssignment, literals: []string{":5432:", "*:*:*:"}, match: matchPgpass},
		// az storage account keys list: "value": "<88 bytes of base64>".
		{id: "azure-storage-key", prio: prioToken, literals: []string{"\"value\""}, match: matchStorageKeyValue},
	}
}

func awsExample(tok []byte) bool {
	return len(tok) >= 7 && string(tok[len(tok)-7:]) == "EXAMPLE"
}

// keyQualifiers are the words that make a following "key" segment secret
// (NEW_RELIC_LICENSE_KEY, SEGMENT_WRITE_KEY, AccountKey, HMAC_KEY). Words
// that name a key's role in data (primary, foreign, sort, cache, partition,
// routing, public) are left out on purpose.
var keyQualifiers = []string{
	"api", "access", "private", "secret", "signing", "session", "client", "master", "encryption",
	"license", "write", "app", "server", "storage", "account", "subscription", "hmac",
	"service", "admin", "deploy", "ingest", "webhook", "shared", "role", "jwt", "decryption",
	"application", "cookie",
}

// keyVendors: a service's name before KEY makes the key that service's
// secret (OPENAI_KEY, STRIPE_KEY, SENDGRID_KEY).
var keyVendors = []string{
	"openai", "anthropic", "claude", "gemini", "groq", "mistral", "cohere", "replicate",
	"perplexity", "pplx", "deepseek", "openrouter", "together", "fireworks", "xai", "grok",
	"hf", "huggingface", "pinecone", "stripe", "sendgrid", "mailgun", "mailchimp", "mandrill",
	"postmark", "resend", "brevo", "sendinblue", "twilio", "algolia", "mapbox", "sentry",
	"segment", "mixpanel", "posthog", "amplitude", "datadog", "newrelic", "honeycomb",
	"pagerduty", "launchdarkly", "pusher", "github", "gitlab", "slack", "discord", "telegram",
	"google", "firebase", "fcm", "azure", "aws", "cloudflare", "vercel", "netlify", "heroku",
	"shopify", "square", "paypal", "braintree", "plaid", "supabase", "doppler", "pulumi",
	"tailscale", "linear", "notion", "airtable",
}

// assignmentLiterals are the prefilter strings of the secret-assignment
// rule: every keyword segment of IsSecretName, "key" for every KEY after or
// glued to a qualifier (one short literal costs the prefilter less than one
// per qualifier), and the names that are secret only in a query string
// (contextName).
func assignmentLiterals() []string {
	return []string{
		"token", "secret", "pass", "pwd", "credential", "auth", "_pat", "-pat", "key",
		"sig=", "signature=", "psk=", "salt",
	}
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
		"clientsecret", "accesstoken", "authtoken", "refreshtoken",
		"sshpass",                   // sshpass reads its password from SSHPASS
		"requirepass", "masterauth", // redis.conf
		"psk": // a Wi-Fi pre-shared key
		return true
	}
	// A qualifier glued to key: accesskey, hmackey, licensekey.
	if len(s) > 3 && string(s[len(s)-3:]) == "key" {
		return isKeyQualifier(s[:len(s)-3])
	}
	return false
}

// isSecretLastSegment: secret only as the last of two or more segments
// (DB_PASS, MYSQL_PWD, SIGNING_SALT), never alone: PWD is the working
// directory, PASS a test's verdict.
func isSecretLastSegment(s []byte) bool {
	return string(s) == "pass" || string(s) == "pwd" || string(s) == "salt"
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
		"o", "a", "so", "class", "jar", "vue",
		// keys and certificates as files, and sources of other languages
		"asc", "gpg", "sig", "p12", "pfx", "jks", "der", "cer", "csr", "ppk",
		"scm", "el", "tpl", "tmpl", "j2", "erb", "patch", "diff":
		return true
	}
	return false
}

// isPlaceholderWord reports whether a lower-cased value is a word that
// stands for a secret without being one (see isPlaceholder in formats_assign.go).
func isPlaceholderWord(low []byte) bool {
	switch string(low) {
	case "null", "none", "nil", "true", "false",
		"undefined", "changeme", "redacted", "hidden",
		"masked", "secret", "password", "token",
		"bearer", "basic", "required", "optional",
		"string", "example", "empty", "unset",
		"changeit", "placeholder", "dummy", "notset",
		// changelog verbs (NEWS: gnutls_psk_derive_key: Added)
		"added", "removed", "deprecated", "changed", "fixed", "updated", "renamed",
		// type names: password: SecretStr in a model, "type": "securestring"
		"secretstr", "secretstring", "securestring", "secretbytes", "bytes", "object":
		return true
	}
	return false
}
