package redacttest

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

// Case is one case of a redaction corpus file (testdata/redact/*.txt) with
// its templates expanded, as testdata/redact/README.md describes them.
// Both the redactor's own tests and the fault suite (which runs the cases
// through rac run) read the corpus here, so both see the same fake
// secrets: the expansion is seeded by the file's name and the case's.
type Case struct {
	Name     string
	Pos      string   // file:line, for messages
	Env      []string // NAME=value, the environment the case runs with
	In, Out  string
	Secrets  []string // generated secret material that must not reach the output (secrets.txt only)
	NoInline bool     // the case may not be embedded inside another line
}

// LoadCorpus reads and expands the corpus file at path; a file that does
// not parse fails t.
func LoadCorpus(t testing.TB, path string) []Case {
	t.Helper()
	file := filepath.Base(path)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	type raw struct {
		name, pos      string
		env, in, out   []string
		noInline, hasO bool
	}
	var raws []raw
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
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
	var cases []Case
	for _, rc := range raws {
		require.False(t, seen[rc.name], "%s: duplicate case name %q", rc.pos, rc.name)
		seen[rc.name] = true
		require.NotEmpty(t, rc.in, "%s: no input", rc.pos)
		x := newExpander(file + "\x00" + rc.name)
		c := Case{Name: rc.name, Pos: rc.pos, NoInline: rc.noInline || len(rc.in) > 1}
		for _, e := range rc.env {
			name, tmpl, ok := strings.Cut(e, "=")
			require.True(t, ok, "%s: env line %q", rc.pos, e)
			val := x.expand(t, tmpl)
			x.bound["$"+name] = val
			c.Env = append(c.Env, name+"="+val)
		}
		c.In = x.expand(t, strings.Join(rc.in, "\n")) + "\n"
		c.Out = c.In
		if rc.hasO {
			c.Out = x.expand(t, strings.Join(rc.out, "\n")) + "\n"
		}
		if file == "secrets.txt" {
			c.Secrets = x.secrets
		}
		cases = append(cases, c)
	}
	return cases
}

// SurvivalForms are the strings that must not appear in the output for
// one piece of secret material: its central 12 bytes (all of it when
// shorter), raw, JSON-escaped and percent-encoded (query and path
// escaping). A redactor that cut a secret short, or only matched its
// plain form, leaves the middle behind in one of these.
func SurvivalForms(s string) []string {
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
