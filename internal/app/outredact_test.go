package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/rac-cli/rac/internal/runspec"
)

// store is a store in a temporary folder; record runs a command into it.
type store struct {
	env map[string]string
}

func newStore(t testing.TB) *store {
	home := filepath.Join(t.TempDir(), "store")
	require.NoError(t, os.Mkdir(home, 0o700))
	return &store{env: map[string]string{"RAC_HOME": home, "PATH": os.Getenv("PATH")}}
}

func (s *store) app(redact bool, maxBytes int64) *app.App {
	env := app.Env{
		Getenv: func(k string) string { return s.env[k] },
		Environ: func() []string {
			var out []string
			for k, v := range s.env {
				out = append(out, k+"="+v)
			}
			return out
		},
		Now: time.Now,
	}
	a := app.New(env, app.Settings{Session: "test", RedactEnabled: redact, MaxBytes: maxBytes, HeadBytes: maxBytes / 4, GC: app.GCLimits{Off: true}})
	a.Warn = func(string) {}
	a.Note = func(string) {}
	return a
}

// record stores what file holds as the output of a command and returns
// the reference.
func (s *store) record(t testing.TB, redact bool, maxBytes int64, file string) string {
	t.Helper()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	require.NoError(t, err)
	defer null.Close()
	res, err := s.app(redact, maxBytes).Run(context.Background(), app.RunRequest{Argv: []string{"cat", file}, Stdin: null, Stdout: null, Stderr: null,
		Announce: runspec.AnnounceNone, Mode: "pipe", DrainTimeout: time.Second, KillAfter: time.Second})
	require.NoError(t, err)
	require.NotEmpty(t, res.Ref)
	return res.Ref
}

const (
	pemHead = "-----BEGIN RSA " + "PRIVATE KEY-----"
	pemFoot = "-----END RSA " + "PRIVATE KEY-----"
)

// body lines and data values no single-line rule knows
var bodies = []string{
	"MIIEowIBAAKCAQEA" + strings.Repeat("Qk", 24),
	strings.Repeat("Zm9vYmFy", 8),
	strings.Repeat("cXV4", 16),
	"bGFzdGxpbmU=",
}

const (
	value1 = "ZGIuaW50ZXJuYWwuZXhhbXBsZS5jb20="
	value2 = "eyJyZXRyaWVzIjozLCJtb2RlIjoiZmFzdCJ9"
)

func secretOutput() string {
	var b strings.Builder
	b.WriteString("step 1\n  key: |\n    " + pemHead + "\n")
	for _, l := range bodies {
		b.WriteString("    " + l + "\n")
	}
	b.WriteString("    " + pemFoot + "\nstep 2\napiVersion: v1\ndata:\n  dbhost: " + value1 + "\n  settings.json: " + value2 + "\nkind: Secret\n")
	b.WriteString("{\n  \"data\": {\n    \"dbhost\": \"" + value1 + "\",\n    \"settings.json\": \"" + value2 + "\"\n  },\n  \"kind\": \"Secret\"\n}\nerror: done\n")
	return b.String()
}

func requireClean(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range append([]string{value1[:12], value2[:12]}, bodies...) {
		require.NotContains(t, text, s[:12], what)
	}
}

