package redact

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// corpusCase is a case of testdata/redact/*.txt as redacttest.LoadCorpus
// expands it (the fault suite reads the same cases there).
type corpusCase struct {
	name     string
	pos      string // file:line, for messages
	env      []string
	in, out  string
	secrets  []string // generated secret material that must not reach the output
	noInline bool
}

var corpusDir = filepath.Join("..", "..", "testdata", "redact")

func loadCorpus(t testing.TB, file string) []corpusCase {
	t.Helper()
	var cases []corpusCase
	for _, c := range redacttest.LoadCorpus(t, filepath.Join(corpusDir, file)) {
		cases = append(cases, corpusCase{name: c.Name, pos: c.Pos, env: c.Env, in: c.In, out: c.Out, secrets: c.Secrets, noInline: c.NoInline})
	}
	return cases
}

// survivalForms: see redacttest.SurvivalForms.
func survivalForms(s string) []string { return redacttest.SurvivalForms(s) }

// requireNoSurvivor fails when any secret material of c survives in got.
func requireNoSurvivor(t testing.TB, got string, c corpusCase) {
	t.Helper()
	for _, s := range c.secrets {
		for _, f := range survivalForms(s) {
			if strings.Contains(got, f) {
				t.Fatalf("%s: secret material %q survived as %q in %q", c.pos, s, f, got)
			}
		}
	}
}

func newCaseRedactor(t testing.TB, c corpusCase) *Redactor {
	t.Helper()
	r, err := New(Config{Environ: c.env})
	require.NoError(t, err)
	return r
}

func TestCorpusSecrets(t *testing.T) {
	cases := loadCorpus(t, "secrets.txt")
	require.GreaterOrEqual(t, len(cases), 40, "the corpus must hold at least 40 fake secrets")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newCaseRedactor(t, c)
			got := r.String(c.in)
			require.Equal(t, c.out, got, "%s", c.pos)
			require.NotEqual(t, c.in, got, "%s: nothing was redacted", c.pos)
			require.NotEmpty(t, c.secrets, "%s: the case generates no secret material", c.pos)
			requireNoSurvivor(t, got, c)
			// Idempotent: redacting the output again changes nothing.
			require.Equal(t, got, r.String(got), "%s: markers are redacted again", c.pos)
		})
	}
}

func TestCorpusClean(t *testing.T) {
	cases := loadCorpus(t, "clean.txt")
	require.GreaterOrEqual(t, len(cases), 40, "the corpus must hold at least 40 tricky non-secrets")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newCaseRedactor(t, c)
			w := r.NewWriterOptions(&strings.Builder{}, WriterOptions{Workers: 1})
			_, err := w.Write([]byte(c.in))
			require.NoError(t, err)
			require.NoError(t, w.Close())
			require.Equal(t, c.out, r.String(c.in), "%s", c.pos)
			if c.out == c.in {
				require.Empty(t, w.Counts(), "%s", c.pos)
			}
		})
	}
}

// The case names make the marker ids of the secrets file checkable too: every
// built-in rule id except the ones that need the environment appears.
func TestCorpusCoversRules(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range loadCorpus(t, "secrets.txt") {
		for _, m := range regexp.MustCompile(`\[REDACTED:([^\]]+)\]`).FindAllStringSubmatch(c.out, -1) {
			seen[m[1]] = true
		}
	}
	for _, rl := range builtinRules() {
		require.True(t, seen[rl.id], "no corpus case produces [REDACTED:%s]", rl.id)
	}
}
