package redact

import (
	"bytes"
	"encoding/base64"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Differential tests of the hand-written matchers. Every matcher that is a
// byte-loop translation of a regular expression is compared here with Go's
// regexp compiled from that expression, on fuzz input and on near-shape
// input built from real-shaped examples. The expressions live in diffRows
// only; TestDiffPatternsInComments checks that the matcher's comment (the
// function's doc comment, or for a token shape the comment above its entry
// in rules.go) holds the same text, so the two cannot drift.
//
// What the regexp cannot say, a row says in fields, and these are the only
// places where the matchers and their expressions differ by design:
//
//   - lb: RE2 has no lookbehind. The byte before a match must not be in lb
//     (the rule table's LB, [A-Za-z0-9_], unless the row says otherwise).
//     The table's LB also passes a match after an escaped separator that
//     ends in a word byte (%20, %253D, \n, \u0022: escapedSepRE).
//   - rb: a lookahead, written into the expression as a consumed
//     (?:[^rb]|$) after the span; the span ends before it.
//   - pick: which submatch is the secret span, and the validation that is
//     not a shape (placeholders, minimum value length, AWS's EXAMPLE keys,
//     the decoded "PRIVATE KEY" of base64 PEM, a blank PEM body). pick
//     reports false to reject the match.
//   - Search order: a span of a rule hides later matches of that rule that
//     start inside it, and a rejected match does not: the search goes on at
//     the next byte. That is how the engine tries literal hits (the cover of
//     engine.analyze); FindAll would resume after a rejected match instead.
//   - A candidate span touching a well-formed [REDACTED:...] marker is
//     dropped (dropMarkerOverlaps), so redacting rac's output again changes
//     nothing.
//
// Matchers not covered here have no regular expression to translate:
// matchAssignment (name classification by IsSecretName and value
// validation), matchKubeData (YAML/JSON block state), matchEnvLiteral
// (exact literals) and matchExtra (it runs a team's regexp itself).
type diffRow struct {
	name string // test name
	// lit picks the rule: one of its shape prefixes or literals.
	lit string
	// id picks among the rules that share lit (sk-); empty when one has it.
	id string
	// fn names the matcher function whose doc comment holds pattern; empty
	// for a token shape, whose comment sits above its entry in rules.go.
	fn      string
	pattern string
	lb      string // byteSet spec; "-" for no left boundary
	rb      string // byteSet spec; "" for none
	pick    func(m []byte, loc []int) (int, int, bool)
	example func(rng *rand.Rand) string
}

const (
	lbWord   = "A-Za-z0-9_"
	alnum62  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	tokenAlp = alnum62 + "_-"
	upper36  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexLower = "0123456789abcdef"
)

func rs(rng *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}

// The prefixes below are split ("gh"+"p_") so the source holds no
// token-shaped text, as everywhere in the project.
var diffRows = []diffRow{
	// Token shapes (matchShape over the table in rules.go).
	{name: "github", lit: "ghp_", pattern: `gh[pousr]_[A-Za-z0-9_.-]{35,}[A-Za-z0-9_]`,
		example: func(rng *rand.Rand) string {
			if rng.IntN(3) == 0 { // the stateless ghs_<appid>_<JWT> form
				return "gh" + "s_" + "12345_" + "ey" + "J" + rs(rng, tokenAlp, 30) + ".ey" + "J" + rs(rng, tokenAlp, 60) + "." + rs(rng, tokenAlp, 43)
			}
			return "gh" + string("pousr"[rng.IntN(5)]) + "_" + rs(rng, alnum62, 36)
		}},
	{name: "github-pat", lit: "github_pat_", pattern: `github_pat_[A-Za-z0-9_]{82,}`,
		example: func(rng *rand.Rand) string {
			return "github" + "_pat_" + rs(rng, alnum62, 22) + "_" + rs(rng, alnum62, 59)
		}},
	{name: "gitlab", lit: "glpat-", pattern: `gl(?:pat|oas|dt|rt|cbt|ptt|ft|imt|agent|soat|ffct)-[A-Za-z0-9_.-]{19,}[A-Za-z0-9_]`,
		example: func(rng *rand.Rand) string {
			kinds := []string{"pat", "oas", "dt", "rt", "cbt", "ptt", "ft", "imt", "agent", "soat", "ffct"}
			s := "gl" + kinds[rng.IntN(len(kinds))] + "-" + rs(rng, tokenAlp, 20)
			if rng.IntN(2) == 0 {
				s += ".01." + rs(rng, alnum62, 9) // routable
			}
			return s
		}},
	{name: "gitlab-runner", lit: "GR1348941", pattern: `GR1348941[A-Za-z0-9_-]{19,}[A-Za-z0-9_]`,
		example: func(rng *rand.Rand) string { return "GR134" + "8941" + rs(rng, tokenAlp, 20) }},
	{name: "slack", lit: "xoxb-", pattern: `xox(?:[bparso]-|e[.-])[A-Za-z0-9.-]{9,}[A-Za-z0-9]`,
		example: func(rng *rand.Rand) string {
			return "xo" + "x" + string("bparsoe"[rng.IntN(7)]) + "-" + rs(rng, "0123456789", 12) + "-" + rs(rng, alnum62, 24)
		}},
	{name: "aws", lit: "AKIA", pattern: `((?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})`, rb: lbWord, pick: notAWSExample,
		example: func(rng *rand.Rand) string {
			return []string{"AK", "AS", "AB", "AC"}[rng.IntN(4)] + []string{"IA", "IA", "IA", "CA"}[rng.IntN(4)] + rs(rng, upper36, 16)
		}},
	{name: "aws-a3t", lit: "A3T", pattern: `(A3T[A-Z0-9]{17})`, rb: lbWord, pick: notAWSExample,
		example: func(rng *rand.Rand) string { return "A3" + "T" + rs(rng, upper36, 17) }},
	{name: "google-api", lit: "AIza", pattern: `AIza[A-Za-z0-9_-]{35,}`,
		example: func(rng *rand.Rand) string { return "AI" + "za" + rs(rng, tokenAlp, 35) }},
	{name: "google-oauth", lit: "ya29.", pattern: `ya29\.[A-Za-z0-9_-]{20,}`,
		example: func(rng *rand.Rand) string { return "ya" + "29." + rs(rng, tokenAlp, 20+rng.IntN(150)) }},
	{name: "stripe", lit: "sk_live_", pattern: `[rs]k_(?:live|test)_[A-Za-z0-9]{10,}`,
		example: func(rng *rand.Rand) string {
			return string("rs"[rng.IntN(2)]) + "k_" + []string{"live", "test"}[rng.IntN(2)] + "_" + rs(rng, alnum62, 24)
		}},
	{name: "stripe-webhook", lit: "whsec_", pattern: `whsec_[A-Za-z0-9]{32,}`,
		example: func(rng *rand.Rand) string { return "whs" + "ec_" + rs(rng, alnum62, 32) }},
	{name: "npm", lit: "npm_", pattern: `(npm_[A-Za-z0-9]{36})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "np" + "m_" + rs(rng, alnum62, 36) }},
	{name: "huggingface", lit: "hf_", pattern: `(hf_[A-Za-z]{34})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "h" + "f_" + rs(rng, alnum62[:52], 34) }},
	{name: "pypi", lit: "pypi-AgEIcHlwaS5vcmc", pattern: `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`,
		example: func(rng *rand.Rand) string { return "pypi-" + "AgEIcHlwaS5vcmc" + rs(rng, tokenAlp, 70) }},
	{name: "digitalocean", lit: "dop_v1_", pattern: `(do[por]_v1_[a-f0-9]{64})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "do" + string("por"[rng.IntN(3)]) + "_v1_" + rs(rng, hexLower, 64) }},
	{name: "vault", lit: "hvs.", pattern: `hv[sb]\.[A-Za-z0-9_-]{24,}`,
		example: func(rng *rand.Rand) string {
			return "hv" + string("sb"[rng.IntN(2)]) + "." + rs(rng, tokenAlp, 24+rng.IntN(80))
		}},
	{name: "dockerhub", lit: "dckr_pat_", pattern: `dckr_pat_[A-Za-z0-9_-]{27,}`,
		example: func(rng *rand.Rand) string { return "dckr" + "_pat_" + rs(rng, tokenAlp, 27) }},
	{name: "linear", lit: "lin_api_", pattern: `(lin_api_[A-Za-z0-9]{40})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "lin" + "_api_" + rs(rng, alnum62, 40) }},
	{name: "age", lit: "AGE-SECRET-KEY-1", pattern: `(AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})`, rb: lbWord,
		example: func(rng *rand.Rand) string {
			return "AGE-SECRET" + "-KEY-1" + rs(rng, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
		}},
	{name: "shopify", lit: "shpat_", pattern: `(shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32})`, rb: lbWord,
		example: func(rng *rand.Rand) string {
			return "shp" + []string{"at", "ss", "ca", "pa"}[rng.IntN(4)] + "_" + rs(rng, hexLower+"ABCDEF", 32)
		}},

	{name: "groq", lit: "gsk_", pattern: `(gsk_[A-Za-z0-9]{52})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "gs" + "k_" + rs(rng, alnum62, 52) }},
	{name: "replicate", lit: "r8_", pattern: `(r8_[A-Za-z0-9]{37})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "r" + "8_" + rs(rng, alnum62, 37) }},
	{name: "xai", lit: "xai-", pattern: `(xai-[A-Za-z0-9]{80})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "xa" + "i-" + rs(rng, alnum62, 80) }},
	{name: "perplexity", lit: "pplx-", pattern: `(pplx-[A-Za-z0-9]{48})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "pp" + "lx-" + rs(rng, alnum62, 48) }},
	{name: "databricks", lit: "dapi", pattern: `(dapi[a-f0-9]{32})`, rb: lbWord,
		example: func(rng *rand.Rand) string {
			return "da" + "pi" + rs(rng, hexLower, 32) + []string{"", "-2"}[rng.IntN(2)]
		}},
	{name: "postman", lit: "PMAK-", pattern: `(PMAK-[a-fA-F0-9-]{59})`, rb: lbWord + "-",
		example: func(rng *rand.Rand) string { return "PM" + "AK-" + rs(rng, hexLower, 24) + "-" + rs(rng, hexLower, 34) }},
	{name: "doppler", lit: "dp.pt.", pattern: `dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_.-]{39,}[A-Za-z0-9_]`,
		example: func(rng *rand.Rand) string {
			return "dp." + []string{"pt", "st", "sa", "ct", "scim", "audit"}[rng.IntN(6)] + "." + []string{"", "prd."}[rng.IntN(2)] + rs(rng, alnum62, 40+rng.IntN(10))
		}},
	{name: "pulumi", lit: "pul-", pattern: `(pul-[a-f0-9]{40})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "pu" + "l-" + rs(rng, hexLower, 40) }},
	{name: "grafana-sa", lit: "glsa_", pattern: `(glsa_[A-Za-z0-9_]{41})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "gl" + "sa_" + rs(rng, alnum62, 32) + "_" + rs(rng, hexLower, 8) }},
	{name: "grafana-cloud", lit: "glc_", pattern: `glc_[A-Za-z0-9+/=]{32,}`,
		example: func(rng *rand.Rand) string { return "gl" + "c_" + rs(rng, alnum62+"+/", 32+rng.IntN(60)) + "==" }},
	{name: "newrelic-user", lit: "NRAK-", pattern: `(NRAK-[A-Z0-9]{27})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "NR" + "AK-" + rs(rng, upper36, 27) }},
	{name: "newrelic-insert", lit: "NRII-", pattern: `(NRII-[A-Za-z0-9-]{32})`, rb: lbWord + "-",
		example: func(rng *rand.Rand) string { return "NR" + "II-" + rs(rng, alnum62+"-", 32) }},
	{name: "cloudflare", lit: "cfut_", pattern: `cf(?:k|ut|at)_[A-Za-z0-9]{40,}`,
		example: func(rng *rand.Rand) string {
			return "cf" + []string{"k", "ut", "at"}[rng.IntN(3)] + "_" + rs(rng, alnum62, 40) + rs(rng, hexLower, 8)
		}},
	{name: "tailscale", lit: "tskey-", pattern: `tskey-[A-Za-z0-9-]{19,}[A-Za-z0-9]`,
		example: func(rng *rand.Rand) string {
			return "ts" + "key-" + []string{"auth", "api", "client"}[rng.IntN(3)] + "-k" + rs(rng, alnum62, 11) + "CNTRL-" + rs(rng, alnum62, 30)
		}},
	{name: "1password", lit: "ops_eyJ", pattern: `ops_eyJ[A-Za-z0-9+/=_-]{100,}`,
		example: func(rng *rand.Rand) string {
			return "op" + "s_ey" + "J" + rs(rng, alnum62+"+/", 100+rng.IntN(200)) + "="
		}},
	{name: "supabase", lit: "sbp_", pattern: `(sbp_[a-f0-9]{40})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "sb" + "p_" + rs(rng, hexLower, 40) }},
	{name: "planetscale", lit: "pscale_tkn_", pattern: `pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.-]{31,}[A-Za-z0-9_=]`,
		example: func(rng *rand.Rand) string {
			return "pscale_" + []string{"tkn", "pw", "oauth"}[rng.IntN(3)] + "_" + rs(rng, tokenAlp+".=", 32+rng.IntN(32))
		}},
	{name: "atlassian", lit: "ATATT3", pattern: `ATATT3[A-Za-z0-9_=-]{180,}`,
		example: func(rng *rand.Rand) string {
			return "ATA" + "TT3" + rs(rng, tokenAlp, 178) + "=" + rs(rng, hexLower, 8)
		}},
	{name: "sentry-org", lit: "sntrys_eyJ", pattern: `sntrys_eyJ[A-Za-z0-9+/=_]{60,}`,
		example: func(rng *rand.Rand) string {
			return "sntr" + "ys_ey" + "J" + rs(rng, alnum62+"+/", 100) + "==" + "_" + rs(rng, alnum62+"+/", 43)
		}},
	{name: "sentry-user", lit: "sntryu_", pattern: `(sntryu_[a-f0-9]{64})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "sntr" + "yu_" + rs(rng, hexLower, 64) }},
	{name: "square", lit: "EAAA", pattern: `(EAAA[A-Za-z0-9_-]{60})`, rb: "A-Za-z0-9_-",
		example: func(rng *rand.Rand) string { return "EA" + "AA" + rs(rng, tokenAlp, 60) }},
	{name: "square-oauth", lit: "sq0csp-", pattern: `sq0(?:atp|csp)-[A-Za-z0-9_-]{22,}`,
		example: func(rng *rand.Rand) string {
			return "sq0" + []string{"atp", "csp"}[rng.IntN(2)] + "-" + rs(rng, tokenAlp, 22+rng.IntN(30))
		}},
	{name: "facebook", lit: "EAAC", pattern: `EAA[CGM][A-Za-z0-9]{100,}`,
		example: func(rng *rand.Rand) string {
			return "EA" + "A" + string("CGM"[rng.IntN(3)]) + rs(rng, alnum62, 100+rng.IntN(100))
		}},
	{name: "mailgun", lit: "key-", pattern: `(key-[a-f0-9]{32})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "ke" + "y-" + rs(rng, hexLower, 32) }},
	{name: "google-oauth-secret", lit: "GOCSPX-", pattern: `(GOCSPX-[A-Za-z0-9_-]{28})`, rb: "A-Za-z0-9_-",
		example: func(rng *rand.Rand) string { return "GOC" + "SPX-" + rs(rng, tokenAlp, 28) }},
	{name: "google-refresh", lit: "1//0", pattern: `1//0[A-Za-z0-9_-]{40,}`,
		example: func(rng *rand.Rand) string { return "1/" + "/0" + rs(rng, tokenAlp, 40+rng.IntN(80)) }},

	// Matchers of their own (match.go, formats*.go).
	{name: "slack-app", lit: "xapp-", fn: "matchSlackApp", pattern: `xapp-\d-[A-Za-z0-9-]{9,}[A-Za-z0-9]`,
		example: func(rng *rand.Rand) string {
			return "xa" + "pp-1-" + rs(rng, upper36, 11) + "-" + rs(rng, "0123456789", 13) + "-" + rs(rng, hexLower, 64)
		}},
	{name: "slack-webhook", lit: "hooks.slack.com/", fn: "matchSlackWebhook", lb: "-",
		pattern: `hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/]{20,})`,
		example: func(rng *rand.Rand) string {
			return "https://hooks.slack.com/" + []string{"services", "workflows", "triggers"}[rng.IntN(3)] + "/T" + rs(rng, upper36, 8) + "/B" + rs(rng, upper36, 8) + "/" + rs(rng, alnum62, 24)
		}},
	{name: "openai-key", lit: "sk-", id: "openai-key", fn: "matchOpenAIKey",
		pattern: `sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|(sk-[A-Za-z0-9]{48})(?:[^A-Za-z0-9_]|$)`,
		pick: func(m []byte, loc []int) (int, int, bool) {
			if loc[2] >= 0 {
				return loc[2], loc[3], true
			}
			return loc[0], loc[1], true
		},
		example: func(rng *rand.Rand) string {
			if rng.IntN(2) == 0 {
				return "s" + "k-" + rs(rng, alnum62, 48)
			}
			return "sk-" + []string{"proj", "svcacct", "admin"}[rng.IntN(3)] + "-" + rs(rng, tokenAlp, 40+rng.IntN(100))
		}},
	{name: "openrouter", lit: "sk-", id: "openrouter-key", fn: "matchOpenRouter", pattern: `(sk-or-v1-[a-f0-9]{64})`, rb: lbWord,
		example: func(rng *rand.Rand) string { return "sk-" + "or-v1-" + rs(rng, hexLower, 64) }},
	{name: "anthropic", lit: "sk-", id: "anthropic-key", fn: "matchAnthropic", pattern: `sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_-]{32,}`,
		example: func(rng *rand.Rand) string {
			return "sk-" + "ant-" + []string{"api03", "admin01", "oat01", "ort01", "sid01"}[rng.IntN(5)] + "-" + rs(rng, tokenAlp, 32+rng.IntN(70))
		}},
	{name: "openai-marker", lit: "t3blbkfj", fn: "matchOpenAIMarker", pattern: `sk-[A-Za-z0-9_-]{16,509}T3BlbkFJ[A-Za-z0-9_-]{16,}`,
		example: func(rng *rand.Rand) string {
			pre := []string{"", "proj-", "svcacct-", "admin-"}[rng.IntN(4)]
			return "sk-" + pre + rs(rng, tokenAlp, 16+rng.IntN(60)) + "T3Blbk" + "FJ" + rs(rng, tokenAlp, 16+rng.IntN(60))
		}},
	{name: "jwt", lit: "eyj", fn: "matchJWT", pattern: `eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`,
		example: func(rng *rand.Rand) string {
			return "ey" + "J" + rs(rng, tokenAlp, 10+rng.IntN(30)) + ".ey" + "J" + rs(rng, tokenAlp, 10+rng.IntN(60)) + "." + rs(rng, tokenAlp, rng.IntN(50))
		}},
	{name: "sendgrid", lit: "sg.", fn: "matchSendGrid", pattern: `(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})`, rb: "A-Za-z0-9_-",
		example: func(rng *rand.Rand) string { return "S" + "G." + rs(rng, tokenAlp, 22) + "." + rs(rng, tokenAlp, 43) }},
	{name: "azure", lit: "0q~", fn: "matchAzureSecret", lb: "A-Za-z0-9_~.",
		pattern: `([A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})`, rb: "A-Za-z0-9_~.-",
		example: func(rng *rand.Rand) string {
			return rs(rng, alnum62+"_~.", 3) + rs(rng, "0123456789", 1) + "Q" + "~" + rs(rng, alnum62+"_~.-", 31+rng.IntN(4))
		}},
	{name: "mailchimp", lit: "-us", fn: "matchMailchimp", pattern: `([a-f0-9]{32}-us[0-9]{1,2})`, rb: lbWord,
		example: func(rng *rand.Rand) string {
			return rs(rng, hexLower, 32) + "-u" + "s" + rs(rng, "0123456789", 1+rng.IntN(2))
		}},
	{name: "telegram", lit: ":aa", fn: "matchTelegram", lb: "-", rb: "A-Za-z0-9_-",
		pattern: `(?:^|[^A-Za-z0-9_]|/bot)([0-9]{8,10}:AA[A-Za-z0-9_-]{33})`,
		example: func(rng *rand.Rand) string {
			pre := []string{"", "https://api.telegram.org/bot", "TELEGRAM_TOKEN=", "robot"}[rng.IntN(4)]
			return pre + rs(rng, "0123456789", 8+rng.IntN(3)) + ":A" + "A" + rs(rng, tokenAlp, 33)
		}},
	{name: "azure-storage-key", lit: "\"value\"", fn: "matchStorageKeyValue", lb: "-", rb: "A-Za-z0-9+/=",
		pattern: `"(?i:value)"[ \t\r]*:[ \t\r]*(?:"|'|\\")?([A-Za-z0-9+/]{86}==)`,
		example: func(rng *rand.Rand) string {
			return []string{`"value": "`, `"value":"`, `\"value\": \"`, `"Value" : '`}[rng.IntN(4)] + rs(rng, alnum62+"+/", 86) + "==" + []string{`"`, `",`, `\"`, ""}[rng.IntN(4)]
		}},
	{name: "pem-header", lit: "-----begin", fn: "matchPEMHeader", lb: "-",
		pattern: `-----BEGIN[ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?-----(?:(.*?)-----END[ A-Z0-9_-]{0,100}?PRIVATE KEY(?: BLOCK)?-----|(?:[ \t\r]|\\+[nr]|\x1b\[[0-9;]*m)*([A-Za-z0-9+/=](?:[A-Za-z0-9+/= \t\r\\]*[A-Za-z0-9+/=\\])?))`,
		pick: func(m []byte, loc []int) (int, int, bool) {
			if loc[2] >= 0 { // a footer on the line: the body between, unless blank
				return loc[2], loc[3], len(bytes.TrimSpace(m[loc[2]:loc[3]])) > 0
			}
			return loc[4], loc[5], true
		},
		example: func(rng *rand.Rand) string {
			label := []string{"", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "}[rng.IntN(5)] + "PRIVATE" + " KEY"
			body := rs(rng, alnum62+"+/", 64)
			esc := []string{`\n`, `\\n`, `\r\n`, `\\\\n`}[rng.IntN(4)]
			switch rng.IntN(5) {
			case 0:
				return "-----BEGIN " + label + "-----"
			case 1:
				return "-----BEGIN " + label + "-----" + body
			case 2: // escaped, without a footer
				return `{"key":"-----BEGIN ` + label + `-----` + esc + body + esc + rs(rng, alnum62+"+/", 20) + `"}`
			case 3: // coloured
				return "\x1b[32m-----BEGIN " + label + "-----\x1b[0m " + body + "\x1b[0m"
			}
			return `{"key":"-----BEGIN ` + label + `-----` + esc + body + esc + rs(rng, alnum62+"+/", 20) + `==` + esc + `-----END ` + label + `-----` + esc + `"}`
		}},
	{name: "pem-base64", lit: "ls0tls1crudjti", fn: "matchPEMBase64", lb: "A-Za-z0-9+/",
		pattern: `LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}`,
		pick: func(m []byte, loc []int) (int, int, bool) {
			// The first 200 bytes, re-padded: a partial final quantum counts.
			head := strings.TrimRight(string(m[:min(loc[1], 200)]), "=")
			head += strings.Repeat("=", (4-len(head)%4)%4)
			dec, _ := base64.StdEncoding.DecodeString(head)
			return loc[0], loc[1], bytes.Contains(dec, []byte("PRIVATE KEY"))
		},
		example: func(rng *rand.Rand) string {
			label := []string{"RSA PRIVATE", "PRIVATE", "CERTIFICATE", "EC PRIVATE"}[rng.IntN(4)]
			pem := "-----BEGIN " + label + " KEY-----\n" + rs(rng, alnum62+"+/", 40+rng.IntN(100)) + "\n-----END " + label + " KEY-----\n"
			return base64.StdEncoding.EncodeToString([]byte(pem))
		}},
	{name: "auth-header", lit: "authorization", fn: "matchAuthHeader",
		pattern: `(?i:(?:proxy-)?authorization|(?:x-goog-|x-)?api-key|x-auth-token)(?:(?:"|'|\\")?[ \t\r]*:[ \t\r]*(?:"|'|\\")?(?:(?i:bearer|basic|token|bot|digest)[ \t\r]+)?|[ \t\r]+(?:"|')?(?i:bearer|basic|token|bot|digest)[ \t\r]+)([^ \t\r\n\v\f"',;\\]*)`,
		pick:    validValue(1),
		example: func(rng *rand.Rand) string {
			name := []string{"Authorization", "proxy-authorization", "X-Api-Key", "api-key", "x-goog-api-key", "X-Auth-Token"}[rng.IntN(6)]
			sep := []string{": ", ":", `": "`, `\": \"`, " : ", " ", ` "`}[rng.IntN(7)]
			scheme := []string{"", "Bearer ", "Basic ", "token ", "Bot ", "Digest "}[rng.IntN(6)]
			return name + sep + scheme + rs(rng, tokenAlp+".=/+", 4+rng.IntN(40))
		}},
	{name: "cookie-header", lit: "cookie", fn: "matchCookieHeader",
		pattern: `(?i:(?:set-)?cookie)(?:"|'|\\")?[ \t\r]*:[ \t\r]*(?:"|'|\\")?([^\r\n"']*?)[ \t\r]*(?:$|[\r\n"']|\\")`,
		pick:    validValue(1),
		example: func(rng *rand.Rand) string {
			name := []string{"Cookie", "set-cookie", "Set-Cookie", "cookie"}[rng.IntN(4)]
			sep := []string{": ", ":", `": "`, `\": \"`}[rng.IntN(4)]
			return name + sep + "session=" + rs(rng, tokenAlp, 8+rng.IntN(30)) + "; theme=dark " + []string{"", `"`, `\"`, "'"}[rng.IntN(4)]
		}},
	{name: "url-credentials", lit: "://", fn: "matchURLCredentials", lb: "-",
		pattern: `[A-Za-z][A-Za-z0-9+.-]{1,20}://([^ \t\r\n\v\f:/@"'<>]{0,256}):([^ \t\r\n\v\f/@"'<>]*(?:@[^ \t\r\n\v\f/@"'<>?#]*)*)@`,
		pick: func(m []byte, loc []int) (int, int, bool) {
			if n := loc[5] - loc[4]; n < 3 || n > 256 {
				return 0, 0, false
			}
			if pass := m[loc[4]:loc[5]]; string(pass) == "x-oauth-basic" {
				return loc[2], loc[3], loc[3]-loc[2] >= 3
			} else if isPlaceholder(pass) {
				return 0, 0, false
			}
			return loc[4], loc[5], true
		},
		example: func(rng *rand.Rand) string {
			scheme := []string{"https", "postgres", "redis", "git+ssh", "amqp"}[rng.IntN(5)]
			user := []string{"app", "", "x-access-token", rs(rng, alnum62, 40)}[rng.IntN(4)]
			pass := rs(rng, alnum62+"!$%&*", 3+rng.IntN(30))
			switch rng.IntN(5) {
			case 0:
				pass = "x-oauth-basic"
			case 1: // a raw @, and a ? or # around it
				pass = rs(rng, alnum62, 2) + "@" + rs(rng, alnum62+"?#@", 1+rng.IntN(8))
			}
			host := []string{"@db.internal:5432/app", "@db?sslmode=disable", "@db#x", "@db"}[rng.IntN(4)]
			return scheme + "://" + user + ":" + pass + host
		}},
}

