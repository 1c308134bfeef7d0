package faults

// The secret corpus (testdata/redact/secrets.txt) expanded as
// internal/redact/corpus_test.go expands it: the same placeholders, the
// same seeds, so the same fake secrets. This reader belongs in
// internal/redact/redacttest, shared by both suites (see the report that
// came with this file); until then it mirrors corpus_test.go's.

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
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

// secretCase is one case of the corpus: its input, the environment rac
// runs with, and every piece of secret material in it.
type secretCase struct {
	name    string
	env     []string
	in      string
	secrets []string
}

func loadSecrets(t *testing.T) []secretCase {
	file := "secrets.txt"
	f, err := os.Open(filepath.Join("..", "..", "testdata", "redact", file))
	require.NoError(t, err)
	defer f.Close()
	type raw struct {
		name    string
		env, in []string
	}
	var raws []raw
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			raws = append(raws, raw{name: line[4:]})
		case line == "" || strings.HasPrefix(line, "#") || len(raws) == 0 || line == "opt noinline":
		case strings.HasPrefix(line, "env "):
			raws[len(raws)-1].env = append(raws[len(raws)-1].env, line[4:])
		case line == "<" || strings.HasPrefix(line, "< "):
			raws[len(raws)-1].in = append(raws[len(raws)-1].in, strings.TrimPrefix(line[1:], " "))
		}
	}
	require.NoError(t, sc.Err())
	var cases []secretCase
	for _, rc := range raws {
		x := newExpander(file + "\x00" + rc.name)
		c := secretCase{name: rc.name}
		for _, e := range rc.env {
			name, tmpl, ok := strings.Cut(e, "=")
			require.True(t, ok, "env line %q", e)
			val := x.expand(t, tmpl)
			x.bound["$"+name] = val
			c.env = append(c.env, name+"="+val)
		}
		c.in = x.expand(t, strings.Join(rc.in, "\n")) + "\n"
		c.secrets = x.secrets
		cases = append(cases, c)
	}
	require.NotEmpty(t, cases)
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

func (x *expander) expand(t *testing.T, tmpl string) string {
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
			return "\r"
		default:
			if v, ok := x.bound[g[10]]; ok {
				return v
			}
			return m
		}
	})
}

// survivalForms: the central 12 bytes of a secret (all of it when
// shorter), raw, JSON-escaped and percent-encoded.
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
