package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

func mustNew(t testing.TB, cfg Config) *Redactor {
	t.Helper()
	r, err := New(cfg)
	require.NoError(t, err)
	return r
}

func fakeGitHubToken(rng *rand.Rand) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("gh" + "p_")
	for range 36 {
		b = append(b, alnum[rng.IntN(len(alnum))])
	}
	return string(b)
}

func TestEnvLiteralForms(t *testing.T) {
	val := "s3cr3t-Valu3/with+odd&chars\"and<html>" // 38 bytes
	r := mustNew(t, Config{Environ: []string{"HOME=/root", "MY_API_TOKEN=" + val, "EDITOR=vim"}})
	marker := "[REDACTED:env:MY_API_TOKEN]"
	js, _ := json.Marshal(val)
	var plain strings.Builder
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(val))
	forms := map[string]string{
		"raw":       val,
		"json":      string(js[1 : len(js)-1]),
		"json-html": strings.TrimSpace(plain.String())[1 : len(strings.TrimSpace(plain.String()))-1],
		"query":     url.QueryEscape(val),
		"path":      url.PathEscape(val),
	}
	for name, f := range forms {
		require.Equal(t, "x "+marker+" y", r.String("x "+f+" y"), name)
	}
	// Base64 of the value inside a longer text, at every alignment, with
	// and without padding, in both alphabets: at most the characters that
	// depend on neighbouring bytes may remain.
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
		for _, pre := range []string{"", "a", "ab", "abc", "user:"} {
			for _, post := range []string{"", "\n", "xy", "!"} {
				s := enc.EncodeToString([]byte(pre + val + post))
				got := r.String("b64 " + s)
				require.Contains(t, got, marker, "pre %q post %q", pre, post)
				rest := strings.Replace(strings.TrimPrefix(got, "b64 "), marker, "", 1)
				maxLeft := (len(pre)+2)/3*4 + 4 + (len(post)+2)/3*4 + 3
				require.LessOrEqual(t, len(rest), maxLeft, "pre %q post %q: %q", pre, post, got)
			}
		}
	}
}

func TestEnvLiteralSelection(t *testing.T) {
	dir := t.TempDir()
	r := mustNew(t, Config{
		Environ: []string{
			"GH_TOKEN=short",                    // < 8 bytes
			"FEATURE_TOKEN=true",                // boolean
			"SECRET_DIR_TOKEN=" + dir,           // an existing path
			"GIT_AUTHOR_NAME=Jane Doe Smith",    // not a secret name
			"CUSTOM_THING=custom-value-1234",    // made secret by EnvNames
			"DB_PASSWORD=multi line\nvalue-two", // one literal per line
			"malformed",
			"=nameless-value",
		},
		EnvNames: []string{"CUSTOM_THING"},
	})
	in := "short true " + dir + " Jane Doe Smith custom-value-1234 multi line value-two"
	want := "short true " + dir + " Jane Doe Smith [REDACTED:env:CUSTOM_THING] [REDACTED:env:DB_PASSWORD] [REDACTED:env:DB_PASSWORD]"
	require.Equal(t, want, r.String(in))
}

func TestEnvLiteralIsCaseSensitive(t *testing.T) {
	r := mustNew(t, Config{Environ: []string{"API_TOKEN=AbCdEfGh1234"}})
	require.Equal(t, "abcdefgh1234 [REDACTED:env:API_TOKEN]", r.String("abcdefgh1234 AbCdEfGh1234"))
}

func TestAllowList(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	tok := fakeGitHubToken(rng)
	other := fakeGitHubToken(rng)
	r := mustNew(t, Config{
		Allow:   []string{tok, "allowed-password-1"},
		Environ: []string{"SERVICE_TOKEN=allowed-password-1"},
	})
	require.Equal(t, tok+" [REDACTED:github-token]", r.String(tok+" "+other))
	require.Equal(t, "password=allowed-password-1", r.String("password=allowed-password-1"))
	require.Equal(t, "password=[REDACTED:secret-assignment]", r.String("password=other-password-2"))
}