func notAWSExample(m []byte, loc []int) (int, int, bool) {
	return loc[2], loc[3], !bytes.HasSuffix(m[loc[2]:loc[3]], []byte("EXAMPLE"))
}

// validValue: the header value of group g, at least 4 bytes and not a
// placeholder.
func validValue(g int) func(m []byte, loc []int) (int, int, bool) {
	return func(m []byte, loc []int) (int, int, bool) {
		s, e := loc[2*g], loc[2*g+1]
		return s, e, e-s >= 4 && !isPlaceholder(m[s:e])
	}
}

// escapedSepRE is the table's exception to LB, written independently of
// escapedSepBefore: text ending in a percent-encoded byte (once or twice
// encoded) or a backslash escape.
var escapedSepRE = regexp.MustCompile(`(?:%(?:25)?[0-9A-Fa-f]{2}|\\[ntr]|\\u[0-9A-Fa-f]{4})$`)

// compiledRow is a row with its expression compiled and its rule found.
type compiledRow struct {
	*diffRow
	re      *regexp.Regexp
	lb      *byteSet
	escapes bool // the table's LB: escapedSepRE passes too
	ri      int32
}

var diffRedactor = sync.OnceValue(func() *Redactor {
	r, err := New(Config{})
	if err != nil {
		panic(err)
	}
	return r
})

