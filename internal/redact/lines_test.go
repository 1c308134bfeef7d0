package redact

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// streamForm is what the inbound pass stores for text.
func streamForm(t *testing.T, r *Redactor, text string) string {
	t.Helper()
	var b bytes.Buffer
	w := r.NewWriterOptions(&b, WriterOptions{Workers: 1})
	_, err := w.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.String()
}

func splitLines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// allLines redacts every line of text with l.
func allLines(l *Lines, lines []string) []string {
	out := make([]string, len(lines))
	for i, ln := range lines {
		out[i] = string(l.Line([]byte(ln)))
	}
	return out
}

const pemKey = `-----BEGIN RSA PRIVATE KEY-----
MIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5tYvGFrbH2d0c0Ixz7nY3pzQE
hm2Pz5PWYQ0fsdR1gOPa5fg5Te4Y7aKj0XYSb0pFg6QJ2vRk0iA1p3D8T3k9Y0Ts
Qv3nT8sLkq0WmZ7yXr2u1bPdFe9cHa4gJiKoN6MtUwVxYz5A0B1C2D3E4F5G6H7
abcdefghij0123456789==
-----END RSA PRIVATE KEY-----
`

const kubeYAML = `apiVersion: v1
data:
  dbhost: c2VjcmV0LXBhc3N3b3JkLTEyMw==
  settings.json: ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp
kind: Secret
metadata:
  name: db
`

const kubeJSON = `{
    "apiVersion": "v1",
    "data": {
        "dbhost": "c2VjcmV0LXBhc3N3b3JkLTEyMw==",
        "settings.json": "ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp"
    },
    "kind": "Secret"
}
`

// The secret parts of the fixtures: no output line may hold one.
var fixtureSecrets = []string{
	"MIIEowIBAAKCAQEAx4Ub", "hm2Pz5PWYQ0fsdR1", "Qv3nT8sLkq0WmZ7y", "abcdefghij0123456789",
	"c2VjcmV0LXBhc3N3b3JkLTEyMw", "ZXlKaGJHY2lPaUpTVXpJ",
}

func requireNoSecret(t *testing.T, lines []string) {
	t.Helper()
	for i, l := range lines {
		for _, s := range fixtureSecrets {
			require.NotContains(t, l, s, "line %d", i+1)
		}
	}
}

func TestLinesCarryBlocks(t *testing.T) {
	r := mustNew(t, Config{})
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"pem", "key:\n" + pemKey + "done\n", []string{
			"key:",
			"-----BEGIN RSA PRIVATE KEY-----",
			"[REDACTED:private-key]",
			DroppedLine, DroppedLine, DroppedLine,
			"-----END RSA PRIVATE KEY-----",
			"done",
		}},
		{"pem indented", "  key: |\n" + indent(pemKey, "    ") + "done\n", []string{
			"  key: |",
			"    -----BEGIN RSA PRIVATE KEY-----",
			"    [REDACTED:private-key]",
			"    " + DroppedLine, "    " + DroppedLine, "    " + DroppedLine,
			"    -----END RSA PRIVATE KEY-----",
			"done",
		}},
		{"kube yaml", kubeYAML, []string{
			"apiVersion: v1",
			"data:",
			"  dbhost: [REDACTED:k8s-secret-data]",
			"  settings.json: [REDACTED:k8s-secret-data]",
			"kind: Secret",
			"metadata:",
			"  name: db",
		}},
		{"kube json", kubeJSON, []string{
			"{",
			`    "apiVersion": "v1",`,
			`    "data": {`,
			`        "dbhost": "[REDACTED:k8s-secret-data]",`,
			`        "settings.json": "[REDACTED:k8s-secret-data]"`,
			"    },",
			`    "kind": "Secret"`,
			"}",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := r.NewLines()
			defer l.Close()
			got := allLines(l, splitLines(c.text))
			require.Equal(t, c.want, got)
			requireNoSecret(t, got)
			// one line out for every line in, and the lines that are
			// not dropped are the stream form exactly
			var kept strings.Builder
			l2 := r.NewLines()
			for _, ln := range splitLines(c.text) {
				out := l2.Line([]byte(ln))
				if !l2.dropped {
					kept.Write(out)
					kept.WriteByte('\n')
				}
			}
			require.NoError(t, l2.Close())
			require.Equal(t, streamForm(t, r, c.text), kept.String())
		})
	}
}