func TestExtraRules(t *testing.T) {
	r := mustNew(t, Config{Rules: []RuleSpec{
		{Name: "acme-token", Prefix: "acme_", Pattern: `acme_[a-z0-9]{32}`},
		{Name: "acme-ci", Prefix: "ACMECI", Pattern: `(?i)acmeci-[0-9a-f]{16}`},
	}})
	body := strings.Repeat("a1", 16)
	require.Equal(t, "key [REDACTED:acme-token] end", r.String("key acme_"+body+" end"))
	require.Equal(t, "xacme_"+body, r.String("xacme_"+body), "left boundary")
	require.Equal(t, "acme_short", r.String("acme_short"))
	require.Equal(t, "[REDACTED:acme-ci]", r.String("ACMECI-0123456789abcdef"))
	w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: 1})
	_, err := w.Write([]byte("acme_" + body + "\n"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, map[string]int{"acme-token": 1}, w.Counts())
}

func TestBadRules(t *testing.T) {
	for _, tc := range []struct {
		spec RuleSpec
		msg  string
	}{
		{RuleSpec{Name: "acme-token", Prefix: "acme_", Pattern: `acme_[a-z`}, `redact rule "acme-token": error parsing regexp`},
		{RuleSpec{Name: "acme-token", Prefix: "acme_", Pattern: `(acme_x)?`}, `redact rule "acme-token": pattern "(acme_x)?" matches the empty string`},
		{RuleSpec{Name: "acme-token", Prefix: "ac", Pattern: `ac[0-9]+`}, `redact rule "acme-token": prefix "ac" is shorter than 3 bytes`},
		{RuleSpec{Name: "Acme Token", Prefix: "acme_", Pattern: `acme_[0-9]+`}, `redact rule "Acme Token": name must be`},
		{RuleSpec{Name: "acme-token", Prefix: "acme_", Pattern: `other_[0-9]+`}, `redact rule "acme-token": pattern "other_[0-9]+" does not start with the prefix "acme_"`},
		{RuleSpec{Name: "acme-token", Prefix: "acme_", Pattern: ``}, `redact rule "acme-token": empty pattern`},
	} {
		_, err := New(Config{Rules: []RuleSpec{tc.spec}})
		require.Error(t, err)
		require.Contains(t, err.Error(), tc.msg)
	}
}

func TestKubectlGetSecretYAML(t *testing.T) {
	pass := base64.StdEncoding.EncodeToString([]byte("hunter2-but-longer"))
	user := base64.StdEncoding.EncodeToString([]byte("admin"))
	applied := `{"apiVersion":"v1","data":{"password":"` + pass + `","username":"` + user + `"},"kind":"Secret","metadata":{"annotations":{},"name":"db","namespace":"default"},"type":"Opaque"}`
	in := `apiVersion: v1
data:
  password: ` + pass + `
  username: ` + user + `
kind: Secret
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      ` + applied + `
  creationTimestamp: "2024-05-01T10:00:00Z"
  name: db
  namespace: default
  resourceVersion: "1234"
  uid: 0b6f5d0e-7f7e-4c1e-9b3a-2f8a1c9d4e5f
type: Opaque
`
	r := mustNew(t, Config{})
	got := r.String(in)
	require.NotContains(t, got, pass)
	require.NotContains(t, got, user)
	require.Contains(t, got, "  password: [REDACTED:k8s-secret-data]\n")
	require.Contains(t, got, `"data":{"password":"[REDACTED:k8s-secret-data]","username":"[REDACTED:k8s-secret-data]"}`)
	require.Contains(t, got, "uid: 0b6f5d0e-7f7e-4c1e-9b3a-2f8a1c9d4e5f\n")
	require.Equal(t, strings.Count(in, "\n"), strings.Count(got, "\n"))
	// The same through writers of every mode and tiny regions.
	for _, opt := range []WriterOptions{{Workers: 1}, {Workers: 2, RegionSize: 10}, {Workers: 4, RegionSize: 1}} {
		var out bytes.Buffer
		w := r.NewWriterOptions(&out, opt)
		for i := 0; i < len(in); i += 7 {
			_, err := w.Write([]byte(in[i:min(i+7, len(in))]))
			require.NoError(t, err)
		}
		require.NoError(t, w.Close())
		require.Equal(t, got, out.String(), "%+v", opt)
		require.Equal(t, 4, w.Counts()["k8s-secret-data"])
	}
}

