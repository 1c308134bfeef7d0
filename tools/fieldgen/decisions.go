package main

// What the generator decides by hand, each with its reason. Everything
// else follows from gitleaks' configuration and the analysis.

// native lists the gitleaks rules that rac's own rules cover, and the rac
// rule that does. They get no row of their own: the differential test
// checks that rac redacts what the gitleaks rule finds.
var native = map[string]string{
	// The same tokens, taken by rac's shapes (rules.go) as their services
	// write them.
	"age-secret-key":                   "age-secret-key",
	"anthropic-admin-api-key":          "anthropic-key",
	"anthropic-api-key":                "anthropic-key",
	"aws-access-token":                 "aws-access-key-id",
	"azure-ad-client-secret":           "azure-client-secret",
	"digitalocean-access-token":        "digitalocean-token",
	"digitalocean-pat":                 "digitalocean-token",
	"gcp-api-key":                      "google-api-key",
	"github-app-token":                 "github-token",
	"github-fine-grained-pat":          "github-token",
	"github-oauth":                     "github-token",
	"github-pat":                       "github-token",
	"github-refresh-token":             "github-token",
	"huggingface-access-token":         "huggingface-token",
	"linear-api-key":                   "linear-key",
	"openai-api-key":                   "openai-key",
	"private-key":                      "private-key",
	"pypi-upload-token":                "pypi-token",
	"shopify-access-token":             "shopify-token",
	"shopify-custom-access-token":      "shopify-token",
	"shopify-private-app-access-token": "shopify-token",
	"shopify-shared-secret":            "shopify-token",
	"slack-bot-token":                  "slack-token",
	"slack-legacy-bot-token":           "slack-token",
	"slack-user-token":                 "slack-token",
	"slack-webhook-url":                "slack-webhook",
	// rac's rules for these services are tested against its clean corpus
	// (Databricks' -N suffix is no secret); carried as well, gitleaks'
	// looser expressions would undo that where both match. The
	// differential test fails when a mapped rule leaves a line made from
	// gitleaks' expression unredacted.
	"1password-service-account-token": "1password-token",
	"databricks-api-token":            "databricks-token",
	"doppler-api-token":               "doppler-token",
	"facebook-page-access-token":      "facebook-token",
	"perplexity-api-key":              "perplexity-key",
	"planetscale-api-token":           "planetscale-token",
	"planetscale-oauth-token":         "planetscale-token",
	"postman-api-token":               "postman-key",
	"pulumi-api-token":                "pulumi-token",
	"sentry-org-token":                "sentry-token",
	"sentry-user-token":               "sentry-token",
	// Their literal s. (a legacy Vault token: s. and 24 letters or
	// digits) would be a hit at every "s." in output: on prose and source,
	// ten times the hits of every other field literal together, and a
	// quarter of the speed. rac's vault-token takes hvs. and hvb.
	"vault-batch-token":   "vault-token",
	"vault-service-token": "vault-token",
	// Its keywords (access, api, auth, key, token, ...) are in most lines
	// of output and its expression has no literal to start from: run at
	// every one of them it would cost more than the rest of redaction
	// together. secret-assignment is rac's form of the same idea.
	"generic-api-key": "secret-assignment",
	// Carried although rac has a rule for them: new-relic-* and
	// sendgrid-api-token, whose own examples write New Relic keys in lower
	// case and SendGrid keys without their two parts, which rac's
	// newrelic-key and sendgrid-key do not take; gitlab-*, whose
	// expressions may end in a - or . that rac's gitlab-token gives back,
	// and whose literals are the same, so they cost the prefilter nothing.
	// Where both match, rac's marker stays (prioField).
	//
	// Carried too, for the forms rac's rule does not take (the
	// differential test's lines made from their expressions), with their
	// keywords as gitleaks looks for them; their literals are rac's own
	// (glc_, glsa_, eaaa) or five bytes that are rare in output (r_v1_,
	// pscal, sq0at, ilgun, ilchi, teleg):
	//   - digitalocean-refresh-token, grafana-cloud-api-token,
	//     grafana-service-account-token, planetscale-password: gitleaks takes
	//     the prefix in any case (DOR_V1_, GLC_, GLSA_, PSCALE_PW_); the
	//     services issue it in lower case, which rac's shapes keep to;
	//   - mailchimp-api-key, mailgun-private-api-token: any case (KEY-,
	//     upper-case hex, -US) after the service's name and an operator;
	//     rac's mailchimp-key and mailgun-key take the bare key in lower
	//     case, as the services issue it, and a bare key in upper case would
	//     be a guess;
	//   - telegram-bot-api-token: a bot id of 5 to 16 digits and any secret
	//     after A, after "telegr" and an operator; rac's telegram-bot-token
	//     takes the bare token BotFather issues (8 to 10 digits, :AA), whose
	//     literal :AA a looser bare form would have to give up for :A;
	//   - square-access-token: EAAA and 22 to 60 bytes (rac's square-token
	//     takes EAAA and exactly 60, as Square issues them); the same
	//     literal as rac's for EAAA, gitleaks' entropy floor, and not
	//     inside base64 (notAfter).
}

// heldBack lists rules left out of the write path, and why.
var heldBack = map[string]string{
	"twilio-api-key": "its only literal is sk (SK and 32 hex digits): a hit at every sk of task, disk and ask; " +
		"on prose and source output it alone cost 2-3% of the redaction speed, more than all carried token rules together",
}

// literals replaces a rule's keywords as prefilter literals where they are
// too common to stand for it; the analysis must prove every match contains
// one of the replacements.
var literals = map[string][]string{
	// "ey" is in "key", "they" and "money"; every match has ".ey" where the
	// payload follows the header.
	"jwt": {".ey"},
	// "secret" is in a great many lines; every match has data:, which
	// rac's own Kubernetes rule looks for already.
	"kubernetes-secret-yaml": {"data:"},
	// test_ and live_ open many a test name; every match has the service
	// name lob before the key.
	"lob-api-key":     {"lob"},
	"lob-pub-api-key": {"lob"},
	// sc_ and ext_ are in much code; every key has .acc_ or .acc- in it.
	"authress-service-client-access-key": {".acc_", ".acc-"},
}

// spans lists rules whose span is not gitleaks' secret group.
var spans = map[string]string{
	// Its groups name the JWT header field the token starts with; gitleaks
	// reports the first that matched (ten bytes), which leaves the token.
	"jwt-base64": "fieldSpanWhole",
	// gitleaks' secret is user:password; rac keeps the user name, as its
	// flag rules do for curl -u in a command line.
	"curl-auth-user": "fieldSpanAfterColon",
}

// notAfter lists, for anchored rules, the bytes that may not come right
// before a match: there the match is part of a longer string gitleaks'
// \b does not see.
var notAfter = map[string]string{
	// EAAA is base64 of bytes 0x10 0 0, common in encoded binaries (x86's
	// 0f 1f 84 00 00 00 00 00 is "Dx+EAAAAAAB"): after a + or a / the rest
	// of a base64 line passes for a token, and in the Go toolchain's
	// sources it did twelve times. A Square token is never glued to one.
	"square-access-token": "+/",
}

// racLiterals are literals rac's own secret-assignment and header rules
// look for (rules.go), whose stops and hits a field literal can share.
var racLiterals = []string{
	"token", "secret", "pass", "credential", "apikey", "api_key", "api-key",
	"access_key", "private_key", "client_secret", "authorization", "cookie",
}
