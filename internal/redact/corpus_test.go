package redact

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A corpusCase is one case of testdata/redact/*.txt with its templates
// expanded (see testdata/redact/README.md).
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
	f, err := os.Open(filepath.Join(corpusDir, file))
	require.NoError(t, err)
	defer f.Close()
	type raw struct {
		name, pos      string
		env, in, out   []string
		noInline, hasO bool
	}
	var raws []raw
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			raws = append(raws, raw{name: line[4:], pos: fmt.Sprintf("%s:%d", file, n)})
		case line == "" || strings.HasPrefix(line, "#"):
		case len(raws) == 0:
			t.Fatalf("%s:%d: text before the first case", file, n)
		case line == "opt noinline":
			raws[len(raws)-1].noInline = true
		case strings.HasPrefix(line, "env "):
			raws[len(raws)-1].env = append(raws[len(raws)-1].env, line[4:])
		case line == "<" || strings.HasPrefix(line, "< "):
			raws[len(raws)-1].in = append(raws[len(raws)-1].in, strings.TrimPrefix(line[1:], " "))
		case line == ">" || strings.HasPrefix(line, "> "):
			raws[len(raws)-1].out = append(raws[len(raws)-1].out, strings.TrimPrefix(line[1:], " "))
			raws[len(raws)-1].hasO = true
		default:
			t.Fatalf("%s:%d: cannot parse %q", file, n, line)
		}
	}
	require.NoError(t, sc.Err())
	seen := map[string]bool{}
	var cases []corpusCase
	for _, rc := range raws {
		require.False(t, seen[rc.name], "%s: duplicate case name %q", rc.pos, rc.name)
		seen[rc.name] = true
		require.NotEmpty(t, rc.in, "%s: no input", rc.pos)
		x := newExpander(file + "\x00" + rc.name)
		c := corpusCase{name: rc.name, pos: rc.pos, noInline: rc.noInline || len(rc.in) > 1}
		for _, e := range rc.env {
			name, tmpl, ok := strings.Cut(e, "=")
			require.True(t, ok, "%s: env line %q", rc.pos, e)
			val := x.expand(t, tmpl)
			x.bound["$"+name] = val
			c.env = append(c.env, name+"="+val)
		}
		c.in = x.expand(t, strings.Join(rc.in, "\n")) + "\n"
		c.out = c.in
		if rc.hasO {
			c.out = x.expand(t, strings.Join(rc.out, "\n")) + "\n"
		}
		if file == "secrets.txt" {
			c.secrets = x.secrets
		}
		cases = append(cases, c)
	}
	return cases
}

type expander struct {
	rng     *rand.Rand
	bound   map[string]string
	secrets []string
}

func newExpander(seed string) *expander {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return &expander{rng: rand.New(rand.NewPCG(h.Sum64(), 1)), bound: map[string]string{}}
}

var (
	placeholderRE = regexp.MustCompile(`\{(~?)(?:([a-z]\w*)=)?(alnum|hex|upper|upnum|lower|alpha|digits|b64|tok|age):(\d+)\}` +
		`|\{(b64of|b64urlof|jsonof|urlof):(\$?\w+)\}|\{lit:([^{}]*)\}|\{dashes\}|\{b64pem:(\d+)\}|\{(esc|cr)\}|\{([a-z]\w*)\}`)
	alphabets = map[string]string{
		"alnum":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		"hex":    "0123456789abcdef",
		"upper":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
		"upnum":  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		"lower":  "abcdefghijklmnopqrstuvwxyz",
		"alpha":  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
		"digits": "0123456789",
		"b64":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
		"tok":    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
		"age":    "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
	}
)

func (x *expander) gen(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[x.rng.IntN(len(alphabet))]
	}
	return string(b)
}

func (x *expander) secret(s string) string {
	if len(s) >= 8 {
		x.secrets = append(x.secrets, s)
	}
	return s
}

func (x *expander) expand(t testing.TB, tmpl string) string {
	return placeholderRE.ReplaceAllStringFunc(tmpl, func(m string) string {
		g := placeholderRE.FindStringSubmatch(m)
		switch {
		case g[3] != "":
			n, _ := strconv.Atoi(g[4])
			v := x.gen(alphabets[g[3]], n)
			if g[2] != "" {
				x.bound[g[2]] = v
			}
			if g[1] == "" {
				x.secret(v)
			}
			return v
		case g[5] != "":
			v, ok := x.bound[g[6]]
			require.True(t, ok, "unbound %q in %q", g[6], tmpl)
			switch g[5] {
			case "b64of":
				return x.secret(base64.StdEncoding.EncodeToString([]byte(v)))
			case "b64urlof":
				return x.secret(base64.URLEncoding.EncodeToString([]byte(v)))
			case "jsonof":
				js, err := json.Marshal(v)
				require.NoError(t, err)
				return x.secret(string(js[1 : len(js)-1]))
			default:
				return x.secret(url.QueryEscape(v))
			}
		case strings.HasPrefix(m, "{lit:"):
			return g[7]
		case m == "{dashes}":
			return "-----"
		case g[8] != "":
			n, _ := strconv.Atoi(g[8])
			body := x.gen(alphabets["alnum"], n)
			pem := "-----BEGIN RSA " + "PRIVATE KEY-----\n" + body
			x.secret(body)
			return x.secret(base64.StdEncoding.EncodeToString([]byte(pem)))
		case g[9] == "esc":
			return "\x1b"
		case g[9] == "cr":
			return "\r" // the corpus reader drops a CR that ends a line
		default:
			if v, ok := x.bound[g[10]]; ok {
				return v
			}
			return m // a brace in the text, not a placeholder
		}
	})
}

// survivalForms are the strings that must not appear in the output for one
// piece of secret material: its central 12 bytes (all of it when shorter),
// raw, JSON-escaped and percent-encoded (query and path escaping). A
// redactor that cut a secret short, or only matched its plain form, leaves
// the middle behind in one of these.
func survivalForms(s string) []string {
	mid := s
	if len(s) > 12 {
		k := (len(s) - 12) / 2
		mid = s[k : k+12]
	}
	js, _ := json.Marshal(mid)
	forms := []string{mid}
	for _, f := range []string{string(js[1 : len(js)-1]), url.QueryEscape(mid), url.PathEscape(mid)} {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	return forms
}

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