// countingWriter records how much reached it, and when.
type countingWriter struct {
	n    atomic.Int64
	last atomic.Int32
	buf  *bytes.Buffer // nil: discard
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	if len(p) > 0 {
		c.last.Store(int32(p[len(p)-1]))
	}
	if c.buf != nil {
		c.buf.Write(p)
	}
	return len(p), nil
}

// TestLongLineMemoryBound writes a line with no newline (24 MiB: the bound is
// checked at every write, so more proves nothing new) and checks that output
// keeps flowing and the Writer never holds more than about 1 MiB.
func TestLongLineMemoryBound(t *testing.T) {
	size := 24 << 20
	if testing.Short() {
		size = 4 << 20
	}
	r := mustNew(t, Config{})
	chunk := bytes.Repeat([]byte("lorem ipsum 0123456789 "), 32<<10/23)
	for _, workers := range []int{1, 2} {
		var dst countingWriter
		w := r.NewWriterOptions(&dst, WriterOptions{Workers: workers})
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		written := 0
		maxHeld := 0
		for written < size {
			_, err := w.Write(chunk)
			require.NoError(t, err)
			written += len(chunk)
			require.NoError(t, w.Flush())
			held := written - int(dst.n.Load())
			maxHeld = max(maxHeld, held)
			require.LessOrEqual(t, held, longLineMax+2*len(chunk), "workers %d: %d bytes held after %d", workers, held, written)
		}
		require.LessOrEqual(t, cap(w.carry), 2*longLineThreshold)
		require.LessOrEqual(t, cap(w.seq.long.buf), 2*longLineMax)
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		require.Less(t, int64(after.HeapInuse)-int64(before.HeapInuse), int64(16<<20), "workers %d", workers)
		require.NoError(t, w.Close())
		require.Equal(t, int64(written), dst.n.Load())
		t.Logf("workers %d: %d MiB written, at most %d KiB held", workers, written>>20, maxHeld>>10)
	}
}

// Secrets inside long lines are redacted as in one shot, wherever the
// long-line cuts fall.
func TestLongLineSecrets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	r := mustNew(t, Config{})
	var line strings.Builder
	var toks []string
	for line.Len() < 700<<10 {
		line.WriteString(strings.Repeat("word ", rng.IntN(3000)))
		tok := fakeGitHubToken(rng)
		toks = append(toks, tok)
		line.WriteString("token=" + tok + " ")
	}
	in := line.String() + "\nnext line\n"
	want := r.String(in)
	for _, tok := range toks {
		require.NotContains(t, want, tok)
	}
	for _, step := range []int{1000, 4096, 32 << 10, 100 << 10} {
		for _, workers := range []int{1, 2} {
			var cuts []int
			for k := step; k < len(in); k += step {
				cuts = append(cuts, k)
			}
			require.Equal(t, want, writeSplit(t, r, in, cuts, WriterOptions{Workers: workers}), "step %d workers %d", step, workers)
		}
	}
}

