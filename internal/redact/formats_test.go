package redact

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Value extents and the shapes that stay, one line each, through the whole
// redactor. The corpus files hold the everyday forms; these are the edges
// the comment at the top of formats_assign.go promises.
func TestAssignmentValues(t *testing.T) {
	r, err := New(Config{})
	require.NoError(t, err)
	const m = "[REDACTED:secret-assignment]"
	for _, tc := range []struct{ in, want string }{
		// Whole values.
		{"config.yml:12:  password: correct horse battery staple", "config.yml:12:  password: " + m},
		{"password=k9Qx2LmP user=bob level=info", "password=" + m + " user=bob level=info"},
		{"+ TOKEN=k9Qx2LmPzT ./deploy.sh", "+ TOKEN=" + m + " ./deploy.sh"},
		{"export API_TOKEN=k9Qx 2LmP zT9a", "export API_TOKEN=" + m},
		{"echo API_TOKEN=k9Qx,2LmP,zT9a done", "echo API_TOKEN=" + m + " done"},
		{"mount -o username=ana,password=k9Qx2LmPzT,uid=1000", "mount -o username=ana,password=" + m + ",uid=1000"},
		{"Server=db;Pwd={p;ss w0rd};Encrypt=yes", "Server=db;Pwd={" + m + "};Encrypt=yes"},
		{`{"name": "DB_PASSWORD", "value": "k9Qx2LmPzT"}`, `{"name": "DB_PASSWORD", "value": "` + m + `"}`},
		{"API_KEY: ${API_KEY:-k9Qx2LmPzT}", "API_KEY: ${API_KEY:-" + m + "}"},
		{`"password": "12345678"`, `"password": "` + m + `"`},
		{"secret='it''s k9Qx2LmPzT'", "secret='" + m + "'"},
		{`SECRET_KEY = b'k9Qx2LmPzT'`, `SECRET_KEY = b'` + m + `'`},
		{"curl https://u:p@ss@host.example/x?a=b@c", "curl https://u:[REDACTED:url-credentials]@host.example/x?a=b@c"},
		{"DB_PASSWORD        k9Qx2LmPzT", "DB_PASSWORD        " + m},
		{"api_token -> k9Qx2LmPzT", "api_token -> " + m},
		// What stays.
		{"password: !vault |", ""},
		{"password: ${{ secrets.DB_PASSWORD }}", ""},
		{`token = f"Bearer {tok}"`, ""},
		{"password: {db_password}", ""},
		{"password = 1234", ""},
		{"password: 12:30:00", ""},
		{"DB_PASSWORD=$DB_PASSWORD", ""},
		{"DB_PASSWORD=$HOME/.pgpass", ""},
		{"password: `cat /run/secrets/db`", ""},
		{"token: <token>", ""},
		{"api_key: YOUR_API_KEY", ""},
		{"password = request.form['password']", ""},
		{"token = get_token(ctx)", ""},
		{"password: Vec<u8>,", ""},
		{"secret_key = os.urandom(24)", ""},
		{"let token = this.token;", ""},
		{"Password: dbPassword,", ""},
		{"PASS: TestLogin (0.01s)", ""},
		{"scope: token secret", ""},
	} {
		want := tc.want
		if want == "" {
			want = tc.in
		}
		require.Equal(t, want, r.String(tc.in), "%q", tc.in)
	}
}

func TestLineStartPrefix(t *testing.T) {
	for _, tc := range []struct {
		line      string
		ok, trace bool
	}{
		{"password: x", true, false},
		{"  - password: x", true, false},
		{"+password: x", true, false},
		{"+ PASSWORD=x", true, true},
		{"# password: x", true, false},
		{"export PASSWORD=x", true, false},
		{".env:PASSWORD=x", true, false},
		{"config.yml:12:  password: x", true, false},
		{"level=info password=x", false, false},
		{"./a.sh: line 3: password: x", false, false},
		{"exportPASSWORD=x", false, false},
	} {
		ns := len(tc.line) - len("password: x")
		if tc.line[len(tc.line)-2] == '=' {
			ns = len(tc.line) - len("PASSWORD=x")
		}
		ok, trace := lineStartPrefix([]byte(tc.line), ns)
		require.Equal(t, tc.ok, ok, tc.line)
		require.Equal(t, tc.trace, trace, tc.line)
	}
}

func TestStructureAt(t *testing.T) {
	for in, want := range map[string]bool{
		"{":                true,
		`{"a": 1}`:         true,
		"[a, b]":           true,
		"{password}":       true,
		"{0}":              true,
		"[REDACTED]":       true,
		"{aB3xQ9zK2mLp}":   false,
		"{k9Mq#2x}":        false,
		"[k9Mq2x":          false,
		"{{ .Values.pw }}": true,
	} {
		require.Equal(t, want, structureAt([]byte(in), 0), in)
	}
}

func TestDollarRef(t *testing.T) {
	for in, want := range map[string]bool{
		"$TOKEN":          true,
		"${TOKEN}":        true,
		"${TOKEN:-x}":     true,
		"$(cat f)":        true,
		"$HOME/.netrc":    true,
		"$_ENV['X']":      true,
		"$Xk9qLm2PzT":     false,
		"$ecret":          false,
		"$2a$10$abcdefgh": false,
		"${unclosed":      false,
	} {
		require.Equal(t, want, dollarRef([]byte(in)), in)
	}
}