func compileRows(t testing.TB, rows []diffRow) []compiledRow {
	t.Helper()
	r := diffRedactor()
	out := make([]compiledRow, 0, len(rows))
	for i := range rows {
		row := &rows[i]
		src := row.pattern
		if row.rb != "" {
			src += `(?:[^` + row.rb + `]|$)`
		}
		re, err := regexp.Compile(src)
		require.NoError(t, err, row.name)
		cr := compiledRow{diffRow: row, re: re, ri: ruleFor(t, r, row.lit, row.id)}
		switch row.lb {
		case "-":
		case "":
			s := mkset(lbWord)
			cr.lb = &s
			cr.escapes = true
		default:
			s := mkset(row.lb)
			cr.lb = &s
		}
		out = append(out, cr)
	}
	return out
}

// ruleFor finds the rule with lit as a shape prefix or a literal (and the
// id, when given).
func ruleFor(t testing.TB, r *Redactor, lit, id string) int32 {
	t.Helper()
	for i, cr := range r.rules {
		if id != "" && cr.id != id {
			continue
		}
		if cr.shape != nil {
			for _, p := range cr.shape.prefixes {
				if p == lit {
					return int32(i)
				}
			}
			continue
		}
		for _, l := range cr.literals {
			if l == lit {
				return int32(i)
			}
		}
	}
	t.Fatalf("no rule has the literal %q", lit)
	return -1
}