// A token-like run longer than the hold limit is redacted, then the rest of
// the run is dropped until whitespace; memory stays bounded.
func TestLongLineHugeToken(t *testing.T) {
	r := mustNew(t, Config{})
	var dst bytes.Buffer
	w := r.NewWriterOptions(&dst, WriterOptions{Workers: 1})
	_, err := w.Write([]byte("start gh" + "p_"))
	require.NoError(t, err)
	run := bytes.Repeat([]byte("AbCdEfGh12"), 32<<10/10)
	for range 96 { // 3 MiB
		_, err := w.Write(run)
		require.NoError(t, err)
		require.LessOrEqual(t, len(w.seq.long.buf), longLineMax+len(run)+longLineContext)
	}
	_, err = w.Write([]byte(" tail\n"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, "start [REDACTED:github-token] tail\n", dst.String())
}

func TestPEMAcrossRegions(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	var body strings.Builder
	for range 40 {
		for range 64 {
			body.WriteByte("ABCDEFGHabcdefgh0123+/"[rng.IntN(22)])
		}
		body.WriteByte('\n')
	}
	in := "before\n-----BEGIN RSA " + "PRIVATE KEY-----\n" + body.String() + "-----END RSA " + "PRIVATE KEY-----\nafter\n"
	want := "before\n-----BEGIN RSA PRIVATE" + " KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE" + " KEY-----\nafter\n"
	r := mustNew(t, Config{})
	require.Equal(t, want, r.String(in))
	for _, size := range []int{1, 50, 65, 200, 1000} {
		for _, step := range []int{1, 13, 64, 4096} {
			var cuts []int
			for k := step; k < len(in); k += step {
				cuts = append(cuts, k)
			}
			require.Equal(t, want, writeSplit(t, r, in, cuts, WriterOptions{Workers: 2, RegionSize: size}), "region %d step %d", size, step)
		}
	}
}

func TestPEMStopsAtNonKeyLine(t *testing.T) {
	r := mustNew(t, Config{})
	in := "-----BEGIN PRIVATE " + "KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n$ ls -la\ntotal 0\n"
	require.Equal(t, "-----BEGIN PRIVATE"+" KEY-----\n[REDACTED:private-key]\n$ ls -la\ntotal 0\n", r.String(in))
	// head -c cut the key mid-line at the end of the stream
	in = "-----BEGIN PRIVATE " + "KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\nAASCBKcwggSjAgEAAoIB"
	require.Equal(t, "-----BEGIN PRIVATE"+" KEY-----\n[REDACTED:private-key]\n", r.String(in))
}

// Parallel writers produce exactly the sequential output on realistic data,
// for any region size and write pattern.
func TestParallelMatchesSequential(t *testing.T) {
	data := redacttest.MixedCorpus(3<<20, 42)
	r := mustNew(t, Config{Environ: []string{"GH_TOKEN=sequential-check-123456"}})
	want := r.Bytes(data)
	require.NotEqual(t, string(data), string(want), "the corpus holds secrets")
	rng := rand.New(rand.NewPCG(8, 8))
	for _, opt := range []WriterOptions{{Workers: 2}, {Workers: 2, RegionSize: 512}, {Workers: 3, RegionSize: 8 << 10}, {Workers: 1}} {
		var out bytes.Buffer
		w := r.NewWriterOptions(&out, opt)
		for p := data; len(p) > 0; {
			n := min(len(p), 1+rng.IntN(64<<10))
			_, err := w.Write(p[:n])
			require.NoError(t, err)
			p = p[n:]
		}
		require.NoError(t, w.Close())
		require.Equal(t, string(want), out.String(), "%+v", opt)
		require.NotEmpty(t, w.Counts())
	}
}

func TestMixedCorpus(t *testing.T) {
	a := redacttest.MixedCorpus(1<<20, 7)
	require.Equal(t, a, redacttest.MixedCorpus(1<<20, 7), "deterministic")
	require.NotEqual(t, a, redacttest.MixedCorpus(1<<20, 8))
	require.LessOrEqual(t, len(a), 1<<20)
	require.Greater(t, len(a), 1<<20-4096)
	require.Equal(t, byte('\n'), a[len(a)-1])
	r := mustNew(t, Config{})
	w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: 1})
	_, err := w.Write(a)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	c := w.Counts()
	for _, id := range []string{"github-token", "aws-access-key-id", "private-key", "k8s-secret-data", "auth-header", "url-credentials", "secret-assignment"} {
		require.Positive(t, c[id], "MixedCorpus should contain %s secrets: %v", id, c)
	}
}

func TestWriterEmitsCompleteLines(t *testing.T) {
	r := mustNew(t, Config{})
	var out bytes.Buffer
	w := r.NewWriterOptions(&out, WriterOptions{Workers: 1})
	_, err := w.Write([]byte("one\ntwo\nthr"))
	require.NoError(t, err)
	require.Equal(t, "one\ntwo\n", out.String())
	_, err = w.Write([]byte("ee password=hunter2hunter2"))
	require.NoError(t, err)
	require.Equal(t, "one\ntwo\n", out.String(), "the partial line is held")
	require.NoError(t, w.Close())
	require.Equal(t, "one\ntwo\nthree password=[REDACTED:secret-assignment]", out.String())
	require.NoError(t, w.Close(), "Close twice")
	_, err = w.Write([]byte("x"))
	require.Error(t, err)

	var pout bytes.Buffer
	pw := r.NewWriterOptions(&pout, WriterOptions{Workers: 2})
	_, err = pw.Write([]byte("one\ntwo\nthr"))
	require.NoError(t, err)
	require.NoError(t, pw.Flush())
	require.Equal(t, "one\ntwo\n", pout.String())
	require.NoError(t, pw.Close())
	require.Equal(t, "one\ntwo\nthr", pout.String())
}

func TestCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := mustNew(t, Config{Environ: []string{"GH_TOKEN=counted-value-123"}})
	w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: 2, RegionSize: 16})
	in := "a " + fakeGitHubToken(rng) + "\nb counted-value-123\nc counted-value-123\npassword=abcdefgh\n"
	_, err := w.Write([]byte(in))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, map[string]int{"github-token": 1, "env:GH_TOKEN": 2, "secret-assignment": 1}, w.Counts())
}

var errBoom = errors.New("boom")

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, errBoom
	}
	f.after--
	return len(p), nil
}

func TestDstErrorIsReturned(t *testing.T) {
	r := mustNew(t, Config{})
	for _, workers := range []int{1, 2} {
		w := r.NewWriterOptions(&failingWriter{after: 1}, WriterOptions{Workers: workers, RegionSize: 4})
		var err error
		for i := 0; i < 100 && err == nil; i++ {
			_, err = w.Write([]byte("line\n"))
			if err == nil {
				err = w.Flush()
			}
		}
		require.ErrorIs(t, err, errBoom, "workers %d", workers)
		require.ErrorIs(t, w.Close(), errBoom)
	}
}

// TestFailClosed makes redaction panic on one line: the lines before it are
// written, then one marker line, then nothing, and every call returns the
// error.
func TestFailClosed(t *testing.T) {
	for _, workers := range []int{1, 2} {
		r := mustNew(t, Config{})
		r.testHook = func(line []byte) {
			if bytes.Contains(line, []byte("BOOM")) {
				panic("injected failure")
			}
		}
		var out bytes.Buffer
		w := r.NewWriterOptions(&out, WriterOptions{Workers: workers})
		_, err := w.Write([]byte("first line\n"))
		require.NoError(t, err)
		require.NoError(t, w.Flush())
		_, err = w.Write([]byte("BOOM password=hunter2hunter2\n"))
		if err == nil {
			err = w.Flush()
		}
		require.ErrorIs(t, err, ErrRedactorFailed, "workers %d", workers)
		_, err = w.Write([]byte("later line\n"))
		require.ErrorIs(t, err, ErrRedactorFailed)
		require.ErrorIs(t, w.Close(), ErrRedactorFailed)
		require.Equal(t, "first line\n[REDACTED:redactor-failed]\n", out.String(), "workers %d", workers)
	}
}

// blockingWriter holds every write until released.
type blockingWriter struct {
	release chan struct{}
	out     bytes.Buffer
}

func (b *blockingWriter) Write(p []byte) (int, error) {
	<-b.release
	return b.out.Write(p)
}

// TestBackpressure: when dst (or redaction) stalls, Write blocks after a
// bounded amount of buffered input instead of buffering without limit, and
// nothing is lost once it resumes.
func TestBackpressure(t *testing.T) {
	r := mustNew(t, Config{})
	dst := &blockingWriter{release: make(chan struct{})}
	const region = 4 << 10
	w := r.NewWriterOptions(dst, WriterOptions{Workers: 2, RegionSize: region})
	line := []byte(strings.Repeat("x", 99) + "\n")
	var accepted atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 2000 { // 200 KB, far more than the in-flight bound
			_, err := w.Write(line)
			if err != nil {
				return
			}
			accepted.Add(int64(len(line)))
		}
	}()
	time.Sleep(200 * time.Millisecond)
	bound := int64((2*2 + 2 + 4) * (region + len(line)))
	require.LessOrEqual(t, accepted.Load(), bound, "Write did not block")
	select {
	case <-done:
		t.Fatal("all writes returned while dst was blocked")
	default:
	}
	close(dst.release)
	<-done
	require.NoError(t, w.Close())
	require.Equal(t, 2000*len(line), dst.out.Len())
}

