package redact

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// noLineCache is the redactor and the same without the line cache.
func noLineCache(t testing.TB, cfg Config) (*Redactor, *Redactor) {
	t.Helper()
	fast := mustNew(t, cfg)
	slow := mustNew(t, cfg)
	slow.noLineCache = true
	return fast, slow
}

// cacheLines are lines that repeat in dense output and hold a hit the
// rules look at, and lines that open or close a multi-line state, in which
// the same lines mean something else (a PEM body line, a Secret's data
// value, a YAML block scalar under a secret's name).
var cacheLines = []string{
	"      - name: DB_PASSWORD", "          secretKeyRef:", "            key: password", "  password: |",
	"+\tToken: cfg.Token,", "> User-Agent: curl/8.5.0", "--- PASS: TesttokenSource (0.06s)",
	"kind: Secret", "data:", "  token: c2VjcmV0LXZhbHVlLTAxMjM0NQ==", "  api_key: QUJDREVGR0hJSktMTU5PUA==",
	"apiVersion: v1", "metadata:", "stringData:", "-----BEGIN RSA PRIVATE KEY-----",
	"MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM9Oi7vR1Jd5WQpAbc", "-----END RSA PRIVATE KEY-----",
	"token", "Token: x", "password: correct horse battery staple", "    auth loader server", "",
	"{\"Name\": \"/prod/db/password\",", "\"Value\": \"Xk35pQ9zLm2vBq7R\"", "}", "  secret: >-", "    Xk35pQ9zLm2vBq7RtY",
	"export GH_TOKEN", "GH_TOKEN=gh" + "p_abcdefghijABCDEFGHIJ0123456789abcdef", "resource \"random_password\" \"db\" {",
}

// TestLineCacheLosesNothing compares the redactor with and without the
// line cache: on every shape of the bench's corpus, and on streams of
// lines that repeat in and out of every multi-line state, so that a line
// kept from one context comes again in another.
func TestLineCacheLosesNothing(t *testing.T) {
	fast, slow := noLineCache(t, Config{})
	for _, sample := range redacttest.SplitCorpus(256 << 10) {
		requireSameText(t, slow.Bytes(sample), fast.Bytes(sample))
		requireSameStream(t, fast, slow, sample)
	}
	var b strings.Builder
	for i := 0; b.Len() < 64<<10; i++ {
		// a walk over the lines with strides that cross every pair
		b.WriteString(cacheLines[(i*7+i/len(cacheLines))%len(cacheLines)])
		b.WriteByte('\n')
	}
	in := []byte(b.String())
	require.Positive(t, bytes.Count(slow.Bytes(in), []byte("[REDACTED")), "nothing redacted: the test compares nothing")
	requireSameText(t, slow.Bytes(in), fast.Bytes(in))
	requireSameStream(t, fast, slow, in)
}

// requireSameStream writes in through a Writer of each redactor, in small
// regions so that a kept line comes again in a later region.
func requireSameStream(t testing.TB, fast, slow *Redactor, in []byte) {
	t.Helper()
	var fo, so bytes.Buffer
	for _, p := range []struct {
		r *Redactor
		b *bytes.Buffer
	}{{fast, &fo}, {slow, &so}} {
		w := p.r.NewWriterOptions(p.b, WriterOptions{Workers: 2, RegionSize: lineCacheFrom})
		for q := in; len(q) > 0; {
			n := min(len(q), 5000)
			_, err := w.Write(q[:n])
			require.NoError(t, err)
			q = q[n:]
		}
		require.NoError(t, w.Close())
	}
	requireSameText(t, so.Bytes(), fo.Bytes())
}

// requireSameText fails with the first line where got and want differ: a
// whole shape in a failure message is unreadable.
func requireSameText(t testing.TB, want, got []byte) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	wl, gl := bytes.Split(want, []byte("\n")), bytes.Split(got, []byte("\n"))
	for i := range min(len(wl), len(gl)) {
		require.Equal(t, string(wl[i]), string(gl[i]), "line %d", i+1)
	}
	require.Equal(t, len(wl), len(gl), "lines")
}

// The cache keeps lines the rules left alone, and region passes over them
// when they come again.
func TestLineCacheKeeps(t *testing.T) {
	r := mustNew(t, Config{})
	e := r.getEngine()
	defer r.putEngine(e)
	line := "          secretKeyRef:\n" // kept on its second time
	in := []byte(strings.Repeat(line, lineCacheFrom/len(line)+1))
	var st mlState
	_, changed := e.region(nil, in, &st)
	require.False(t, changed)
	require.NotNil(t, e.lines)
	s, _ := e.lines.slot([]byte(line[:len(line)-1]))
	require.True(t, e.lines.has(s, []byte(line[:len(line)-1])))
	// a line the rules change is not kept
	secret := "GH_TOKEN=gh" + "p_abcdefghijABCDEFGHIJ0123456789abcdef"
	_, changed = e.region(nil, []byte(strings.Repeat(secret+"\n", lineCacheFrom/len(secret)+1)), &st)
	require.True(t, changed)
	s, _ = e.lines.slot([]byte(secret))
	require.False(t, e.lines.has(s, []byte(secret)))
}

// FuzzLineCache: the line cache never changes what is redacted. The input's
// lines are repeated, in turn, until the stream is long enough for region
// to use the cache.
func FuzzLineCache(f *testing.F) {
	for _, s := range []string{strings.Join(cacheLines[:8], "\n"), "kind: Secret\ndata:\n  token: c2VjcmV0LXZhbHVl\n", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM\n-----END RSA PRIVATE KEY-----\n"} {
		f.Add(s)
	}
	fast, slow := noLineCache(f, Config{})
	f.Fuzz(func(t *testing.T, in string) {
		lines := strings.Split(in, "\n")
		var b strings.Builder
		for i := 0; b.Len() < lineCacheFrom+len(in); i++ {
			b.WriteString(lines[(i*3+i/len(lines))%len(lines)])
			b.WriteByte('\n')
		}
		s := b.String()
		require.Equal(t, slow.String(s), fast.String(s))
	})
}