// refSpans is the reference: the leftmost match of the expression at or
// after i, checked for lb and pick; a span hides matches starting inside
// it, a rejected match only itself.
func (cr *compiledRow) refSpans(line []byte) [][2]int {
	var out [][2]int
	for i := 0; i < len(line); {
		loc := cr.re.FindSubmatchIndex(line[i:])
		if loc == nil {
			break
		}
		at := i + loc[0]
		if cr.lb != nil && at > 0 && cr.lb[line[at-1]] && !(cr.escapes && escapedSepRE.Match(line[max(0, at-6):at])) {
			i = at + 1
			continue
		}
		// Re-anchor at the match start so pick sees offsets into m.
		m := line[at:]
		base := loc[0]
		for k := range loc {
			if loc[k] >= 0 {
				loc[k] -= base
			}
		}
		s, e := loc[0], loc[1]
		if len(loc) > 2 && cr.pick == nil {
			s, e = loc[2], loc[3]
		}
		ok := true
		if cr.pick != nil {
			s, e, ok = cr.pick(m, loc)
		}
		if !ok || s >= e {
			i = at + 1
			continue
		}
		out = append(out, [2]int{at + s, at + e})
		i = at + e
	}
	return dropMarked(line, out)
}

// dropMarked removes spans touching a well-formed marker, as
// dropMarkerOverlaps does.
func dropMarked(line []byte, spans [][2]int) [][2]int {
	marker := regexp.MustCompile(`\[REDACTED:[A-Za-z0-9:._-]{0,99}\]`)
	kept := spans[:0]
	for _, s := range spans {
		touch := false
		for _, m := range marker.FindAllIndex(line, -1) {
			if s[1] > m[0] && s[0] < m[1] {
				touch = true
			}
		}
		if !touch {
			kept = append(kept, s)
		}
	}
	return kept
}