func indent(text, pfx string) string {
	var b strings.Builder
	for _, l := range splitLines(text) {
		b.WriteString(pfx + l + "\n")
	}
	return b.String()
}

// A window that starts inside a block gets the state right when the lines
// before it are skipped, and leaks when they are not: the reason Lines
// exists.
func TestLinesWindowMidBlock(t *testing.T) {
	r := mustNew(t, Config{})
	for _, text := range []string{"before\n" + pemKey + "after\n", kubeYAML, kubeJSON} {
		lines := splitLines(text)
		full := allLines(r.NewLines(), lines)
		for from := range lines {
			l := r.NewLines()
			for _, ln := range lines[:from] {
				l.Skip([]byte(ln))
			}
			got := allLines(l, lines[from:])
			require.NoError(t, l.Close())
			require.Equal(t, full[from:], got, "window from line %d", from+1)
			requireNoSecret(t, got)
		}
		// the same window without the lines before it hands a secret out
		leaked := false
		for from := range lines {
			for _, out := range allLines(r.NewLines(), lines[from:]) {
				for _, s := range fixtureSecrets {
					leaked = leaked || strings.Contains(out, s)
				}
			}
		}
		require.True(t, leaked, "a window without its start must leak here, or this test proves nothing")
	}
}

// Lines agrees with the Writer on a mixed corpus (build logs, kubectl
// output, keys, tokens), whichever lines are skipped, and skipped lines
// batched past skipBatch change nothing.
func TestLinesMatchWriter(t *testing.T) {
	r := mustNew(t, Config{})
	text := string(redacttest.MixedCorpus(1<<20, 7))
	lines := splitLines(text)
	l := r.NewLines()
	full := make([]string, len(lines))
	var kept strings.Builder
	drops := 0
	for i, ln := range lines {
		full[i] = string(l.Line([]byte(ln)))
		if l.dropped {
			drops++
			continue
		}
		kept.WriteString(full[i])
		kept.WriteByte('\n')
	}
	require.NoError(t, l.Close())
	require.Positive(t, drops, "the corpus holds keys")
	require.Equal(t, streamForm(t, r, text), kept.String())

	rng := rand.New(rand.NewPCG(3, 4))
	l = r.NewLines()
	for i, ln := range lines {
		if rng.IntN(4) != 0 { // long runs of skipped lines
			l.Skip([]byte(ln))
			continue
		}
		require.Equal(t, full[i], string(l.Line([]byte(ln))), "line %d", i+1)
	}
	require.NoError(t, l.Close())
}

func TestLinesLongLine(t *testing.T) {
	r := mustNew(t, Config{})
	tok := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	long := strings.Repeat("x ", 100<<10) + tok + strings.Repeat(" y", 100<<10)
	l := r.NewLines()
	defer l.Close()
	out := string(l.Line([]byte(long)))
	require.NotContains(t, out, tok)
	require.Equal(t, r.String(long), out)
	require.Equal(t, "next", string(l.Line([]byte("next"))))
}

