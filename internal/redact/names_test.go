package redact

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestIsSecretName(t *testing.T) {
	secret := []string{
		"GH_TOKEN", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "ANTHROPIC_API_KEY", "clientSecret",
		"db.password", "DB_PASSWORD", "PGPASSWORD", "MYSQL_PWD", "SMTP_PASS", "GITLAB_PAT",
		"NPM_AUTH_TOKEN", "apiKey", "APIKey", "x-api-key", "private_key", "SIGNING_KEY",
		"SESSION_KEY", "MASTER_KEY", "ENCRYPTION_KEY", "ACCESS_KEY", "GOOGLE_CREDENTIALS",
		"credential", "PASSPHRASE", "VAULT_TOKEN", "password2", "refreshToken", "access_token",
		"AUTH", "basic_auth", "--client-secret", "SECRET",
		// KEY after or glued to a qualifier, or a service's name
		"NEW_RELIC_LICENSE_KEY", "DD_APP_KEY", "DD_API_KEY", "APP_KEY", "HMAC_KEY",
		"SEGMENT_WRITE_KEY", "AZURE_STORAGE_KEY", "FCM_SERVER_KEY", "AccountKey",
		"Ocp-Apim-Subscription-Key", "DD-APPLICATION-KEY", "licenseKey", "writeKey",
		"OPENAI_KEY", "STRIPE_KEY", "SENDGRID_KEY", "ALGOLIA_ADMIN_KEY", "MEILI_MASTER_KEY",
		"COOKIE_KEY", "SUPABASE_SERVICE_ROLE_KEY", "hmackey",
		// passwords and salts under short names
		"SSHPASS", "requirepass", "masterauth", "psk", "SIGNING_SALT", "NONCE_SALT",
		"TF_VAR_db_pass", "RABBITMQ_DEFAULT_PASS",
	}
	notSecret := []string{
		"GIT_AUTHOR_NAME", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM", "GITHUB_TOKEN_PATH",
		"API_KEY_ID", "secretName", "TOKEN_TYPE", "max_tokens", "PWD", "OLDPWD", "PATH",
		"HOME", "KUBECONFIG", "NEXT_PUBLIC_API_KEY", "PUBLIC_KEY", "KEY", "AUTH_PROVIDER",
		"PASSWORD_MIN_LENGTH", "token_count", "GIT_AUTHOR_EMAIL", "secretKeyRef", "OAUTH",
		"BACKWARD_COMPAT", "PASS", "AUTH_URL", "TOKEN_FILE", "SECRET_DIR", "", "_", "LANG",
		// key in data, not a secret's name
		"KEY_ID", "primary_key", "keyboard", "monkey", "sort_key", "cache_key",
		"foreign_key", "public_key", "key_file", "partition_key", "routing_key",
		"APP_KEY_ID", "LICENSE_KEY_PATH", "idempotency_key", "hotkey", "SALT", "pass_rate",
		"BYPASS_CACHE",
	}
	for _, n := range secret {
		require.True(t, IsSecretName(n), "%q should be secret", n)
	}
	for _, n := range notSecret {
		require.False(t, IsSecretName(n), "%q should not be secret", n)
	}
}

func TestNameSegments(t *testing.T) {
	for name, want := range map[string][]string{
		"clientSecret":          {"client", "Secret"},
		"APIKey":                {"API", "Key"},
		"AWS_SECRET_ACCESS_KEY": {"AWS", "SECRET", "ACCESS", "KEY"},
		"db.password2":          {"db", "password"},
		"x-api-key":             {"x", "api", "key"},
		"HTTPServerToken":       {"HTTP", "Server", "Token"},
	} {
		var got []string
		for _, s := range nameSegments([]byte(name), nil) {
			got = append(got, name[s[0]:s[1]])
		}
		require.Equal(t, want, got, name)
	}
}

func TestIsAssignmentName(t *testing.T) {
	require.False(t, isAssignmentName([]byte("token.go")))
	require.False(t, isAssignmentName([]byte("secret_test.go")))
	require.True(t, isAssignmentName([]byte("--password")))
	require.True(t, isAssignmentName([]byte("spring.datasource.password")))
}

// The user's extra names (redact.env_names) reach the assignment rule:
// whole names, any case, not parts of longer ones.
func TestEnvNameRules(t *testing.T) {
	require.Nil(t, envNameRules(nil))
	require.Nil(t, envNameRules([]string{"x", " "}), "names too short to prefilter")
	rules := envNameRules([]string{"ACME_SIGNON", "acme_signon", "Z"})
	require.Len(t, rules, 1)
	require.Equal(t, []string{"acme_signon"}, rules[0].literals)
	r, err := New(Config{})
	require.NoError(t, err)
	ri := int32(-1)
	for i, cr := range r.rules {
		if cr.id == "secret-assignment" {
			ri = int32(i)
			break
		}
	}
	require.GreaterOrEqual(t, ri, int32(0))
	for _, tc := range []struct {
		line string
		hs   int
		want string
	}{
		{"ACME_SIGNON=hunter2hunter2", 0, "hunter2hunter2"},
		{"  acme_signon: opensesame42", 2, "opensesame42"},
		{`{"Acme_Signon": "k9Qx2LmPzT"}`, 2, "k9Qx2LmPzT"},
		{"ACME_SIGNON_FILE=/run/secrets/x", 0, ""},
		{"MY_ACME_SIGNON=abcdefgh", 3, ""},
		{"ACME_SIGNON=${ACME_SIGNON}", 0, ""},
	} {
		e := newEngine(r)
		line := []byte(tc.line)
		rules[0].match(e, line, tc.hs, tc.hs+len("acme_signon"), ri, 0)
		var got string
		if len(e.spans) > 0 {
			got = tc.line[e.spans[0].start:e.spans[0].end]
		}
		require.Equal(t, tc.want, got, tc.line)
	}
}