// handSpans runs the engine on one line and returns the candidate spans of
// every rule, sorted by start.
func handSpans(r *Redactor, line []byte) []span {
	e := newEngine(r)
	hits := r.auto().scan(line, nil)
	var st mlState
	e.analyze(line, hits, 0, &st, false, true)
	return e.spans
}

func spansOf(spans []span, ri int32) [][2]int {
	var out [][2]int
	for _, s := range spans {
		if s.rule == ri {
			out = append(out, [2]int{s.start, s.end})
		}
	}
	return out
}

// maxDiffLine bounds the lines compared: the reference is quadratic in the
// worst case.
const maxDiffLine = 4096

func (cr *compiledRow) check(t *testing.T, line []byte) {
	t.Helper()
	line = line[:min(len(line), maxDiffLine)]
	cr.compare(t, line, handSpans(diffRedactor(), line))
}

func (cr *compiledRow) compare(t *testing.T, line []byte, hand []span) {
	t.Helper()
	want := cr.refSpans(line)
	got := spansOf(hand, cr.ri)
	if len(want) == 0 && len(got) == 0 {
		return
	}
	require.Equal(t, want, got, "%s on %q", cr.name, line)
}

// checkInput checks every line of data against every row, and for each row
// a near-shape line built from its example and mutations that data drives.
func checkInput(t *testing.T, crs []compiledRow, data []byte) {
	t.Helper()
	for _, line := range bytes.Split(data, []byte("\n")) {
		line = line[:min(len(line), maxDiffLine)]
		hand := handSpans(diffRedactor(), line)
		for i := range crs {
			crs[i].compare(t, line, hand)
		}
	}
	h := fnv.New64a()
	_, _ = h.Write(data)
	rng := rand.New(rand.NewPCG(h.Sum64(), 7))
	for i := range crs {
		crs[i].check(t, nearShape(crs[i].diffRow, rng, data))
	}
}