func TestLinesAfterCut(t *testing.T) {
	r := mustNew(t, Config{})
	cases := []struct {
		name  string
		text  string
		want  []string
		shows bool // a fixture secret shows on purpose: after the rule ended
	}{
		{"inside a key", "Te4Y7aKj0XYSb0pFg6QJ2vRk0iA1p3D8T3k9Y0Ts\nQv3nT8sLkq0WmZ7yXr2u1bPdFe9cHa4gJiKoN6MtUwVxYz5A0B1C2D3E4F5G6H7\n  abcdefghij0123456789==\n-----END RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5\n", []string{
			DroppedLine, DroppedLine, "  " + DroppedLine,
			"-----END RSA PRIVATE KEY-----",
			// the rule ended: a later base64 line alone is the Writer's
			"MIIEowIBAAKCAQEAx4UbaDzY2ZjG5aR1ERNGs1V5",
		}, true},
		{"a key cut to a few bytes", "j==\n-----END RSA PRIVATE KEY-----\n", []string{
			DroppedLine, "-----END RSA PRIVATE KEY-----",
		}, false},
		// the first line may be any fragment: one word is masked too
		{"one word", "done\nok\n", []string{DroppedLine, "ok"}, false},
		{"inside a data block", "  dbhost: c2VjcmV0LXBhc3N3b3JkLTEyMw==\n  settings.json: ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp\nkind: Secret\n  other: c2VjcmV0LXBhc3N3b3JkLTEyMw==\n", []string{
			"  dbhost: [REDACTED:k8s-secret-data]",
			"  settings.json: [REDACTED:k8s-secret-data]",
			"kind: Secret",
			"  other: c2VjcmV0LXBhc3N3b3JkLTEyMw==",
		}, true},
		{"a data entry cut at its start", "host: c2VjcmV0LXBhc3N3b3JkLTEyMw==\n  settings.json: ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp\n", []string{
			"host: [REDACTED:k8s-secret-data]",
			"  settings.json: [REDACTED:k8s-secret-data]",
		}, false},
		{"inside a JSON data object", `        "dbhost": "c2VjcmV0LXBhc3N3b3JkLTEyMw==",` + "\n" + `        "settings.json": "ZXlKaGJHY2lPaUpTVXpJMU5pSXNJbXRwWkNJNklp"` + "\n    },\n", []string{
			`        "dbhost": "[REDACTED:k8s-secret-data]",`,
			`        "settings.json": "[REDACTED:k8s-secret-data]"`,
			"    },",
		}, false},
		{"ordinary output", "ok  \texample.com/x\t0.4s\nQv3nT8sLkq0WmZ7yXr2u1bPdFe9cHa4gJiKoN6MtUwVxYz5A0B1C2D3E4F5G6H7\n", []string{
			"ok  \texample.com/x\t0.4s",
			"Qv3nT8sLkq0WmZ7yXr2u1bPdFe9cHa4gJiKoN6MtUwVxYz5A0B1C2D3E4F5G6H7",
		}, true},
		{"a block that starts after the cut", "build done\n" + pemKey, []string{
			"build done",
			"-----BEGIN RSA PRIVATE KEY-----",
			"[REDACTED:private-key]", DroppedLine, DroppedLine, DroppedLine,
			"-----END RSA PRIVATE KEY-----",
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := r.NewLinesAfterCut()
			got := allLines(l, splitLines(c.text))
			require.NoError(t, l.Close())
			require.Equal(t, c.want, got)
			if !c.shows {
				requireNoSecret(t, got)
			}
			// skipping the first lines runs the rule the same way
			l = r.NewLinesAfterCut()
			lines := splitLines(c.text)
			l.Skip([]byte(lines[0]))
			require.Equal(t, c.want[1:], allLines(l, lines[1:]))
			require.NoError(t, l.Close())
		})
	}
}

// Once redaction fails, every line is the failure marker: nothing raw
// gets out.
func TestLinesFailClosed(t *testing.T) {
	r := mustNew(t, Config{})
	r.testHook = func(line []byte) {
		if bytes.Contains(line, []byte("BOOM")) {
			panic("boom")
		}
	}
	l := r.NewLines()
	require.Equal(t, "fine", string(l.Line([]byte("fine"))))
	require.Equal(t, failedLine, string(l.Line([]byte("BOOM ghp_secret"))))
	require.Equal(t, failedLine, string(l.Line([]byte("raw after"))))
	l.Skip([]byte("more"))
	require.Equal(t, failedLine, string(l.Line([]byte("raw again"))))
	require.ErrorIs(t, l.Close(), ErrRedactorFailed)
}