// The engine's name cache gives isAssignmentName's verdict for every name,
// however names of either verdict collide in its slots and evict each
// other, in any order, with names that differ in case, in length by a byte
// and past the cached length.
func TestNameCache(t *testing.T) {
	names := []string{
		"PASS", "pass", "Pass", "DB_PASS", "SSH_AUTH_SOCK", "PWD", "pwd", "GH_TOKEN", "token.go",
		"GIT_AUTHOR_NAME", "apiKey", "APIKey", "api_key_file", "TOKEN_TYPE", "AccountKey",
		"a_very_long_variable_name_SECRET", "a_very_long_variable_name_SECRET_", "x", "--password",
		"a_very_long_variable_name_that_passes_the_cache_TOKEN", "clientSecret", "secretName",
	}
	for i := range 400 {
		// generated names, secret and not, to fill and churn every slot
		names = append(names, fmt.Sprintf("N%d_TOKEN", i), fmt.Sprintf("N%d_NAME", i))
	}
	// names of the other verdict in one slot, one a prefix of the other
	for _, base := range []string{"DB_PASS", "PASS", "GH_TOKEN", "SSH_AUTH_SOCK"} {
		for i := 0; ; i++ {
			long := fmt.Sprintf("%s_%d_NAME", base, i)
			if base == "PASS" || base == "SSH_AUTH_SOCK" {
				long = fmt.Sprintf("%s_%d_TOKEN", base, i)
			}
			if nameSlot([]byte(long)) == nameSlot([]byte(base)) {
				names = append(names, base, long, base, long)
				break
			}
		}
	}
	r, err := New(Config{})
	require.NoError(t, err)
	e := newEngine(r)
	for _, n := range names[len(names)-16:] {
		require.Equal(t, isAssignmentName([]byte(n)), e.assignmentName([]byte(n)), "in turn: %q", n)
	}
	for round := range 3 {
		for i := range names {
			n := names[(i*7+round*13)%len(names)]
			buf := []byte(n)
			require.Equal(t, isAssignmentName([]byte(n)), e.assignmentName(buf), "round %d: %q", round, n)
			require.Equal(t, n, string(buf), "the name is left as it was")
		}
	}
}

// assignSeparated gives up on a name before its value when no context can
// make it secret (contextNameCandidate): that is only right if every name
// contextName accepts in some context is a candidate.
func TestContextNameCandidate(t *testing.T) {
	names := []string{"pass", "PASS", "Pass", "pwd", "PWD", "pw", "PW", "sig", "SIG", "signature",
		"X-Amz-Signature", "x-goog-signature", "password", "passw", "pas", "sigs", "signatures", "token"}
	for _, n := range names {
		for bits := range 16 {
			ctx := assignCtx{query: bits&1 != 0, connStr: bits&2 != 0, quotedName: bits&4 != 0, equals: bits&8 != 0}
			if contextName([]byte(n), ctx) {
				require.True(t, contextNameCandidate([]byte(n)), "%q in %+v", n, ctx)
			}
		}
	}
	require.False(t, contextNameCandidate([]byte("SSH_AUTH_SOCK")))
	require.False(t, contextNameCandidate([]byte("token")))
}

// nameSlot reads a short name that a longer line holds with one load past
// its end, masked: the slot must be the one of the same bytes alone, or a
// name found in a line and the same name met alone would miss each other's
// verdict, and the cache would hold one name twice.
func TestNameSlotOfSliceInLine(t *testing.T) {
	r, err := New(Config{})
	require.NoError(t, err)
	e := newEngine(r)
	for _, name := range []string{"P", "pw", "PWD", "PASS", "token", "DB_PASS", "GH_TOKEN", "SSH_AUTH_SOCK"} {
		for _, after := range []string{"", "=", ": x", "=ghp_0123456789abcdef", "\n--- PASS: TestX (0.00s)\n"} {
			line := []byte("--- " + name + after)
			in := line[4 : 4+len(name)]
			alone := []byte(name)
			require.Equal(t, nameSlot(alone[:len(alone):len(alone)]), nameSlot(in), "%q before %q", name, after)
			require.Equal(t, isAssignmentName(alone), e.assignmentName(in), "%q before %q", name, after)
			require.Equal(t, isAssignmentName(alone), e.assignmentName(alone), "%q alone, after %q", name, after)
		}
	}
}