// nearShape assembles a line around the row's example and edits it where
// the matchers decide: boundaries, lengths, case, separators.
func nearShape(row *diffRow, rng *rand.Rand, ops []byte) []byte {
	ex := []byte(row.example(rng))
	ctx := []string{
		"", " ", "x", "_", "-", ".", "=", ":", "\"", "'", "/", "@", "&", "~", "\\", "\t", "[REDACTED:x]",
		"%20", "%3d", "%253D", "%2", `\n`, `\\n`, `\t`, `\q`, `\u0022`, `\u00`, "\x1b[0m",
	}
	var b []byte
	b = append(b, ctx[rng.IntN(len(ctx))]...)
	start := len(b)
	b = append(b, ex...)
	if rng.IntN(4) == 0 { // a second one, glued or separated
		b = append(b, ctx[rng.IntN(len(ctx))]...)
		b = append(b, row.example(rng)...)
	}
	b = append(b, ctx[rng.IntN(len(ctx))]...)
	const edits = "._-~+/=:@\"' \\\tAz09QKEXMPL"
	for i := 0; i+1 < len(ops) && i < 32; i += 2 {
		op, arg := ops[i], int(ops[i+1])
		if len(b) == 0 {
			break
		}
		at := start + arg%max(1, len(b)-start)
		if at >= len(b) {
			at = len(b) - 1
		}
		switch op % 7 {
		case 0: // delete
			b = append(b[:at], b[at+1:]...)
		case 1: // insert
			b = append(b[:at], append([]byte{edits[arg%len(edits)]}, b[at:]...)...)
		case 2: // replace
			b[at] = edits[arg%len(edits)]
		case 3: // flip case
			if isLetter(b[at]) {
				b[at] ^= 0x20
			}
		case 4: // truncate
			b = b[:at]
		case 5: // repeat a byte, to cross a length limit
			b = append(b[:at], append(bytes.Repeat(b[at:at+1], arg%8+1), b[at:]...)...)
		case 6: // raw byte
			b[at] = byte(arg)
		}
	}
	return b
}

