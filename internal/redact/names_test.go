package redact

import (
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
	}
	notSecret := []string{
		"GIT_AUTHOR_NAME", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM", "GITHUB_TOKEN_PATH",
		"API_KEY_ID", "secretName", "TOKEN_TYPE", "max_tokens", "PWD", "OLDPWD", "PATH",
		"HOME", "KUBECONFIG", "NEXT_PUBLIC_API_KEY", "PUBLIC_KEY", "KEY", "AUTH_PROVIDER",
		"PASSWORD_MIN_LENGTH", "token_count", "GIT_AUTHOR_EMAIL", "secretKeyRef", "OAUTH",
		"BACKWARD_COMPAT", "PASS", "AUTH_URL", "TOKEN_FILE", "SECRET_DIR", "", "_", "LANG",
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
