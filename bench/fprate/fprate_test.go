package main

import (
	"bytes"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/redact"
)

func TestAlignLine(t *testing.T) {
	tests := []struct {
		name, in, out string
		want          []string // spans, rule:text
	}{
		{"one", "token=abc123 rest", "token=[REDACTED:secret-assignment] rest", []string{"secret-assignment:abc123"}},
		{"at end", "x ghp_0123", "x [REDACTED:github-token]", []string{"github-token:ghp_0123"}},
		{"two", "a=1 password=p@ss&token=zz9", "a=1 password=[REDACTED:x]&token=[REDACTED:y]", []string{"x:p@ss", "y:zz9"}},
		{"literal marker in the input", "see [REDACTED:x] then key=k1", "see [REDACTED:x] then key=[REDACTED:y]", []string{"y:k1"}},
		{"span holds the next literal's text", "k=a b c; z", "k=[REDACTED:r] c; z", []string{"r:a b"}},
		{"adjacent markers", "AB", "[REDACTED:a][REDACTED:b]", []string{"a:A", "b:B"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spans, ok := alignLine([]byte(tt.in), []byte(tt.out))
			require.True(t, ok)
			var got []string
			for _, s := range spans {
				got = append(got, s.rule+":"+tt.in[s.start:s.end])
			}
			assert.Equal(t, tt.want, got)
		})
	}
	_, ok := alignLine([]byte("abc"), []byte("abd"))
	assert.False(t, ok, "a changed line without a marker does not align")
}

// fakeGitHub makes a token whose checksum is right.
func fakeGitHub(body string) string {
	return "ghp_" + body + base62Encode(uint64(crc32.ChecksumIEEE([]byte(body))))
}

func TestBase62CRC(t *testing.T) {
	tok := fakeGitHub("Zq8Kd0sLm3Xv7Rt2Wy5Pb9Nc4Hj6Fg")
	assert.Equal(t, 1, base62CRC(tok))
	assert.Equal(t, -1, base62CRC(tok[:len(tok)-1]+"A"))
}

