package redact

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Regressions found by the differential fuzz targets (matchdiff_test.go).

func TestPEMHeaderTriesLongerLabels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	body := rs(rng, alnum62+"+/", 64)
	r := mustNew(t, Config{})
	hdr := "-----BEGIN EC PRIVATE" + " KEY-----"
	for name, tc := range map[string]struct{ in, want string }{
		// The label may hold PRIVATE KEY and dashes: when the shortest
		// header is followed by neither a footer nor key material, the
		// longer one is the header.
		"dashes then a longer label": {
			in:   hdr + "-----X PRIVATE" + " KEY-----" + body,
			want: hdr + "-----X PRIVATE" + " KEY-----[REDACTED:private-key]",
		},
		"label holding PRIVATE KEY": {
			in:   "-----BEGIN RSA PRIVATE" + " KEY PRIVATE" + " KEY-----" + body,
			want: "-----BEGIN RSA PRIVATE" + " KEY PRIVATE" + " KEY-----[REDACTED:private-key]",
		},
		"the shortest header decides when it can": {
			in:   hdr + " " + body,
			want: hdr + " [REDACTED:private-key]",
		},
	} {
		require.Equal(t, tc.want, r.String(tc.in), name)
	}
}

// A header name glued to a word before its optional prefix (xX-Api-Key,
// xproxy-authorization, xset-cookie) still ends in a header name after a
// '-', as the rules' expressions say; the matchers used to check the
// boundary before the prefix and let the value through.
func TestHeaderPrefixAfterWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	val := rs(rng, alnum62, 24)
	r := mustNew(t, Config{})
	for in, want := range map[string]string{
		"xX-Api-Key: " + val:                    "xX-Api-Key: [REDACTED:auth-header]",
		"xx-goog-api-key: " + val:               "xx-goog-api-key: [REDACTED:auth-header]",
		"xproxy-authorization: Bearer " + val:   "xproxy-authorization: Bearer [REDACTED:auth-header]",
		"xSet-Cookie: session=" + val:           "xSet-Cookie: [REDACTED:cookie-header]",
		"X-Api-Key: " + val:                     "X-Api-Key: [REDACTED:auth-header]",
		"Proxy-Authorization: Basic " + val:     "Proxy-Authorization: Basic [REDACTED:auth-header]",
		"xauthorization: " + val:                "xauthorization: " + val, // no boundary at all
		"set-cookie2: session=" + val + "; x=y": "set-cookie2: session=" + val + "; x=y",
	} {
		require.Equal(t, want, r.String(in), in)
	}
}

func TestAuthorWord(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"Author: Jane Doe <jane@example.com>", true},
		{"    Author:", true},
		{"GIT_AUTHOR_NAME=Jane", true},
		{"git_author_email=jane@example.com", true},
		{"coAuthor: x", true},     // camelCase: a segment of its own
		{"XAuthor: x", true},      // the X is a segment before it
		{"AuthorToken: x", true},  // author, token: still not secret
		{"Author", true},          // at the end of the input
		{"Author2: x", false},     // author2 could be author2x
		{"Authored-by: x", false}, // another word
		{"Authorx: x", false},
		{"authOr: x", false}, // auth, or: a secret name
		{"AUTHORx: x", false},
		{"xauthor: x", false}, // xauthor
		{"2author: x", false},
		{"AUTHORToken: x", false}, // nameSegments splits before the T of Token, not before R
		{"auth: x", false},
		{"Auth", false},
	} {
		at := strings.Index(strings.ToLower(tc.in), "auth")
		require.Equal(t, tc.want, authorWord([]byte(tc.in), at), tc.in)
	}
}

// noAuthorShortcut is the same redactor without region's Author shortcut.
func noAuthorShortcut(t testing.TB, cfg Config) (*Redactor, *Redactor) {
	t.Helper()
	fast := mustNew(t, cfg)
	slow := mustNew(t, cfg)
	require.GreaterOrEqual(t, fast.authLit, int32(0))
	slow.authLit = -1
	clear(slow.nameLit) // nor quietName, which would take most Author hits too
	return fast, slow
}

// TestAuthorShortcutLosesNothing compares the redactor with and without the
// shortcut on every case spelling of author, with the bytes that decide
// where nameSegments puts its segment boundaries on both sides.
func TestAuthorShortcutLosesNothing(t *testing.T) {
	fast, slow := noAuthorShortcut(t, Config{})
	before := []string{"", " ", "x", "X", "2", "_", "-", ".", "\"", "//", "?"}
	after := []string{"", ":", "=", "_token", "Token", "X", "x", "2", "2x", "2X", "-key", "_pass", "Pass", "s", "Or", "_"}
	seps := []string{": ", "=", "\": \"", " = ", ":"}
	const val = "s3cr3tVa1ue-Zq"
	n := 0
	var all strings.Builder
	for mask := range 64 {
		w := []byte("author")
		for i := range w {
			if mask&(1<<i) != 0 {
				w[i] -= 'a' - 'A'
			}
		}
		for _, b := range before {
			for _, a := range after {
				for _, sep := range seps {
					in := b + string(w) + a + sep + val + "\n"
					all.WriteString(in)
					got := fast.String(in)
					require.Equal(t, slow.String(in), got, "%q", in)
					if got != in {
						n++
					}
				}
			}
		}
	}
	require.Positive(t, n, "some spellings are secret names (authOr, AUTHOR_token ...)")
	// Past shortString the automaton over every literal is used.
	require.Greater(t, all.Len(), shortString)
	require.Equal(t, string(slow.Bytes([]byte(all.String()))), string(fast.Bytes([]byte(all.String()))))
}

func FuzzAuthorShortcut(f *testing.F) {
	fast, slow := noAuthorShortcut(f, Config{})
	for _, s := range []string{
		"commit 0123abcd\nAuthor: Jane Doe <jane@example.com>\nDate:   Mon Mar 4 10:00:00 2024 +0100\n",
		"AUTHOR=s3cr3tValue\nauthOr=s3cr3tValue\nAuthor_token=s3cr3tValue\n",
		"Author2x: s3cr3tValue\ncoAuthor=s3cr3tValue auth=s3cr3tValue\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		require.Equal(t, string(slow.Bytes(data)), string(fast.Bytes(data)), "%q", data)
	})
}

// A short base64 PEM header whose PRIVATE KEY ends in the padded last
// quantum: decoding without the padding used to drop that quantum.
func TestPEMBase64PaddedTail(t *testing.T) {
	r := mustNew(t, Config{})
	enc := base64.StdEncoding.EncodeToString([]byte("-----BEGIN RSA PRIVATE" + " KEY"))
	require.True(t, strings.HasSuffix(enc, "="), enc)
	require.Equal(t, "key: [REDACTED:private-key]", r.String("key: "+enc))
}