// fuzzRows is the body of every differential fuzz target.
func fuzzRows(f *testing.F, names ...string) {
	var rows []diffRow
	for _, row := range diffRows {
		for _, n := range names {
			if row.name == n || (n == "shapes" && row.fn == "") {
				rows = append(rows, row)
			}
		}
	}
	require.NotEmpty(f, rows, names)
	crs := compileRows(f, rows)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cr := range crs {
		for range 4 {
			f.Add([]byte(cr.example(rng)))
		}
		f.Add([]byte("x" + cr.example(rng) + "\n" + cr.example(rng) + ".-"))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) { checkInput(t, crs, data) })
}

func FuzzDiffTokenShapes(f *testing.F)    { fuzzRows(f, "shapes") }
func FuzzDiffSlackApp(f *testing.F)       { fuzzRows(f, "slack-app") }
func FuzzDiffSlackWebhook(f *testing.F)   { fuzzRows(f, "slack-webhook") }
func FuzzDiffAnthropic(f *testing.F)      { fuzzRows(f, "anthropic") }
func FuzzDiffOpenAIMarker(f *testing.F)   { fuzzRows(f, "openai-marker") }
func FuzzDiffJWT(f *testing.F)            { fuzzRows(f, "jwt") }
func FuzzDiffSendGrid(f *testing.F)       { fuzzRows(f, "sendgrid") }
func FuzzDiffAzure(f *testing.F)          { fuzzRows(f, "azure") }
func FuzzDiffPEMHeader(f *testing.F)      { fuzzRows(f, "pem-header") }
func FuzzDiffPEMBase64(f *testing.F)      { fuzzRows(f, "pem-base64") }
func FuzzDiffAuthHeader(f *testing.F)     { fuzzRows(f, "auth-header") }
func FuzzDiffCookieHeader(f *testing.F)   { fuzzRows(f, "cookie-header") }
func FuzzDiffURLCredentials(f *testing.F) { fuzzRows(f, "url-credentials") }
func FuzzDiffOpenAIKey(f *testing.F)      { fuzzRows(f, "openai-key", "openrouter") }
func FuzzDiffMailchimp(f *testing.F)      { fuzzRows(f, "mailchimp") }
func FuzzDiffTelegram(f *testing.F)       { fuzzRows(f, "telegram") }