func TestCloseStopsGoroutines(t *testing.T) {
	r := mustNew(t, Config{})
	before := runtime.NumGoroutine()
	var ws []*Writer
	for range 10 {
		w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: 3})
		_, err := w.Write([]byte("some output\npartial"))
		require.NoError(t, err)
		ws = append(ws, w)
	}
	require.Greater(t, runtime.NumGoroutine(), before)
	for _, w := range ws {
		require.NoError(t, w.Close())
	}
	// Not require.Eventually: it runs goroutines of its own.
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.LessOrEqual(t, runtime.NumGoroutine(), before)
}

func TestRedactorConcurrentUse(t *testing.T) {
	r := mustNew(t, Config{})
	rng := rand.New(rand.NewPCG(4, 4))
	tok := fakeGitHubToken(rng)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				require.Equal(t, "x [REDACTED:github-token] y", r.String("x "+tok+" y"))
			}
		}()
	}
	wg.Wait()
}

func TestBytesReturnsInputWhenClean(t *testing.T) {
	r := mustNew(t, Config{})
	in := []byte("nothing to see here\n")
	out := r.Bytes(in)
	require.Equal(t, &in[0], &out[0])
	require.Empty(t, r.Bytes(nil))
}

// Lines made of one literal repeated must not make matching quadratic.
func TestPathologicalLines(t *testing.T) {
	r := mustNew(t, Config{
		Environ: []string{"GH_TOKEN=aaaaaaaaaaaa"},
		Rules:   []RuleSpec{{Name: "acme", Prefix: "acme_", Pattern: `acme_[a-z_]+X`}},
	})
	size := 1 << 20
	if testing.Short() || raceEnabled {
		size = 128 << 10
	}
	for _, unit := range []string{
		"token", "token=", "cookie: ", "set-cookie:", "-----BEGIN RSA PRIVATE" + " KEY-----", "-----END RSA PRIVATE" + " KEY-----",
		"sk-aaaaaaaaaaaaaaaaaaaaT3BlbkFJ", "T3BlbkFJ", "eyJ", "eyJaaaaaaaaaaaa.", "xoxb-", "ghp_", "Authorization: Bearer ",
		`"data":{`, `"data":{"a":"YWJjZGVmZ2g=",`, "://a:bcd@", "password=", "a", "acme_", "AKIA", "LS0tLS1CRUdJTi",
		"hooks.slack.com/services/", "x-api-key:", "Q~", "aaaa",
	} {
		line := strings.Repeat(unit, size/len(unit))
		start := time.Now()
		out := r.String(line)
		var buf bytes.Buffer
		w := r.NewWriterOptions(&buf, WriterOptions{Workers: 1})
		_, err := w.Write([]byte(line + "\n"))
		require.NoError(t, err)
		require.NoError(t, w.Close())
		// no time bound here (a loaded machine is slow for any code): a
		// quadratic case would take hours and end in the package timeout;
		// make bench times the writer
		if elapsed := time.Since(start); elapsed > time.Second {
			t.Logf("unit %q took %v", unit, elapsed)
		}
		require.NotEmpty(t, out)
	}
}

// Secret data values longer than the long-line threshold (Helm release
// secrets run to hundreds of KiB) are redacted whole, and values beyond the
// hold limit are still kept out of the output.
func TestKubeDataLongValues(t *testing.T) {
	r := mustNew(t, Config{})
	rng := rand.New(rand.NewPCG(11, 11))
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	value := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = b64[rng.IntN(len(b64))]
		}
		return string(b)
	}
	for _, n := range []int{300 << 10, 3 << 20} {
		v := value(n)
		in := "apiVersion: v1\ndata:\n  release: " + v + "\n  small: " + value(16) + "\nkind: Secret\n"
		for _, workers := range []int{1, 2} {
			var cuts []int
			for k := 32 << 10; k < len(in); k += 32 << 10 {
				cuts = append(cuts, k)
			}
			got := writeSplit(t, r, in, cuts, WriterOptions{Workers: workers})
			require.Equal(t, "apiVersion: v1\ndata:\n  release: [REDACTED:k8s-secret-data]\n  small: [REDACTED:k8s-secret-data]\nkind: Secret\n", got, "n %d workers %d", n, workers)
		}
	}
}