// Every window MCP read can ask for gets the lines the whole read shows:
// the block state of the lines before it is carried in, and no window
// hands out a body line or a data value. grep's hits and context, and
// explain, agree.
func TestNoRedactWindows(t *testing.T) {
	s := newStore(t)
	file := filepath.Join(t.TempDir(), "out.txt")
	out := secretOutput()
	require.NoError(t, os.WriteFile(file, []byte(out), 0o600))
	ref := s.record(t, false, 64<<20, file)
	a := s.app(true, 64<<20)

	read := func(req app.ReadRequest) []app.ReadLine {
		var got []app.ReadLine
		_, err := a.ReadLines(context.Background(), req, 1<<20, func(l app.ReadLine, _ int) error {
			got = append(got, l)
			return nil
		})
		require.NoError(t, err)
		return got
	}
	full := read(app.ReadRequest{Ref: ref})
	n := len(strings.Split(strings.TrimSuffix(out, "\n"), "\n"))
	require.Len(t, full, n, "one line out for every line in")
	var all strings.Builder
	for _, l := range full {
		all.WriteString(l.Text + "\n")
	}
	requireClean(t, "the whole read", all.String())
	require.Equal(t, "    [REDACTED:private-key]", full[3].Text)
	require.Equal(t, "    "+"[REDACTED:private-key]", full[4].Text, "a dropped line keeps its place")
	require.Equal(t, "  dbhost: [REDACTED:k8s-secret-data]", full[11].Text)

	for from := 1; from <= n; from++ {
		for to := from; to <= n; to++ {
			got := read(app.ReadRequest{Ref: ref, Lines: fmt.Sprintf("%d:%d", from, to)})
			require.Equal(t, full[from-1:to], got, "lines %d:%d", from, to)
		}
		got := read(app.ReadRequest{Ref: ref, Tail: int64(n - from + 1)})
		require.Equal(t, full[from-1:], got, "tail %d", n-from+1)
	}

	for _, text := range []string{bodies[2][:8], "dbhost", "settings.json", "Secret"} {
		for ctx := range 3 {
			hits := 0
			_, err := a.GrepEach(context.Background(), app.GrepRequest{Text: text, Context: ctx, Scope: app.Scope{Session: "test"}}, 1<<20, func(h app.GrepHit) error {
				hits++
				require.Equal(t, full[h.Line-1].Text, h.Text, "grep %q line %d", text, h.Line)
				for _, l := range append(h.Before, h.After...) {
					require.Equal(t, full[l.Line-1].Text, l.Text, "grep %q -C %d line %d", text, ctx, l.Line)
				}
				return nil
			})
			require.NoError(t, err)
			require.Positive(t, hits, text)
		}
	}

	rep, err := a.Explain(context.Background(), ref)
	require.NoError(t, err)
	var picked strings.Builder
	for _, l := range rep.Lines {
		picked.WriteString(l.Text + "\n")
	}
	requireClean(t, "explain", picked.String())
	require.Equal(t, int64(len(out)), rep.Streams[0].Bytes, "explain counts the bytes as stored")
	require.Equal(t, n, rep.Streams[0].Lines)
}

// BenchmarkReadTail30MiB is an MCP read of the last 80 lines of a 30 MiB
// recording: made with redaction on, a tail is read from the end; made
// with --no-redact, the first read redacts the stream from its start up
// to the tail, and every later one (the App is the same, as in rac mcp)
// from the last mark before it. Also explain, which reads everything
// either way.
func BenchmarkReadTail30MiB(b *testing.B) {
	s := newStore(b)
	file := filepath.Join(b.TempDir(), "out.txt")
	require.NoError(b, os.WriteFile(file, redacttest.MixedCorpus(30<<20, 1), 0o600))
	refs := map[string]string{"redacted": s.record(b, true, 64<<20, file), "no-redact": s.record(b, false, 64<<20, file)}
	a := s.app(true, 64<<20)
	for _, kind := range []string{"redacted", "no-redact"} {
		b.Run("read/"+kind, func(b *testing.B) {
			for b.Loop() {
				lines := 0
				_, err := a.ReadLines(context.Background(), app.ReadRequest{Ref: refs[kind], Tail: 80}, 2048, func(app.ReadLine, int) error {
					lines++
					return nil
				})
				require.NoError(b, err)
				require.Equal(b, 80, lines)
			}
		})
		b.Run("explain/"+kind, func(b *testing.B) {
			for b.Loop() {
				_, err := a.Explain(context.Background(), refs[kind])
				require.NoError(b, err)
			}
		})
	}
}