// TestDiffNearShape runs the near-shape comparison without the fuzzer, so
// every go test run checks each row on a few thousand inputs.
func TestDiffNearShape(t *testing.T) {
	crs := compileRows(t, diffRows)
	n := 3000
	if testing.Short() || raceEnabled {
		n = 300
	}
	for i := range crs {
		cr := &crs[i]
		t.Run(cr.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			for range n {
				ops := make([]byte, rng.IntN(12))
				for k := range ops {
					ops[k] = byte(rng.IntN(256))
				}
				cr.check(t, nearShape(cr.diffRow, rng, ops))
			}
		})
	}
}

// TestDiffRowsCoverMatchers: every rule of the table that is a token shape
// or has a matcher of match.go named in a row is compared, so a new shape
// or a regexp-translating matcher cannot go untested.
func TestDiffRowsCoverMatchers(t *testing.T) {
	r := diffRedactor()
	crs := compileRows(t, diffRows)
	covered := map[int32]bool{}
	for _, cr := range crs {
		covered[cr.ri] = true
	}
	// secret-flag and secret-arg read a command line with the argv grammar
	// (argv.go); argv_test.go and flagrules_test.go test them.
	notRegexp := map[string]bool{"secret-assignment": true, "k8s-secret-data": true, "secret-flag": true, "secret-arg": true}
	for i, cr := range r.rules {
		// field rules are checked against gitleaks itself (fieldrules_test.go)
		if notRegexp[cr.id] || cr.re != nil || strings.HasPrefix(cr.id, "env:") || strings.HasPrefix(cr.id, "gitleaks:") {
			continue
		}
		// PuTTY's Private-Lines: starts a line state (pemforms_test.go)
		if slices.Contains(cr.literals, "private-lines:") {
			continue
		}
		require.True(t, covered[int32(i)], "rule %d (%s) has no differential row", i, cr.id)
	}
}

// TestDiffPatternsInComments checks that each row's expression is written
// in the comment of the matcher it tests.
func TestDiffPatternsInComments(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("formats*.go")
	require.NoError(t, err)
	docs := map[string]string{}
	for _, name := range append([]string{"match.go"}, files...) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
				docs[fd.Name.Name] = fd.Doc.Text()
			}
		}
	}
	rules, err := os.ReadFile("rules.go")
	require.NoError(t, err)
	lines := strings.Split(string(rules), "\n")
	for _, row := range diffRows {
		if row.fn != "" {
			require.Contains(t, docs[row.fn], row.pattern, "doc comment of %s", row.fn)
			continue
		}
		// The comment lines above the table entry that lists the prefix.
		at := -1
		for i, l := range lines {
			if strings.Contains(l, `"`+row.lit+`"`) {
				at = i
				break
			}
		}
		require.GreaterOrEqual(t, at, 0, "rules.go lists no prefix %q", row.lit)
		for at >= 0 && !strings.Contains(lines[at], "{id:") {
			at--
		}
		var comment []string
		for k := at - 1; k >= 0 && strings.HasPrefix(strings.TrimSpace(lines[k]), "//"); k-- {
			comment = append(comment, strings.TrimPrefix(strings.TrimSpace(lines[k]), "// "))
		}
		require.Contains(t, strings.Join(comment, "\n"), row.pattern, "comment above the %q entry of rules.go", row.lit)
	}
}