func TestBech32(t *testing.T) {
	// a key with a checksum made as BIP 173 says
	data := strings.Repeat("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 2)[:52]
	values := bech32Values("age-secret-key-")
	for _, c := range data {
		values = append(values, strings.IndexRune(bech32Charset, c))
	}
	mod := bech32Polymod(append(values, 0, 0, 0, 0, 0, 0)) ^ 1
	for i := range 6 {
		data += string(bech32Charset[(mod>>(5*(5-i)))&31])
	}
	key := strings.ToUpper("AGE-SECRET-KEY-1" + data)
	assert.Equal(t, 1, bech32Check(key))
	assert.Equal(t, -1, bech32Check(key[:len(key)-1]+"Q"))
}

func TestJudge(t *testing.T) {
	src := &item{source: "gomodcache"}
	tests := []struct {
		rule, span, file string
		want             verdict
	}{
		{"github-token", fakeGitHub("Zq8Kd0sLm3Xv7Rt2Wy5Pb9Nc4Hj6Fg"), "x/client.go", vCredential},
		{"github-token", fakeGitHub("Zq8Kd0sLm3Xv7Rt2Wy5Pb9Nc4Hj6Fg"), "x/client_test.go", vFixture},
		{"github-token", "ghp_Zq8Kd0sLm3Xv7Rt2Wy5Pb9Nc4Hj6FgXyZ012", "x/client.go", vFixture}, // checksum fails
		{"github-token", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "x/client.go", vFalse},
		{"aws-access-key-id", "AKIAIOSFODNN7EXAMPLE", "x/a.go", vFalse},
		{"secret-assignment", `os.Getenv(`, "x/a.go", vFalse},
		{"secret-assignment", "cfg.Auth.Token", "x/a.go", vFalse},
		{"secret-assignment", "getAccessTokenFromEnvironment", "x/a.go", vFalse},
		{"secret-assignment", "/etc/ssl/private/key.pem", "x/a.go", vFalse},
		{"secret-assignment", "${NPM_TOKEN}", "x/a.go", vFalse},
		{"secret-assignment", "your-api-key-here", "x/a.go", vFalse},
		{"secret-assignment", "hunter2", "x/a.go", vFalse},
		{"secret-assignment", "3xK9qZ2mPa7LbN4cRt8Vw", "x/a.go", vCredential},
		{"secret-assignment", "3xK9qZ2mPa7LbN4cRt8Vw", "x/testdata/a.yaml", vFixture},
		{"url-credentials", "s3cr3tPassw0rdXyZ9q", "x/a.go", vCredential},
		{"private-key", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj", "x/a.go", vCredential},
		{"private-key", "...", "x/a.go", vFalse},
		{"k8s-secret-data", "cGFzc3dvcmQ=", "x/a.yaml", vFalse},
		{"secret-assignment", "Custom auth must be a value between 0x80 and 0xFE.", "x/a.js", vFalse},
		{"secret-assignment", "bm90IG15IHJlYWwgcGFzc3dvcmQ=", "x/a.js", vFalse}, // "not my real password"
		{"auth-header", "dXNlcjpaOXFLMm1QYTdMYk40Y1J0", "x/a.go", vCredential},  // user:Z9qK2mPa7LbN4cRt
		{"secret-assignment", "Bearer 3xK9qZ2mPa7LbN4cRt8Vw", "x/a.go", vCredential},
		{"secret-assignment", `openssh-key-v1\x00`, "x/keys.go", vFalse},
		{"aws-access-key-id", "AKIALALEMEL33243OLIA", "x/a.go", vCredential},
		{"slack-token", "xoxe.xoxp-1-RANDOMSTRINGHERE", "x/a.go", vFalse},
		{"huggingface-token", "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", "x/a.go", vCredential},
		{"secret-assignment", "NextToken", "x/a.json", vFalse},
		{"secret-assignment", "isNotClosingBracketToken", "x/a.js", vFalse},
		{"secret-assignment", "openssh-key-v1", "x/a.js", vFalse},
	}
	for _, tt := range tests {
		t.Run(tt.rule+"/"+tt.span, func(t *testing.T) {
			got, why := judge(&hitRec{rule: tt.rule, span: tt.span, name: tt.file}, src, []byte(tt.span))
			assert.Equal(t, tt.want, got, why)
		})
	}
}

func TestContext(t *testing.T) {
	for _, h := range []*hitRec{
		{rule: "secret-assignment", span: "abcd12f2-46da-4fdb-b8d5-fbd4c466928f", before: `          "ChangeToken": "`},
		{rule: "secret-assignment", span: "U1FsdGVkX19nBV2zoh+Gou9NgnulLJHWpn9xnG4hqSOhvw3o2JqjI86QDxdf", before: `"NextToken": "`},
		{rule: "secret-assignment", span: "MyTestDatabaseSecret-a1b2c3", before: `"ARN": "arn:aws:secretsmanager:us-west-2:123456789012:secret:`},
		{rule: "secret-assignment", span: "*flagAiAPIKey", before: "\t\taiAPIKey = "},
	} {
		v, why := judge(h, &item{}, []byte(h.before+h.span))
		assert.Equal(t, vFalse, v, why)
	}
	h := &hitRec{rule: "secret-assignment", span: "3xK9qZ2mPa7LbN4cRt8Vw", before: "NEXTAUTH_SECRET="}
	v, why := judge(h, &item{}, []byte(h.before+h.span))
	assert.Equal(t, vCredential, v, why)
}

func TestAllowComment(t *testing.T) {
	h := &hitRec{rule: "secret-assignment", span: "3xK9qZ2mPa7LbN4cRt8Vw", name: "rules/a.go"}
	v, _ := judge(h, &item{}, []byte(`"key = 3xK9qZ2mPa7LbN4cRt8Vw", // gitleaks:allow`))
	assert.Equal(t, vFixture, v)
}

// TestCollection: three different credential-shaped values in one file
// make it a collection of samples; one stays a credential.
func TestCollection(t *testing.T) {
	res := newResults()
	st := &streamState{it: &item{source: "npm"}, file: "rules/slack.go"}
	for i, tok := range []string{"3xK9qZ2mPa7LbN4cRt8Vw", "Yh7Tq2LmZ9xKcV4bNp8Rw", "Qm4Zt8WcX2nLb7KpR9vYs"} {
		line := []byte("key = " + tok)
		res.addHit(st, i+1, 0, line, span{6, len(line), "secret-assignment"})
	}
	res.finishStream()
	st.file = "config.go"
	line := []byte("key = 3xK9qZ2mPa7LbN4cRt8Vw")
	res.addHit(st, 1, 0, line, span{6, len(line), "secret-assignment"})
	res.finishStream()
	assert.Equal(t, [3]int{0, 3, 1}, res.rules["secret-assignment"].judged)
}

func TestWordy(t *testing.T) {
	for _, s := range []string{"getAccessTokenFromEnvironment", "TOKEN_PLACEHOLDER_VALUE", "this-is-a-long-secret-value", "HTTPServerConfig",
		"allNumericOrString", "testRSAPSS2048PrivateKey", "StrengthString"} {
		assert.True(t, wordy(s), s)
	}
	for _, s := range []string{"3xK9qZ2mPa7LbN4cRt8Vw", "d41d8cd98f00b204e9800998ecf8427e", "kqzmxbwtrplvhgf",
		"qyUEZnpMIzUSQUGSNRzhiXvNnkNNwEyXaG", "JVLnWsLuipZsuUNkPnMRtXfFZSscORRUHc", "yDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A"} {
		assert.False(t, wordy(s), s)
	}
}

// TestScanStream runs a stream through the real redactor and checks that
// every marker's span is recovered, a PEM key counts once with its later
// body lines dropped, and the git log file is followed.
func TestScanStream(t *testing.T) {
	red, err := redact.New(redact.Config{})
	require.NoError(t, err)
	tok := fakeGitHub("Zq8Kd0sLm3Xv7Rt2Wy5Pb9Nc4Hj6Fg")
	var in strings.Builder
	in.WriteString("diff --git a/cmd/main.go b/cmd/main.go\n+export GH=" + tok + "\n")
	in.WriteString("-----BEGIN RSA PRIVATE KEY-----\n")
	for range 3 {
		in.WriteString("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n")
	}
	in.WriteString("-----END RSA PRIVATE KEY-----\n")
	in.WriteString(strings.Repeat("plain text line\n", 40000)) // past one chunk
	in.WriteString("last " + tok)                              // no final newline
	res := newResults()
	sc := &streamScanner{red: red, res: res}
	n, err := sc.scan(&item{source: "gitlog", name: "git log -p", gitlog: true}, bytes.NewReader([]byte(in.String())))
	require.NoError(t, err)
	assert.Equal(t, int64(in.Len()), n)
	assert.Equal(t, 2, res.rules["github-token"].markers)
	assert.Equal(t, 2, res.rules["github-token"].judged[vCredential], "main.go is not a test file")
	assert.Equal(t, 1, res.rules["private-key"].markers)
	assert.Equal(t, 1, res.rules["private-key"].judged[vCredential])
	assert.Equal(t, 2, res.dropped)
	assert.Zero(t, res.unaligned)
	for _, h := range res.sample[vCredential].hits {
		assert.Equal(t, "cmd/main.go", h.name)
	}
}
