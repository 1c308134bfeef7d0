package redacttest

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
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
	Secrets  []string // generated secret material that must not reach the output (secrets.txt and wild.txt only)
	NoInline bool     // the case may not be embedded inside another line
	Class    string   // the class a "# class: NAME" line before the case names ("" when none does)
	Argv     []string // the command line an "argv" line gives (nil when none does): rac run's own argv
}

// LoadCorpus reads and expands the corpus file at path; a file that does
// not parse fails t.
func LoadCorpus(t testing.TB, path string) []Case {
	t.Helper()
	file := filepath.Base(path)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	raws := readRawCases(t, file, f)
	seen := map[string]bool{}
	var cases []Case
	for _, rc := range raws {
		require.False(t, seen[rc.name], "%s: duplicate case name %q", rc.pos, rc.name)
		seen[rc.name] = true
		cases = append(cases, rc.expand(t, file))
	}
	return cases
}

// rawCase is a case as the corpus file writes it, before expansion.
type rawCase struct {
	name, pos      string
	binds, in, out []string // binds: the env and let lines, in file order
	argv           string
	class          string
	noInline, hasO bool
}

// readRawCases parses the corpus file's lines into cases; a line that
// does not parse fails t.
func readRawCases(t testing.TB, file string, r io.Reader) []rawCase {
	t.Helper()
	var raws []rawCase
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	class := ""
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			raws = append(raws, rawCase{name: line[4:], pos: fmt.Sprintf("%s:%d", file, n), class: class})
		case strings.HasPrefix(line, "# class:"):
			class = strings.TrimSpace(strings.TrimPrefix(line, "# class:"))
		case line == "" || strings.HasPrefix(line, "#"):
		case len(raws) == 0:
			t.Fatalf("%s:%d: text before the first case", file, n)
		case line == "opt noinline":
			raws[len(raws)-1].noInline = true
		case strings.HasPrefix(line, "env "), strings.HasPrefix(line, "let "):
			raws[len(raws)-1].binds = append(raws[len(raws)-1].binds, line)
		case strings.HasPrefix(line, "argv "):
			require.Empty(t, raws[len(raws)-1].argv, "%s:%d: a second argv line", file, n)
			raws[len(raws)-1].argv = line[5:]
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
	return raws
}

// expand fills the case's placeholders, with generated values seeded by
// the file and the case's name.
func (rc rawCase) expand(t testing.TB, file string) Case {
	t.Helper()
	require.True(t, len(rc.in) > 0 || rc.argv != "", "%s: no input", rc.pos)
	x := newExpander(file + "\x00" + rc.name)
	c := Case{Name: rc.name, Pos: rc.pos, NoInline: rc.noInline || len(rc.in) > 1, Class: rc.class}
	for _, b := range rc.binds {
		kind, def, _ := strings.Cut(b, " ")
		name, tmpl, ok := strings.Cut(def, "=")
		require.True(t, ok, "%s: %s line %q", rc.pos, kind, b)
		if kind == "let" {
			x.let(t, name, tmpl)
			continue
		}
		val := x.expand(t, tmpl)
		x.bound["$"+name] = val
		c.Env = append(c.Env, name+"="+val)
	}
	if rc.argv != "" {
		c.Argv = splitArgv(x.expand(t, rc.argv))
		require.NotEmpty(t, c.Argv, "%s: empty argv", rc.pos)
	}
	if len(rc.in) > 0 {
		c.In = x.expand(t, strings.Join(rc.in, "\n")) + "\n"
	}
	c.Out = c.In
	if rc.hasO {
		c.Out = x.expand(t, strings.Join(rc.out, "\n")) + "\n"
	}
	if file == "secrets.txt" || file == "wild.txt" {
		c.Secrets = x.secrets
	}
	return c
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
	plain   map[string]bool // bindings that are not secret ({~x=...}, let ~x=...)
	secrets []string
}

func newExpander(seed string) *expander {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return &expander{rng: rand.New(rand.NewPCG(h.Sum64(), 1)), bound: map[string]string{}, plain: map[string]bool{}}
}

// let binds name to the expansion of tmpl, as an env line does but
// without putting it in the environment. The whole value is secret
// material (when it is 8 bytes or more) unless the name starts with ~:
// so a value assembled from short pieces ("{lower:7} {lower:5}") counts
// as one secret.
func (x *expander) let(t testing.TB, name, tmpl string) {
	plain := strings.HasPrefix(name, "~")
	name = strings.TrimPrefix(name, "~")
	require.Regexp(t, `^[a-z]\w*$`, name, "let: a lower-case name")
	v := x.expand(t, tmpl)
	x.bound[name] = v
	x.plain[name] = plain
	if !plain {
		x.secretOnce(v)
	}
}

// secretOnce records s as secret material unless it is already.
func (x *expander) secretOnce(s string) {
	if len(s) >= 8 && !slices.Contains(x.secrets, s) {
		x.secrets = append(x.secrets, s)
	}
}

// fillWords are what {fill:N} repeats: plain words no rule knows.
var fillWords = []string{"lorem", "ipsum", "dolor", "sit", "amet", "build", "step", "layer", "cache", "ok", "done", "row"}

// fill is n bytes of plain words separated by spaces, ending in a space.
func (x *expander) fill(n int) string {
	var b strings.Builder
	b.Grow(n)
	for b.Len() < n {
		w := fillWords[x.rng.IntN(len(fillWords))]
		if b.Len()+len(w)+1 > n {
			w = strings.Repeat("o", n-b.Len()-1)
		}
		b.WriteString(w)
		b.WriteByte(' ')
	}
	return b.String()[:n]
}

// splitArgv splits an argv line on spaces; single quotes keep a word
// with spaces together (and are dropped), as a shell would.
func splitArgv(s string) []string {
	var out []string
	var w strings.Builder
	in, have := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			in, have = !in, true
		case c == ' ' && !in:
			if have {
				out = append(out, w.String())
			}
			w.Reset()
			have = false
		default:
			w.WriteByte(c)
			have = true
		}
	}
	if have {
		out = append(out, w.String())
	}
	return out
}

var (
	placeholderRE = regexp.MustCompile(`\{(~?)(?:([a-z]\w*)=)?(alnum|hex|upper|upnum|lower|alpha|digits|b64|tok|age):(\d+)\}` +
		`|\{(b64of|b64urlof|jsonof|urlof):(\$?\w+)\}|\{lit:([^{}]*)\}|\{dashes\}|\{b64pem:(\d+)\}|\{(esc|cr)\}|\{([a-z]\w*)\}` +
		`|\{([a-z]\w*)\[(\d*):(\d*)\]\}|\{fill:(\d+)\}`)
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
				x.plain[g[2]] = g[1] != ""
			}
			if g[1] == "" {
				x.secret(v)
			}
			return v
		case g[5] != "":
			v, ok := x.bound[g[6]]
			require.True(t, ok, "unbound %q in %q", g[6], tmpl)
			return x.secret(encodeOf(t, g[5], v))
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
		case g[11] != "":
			v, ok := x.bound[g[11]]
			require.True(t, ok, "unbound %q in %q", g[11], tmpl)
			from, to := 0, len(v)
			if g[12] != "" {
				from, _ = strconv.Atoi(g[12])
			}
			if g[13] != "" {
				to, _ = strconv.Atoi(g[13])
			}
			require.True(t, from <= to && to <= len(v), "slice %s out of range of %d bytes", m, len(v))
			if !x.plain[g[11]] {
				x.secretOnce(v[from:to])
			}
			return v[from:to]
		case g[14] != "":
			n, _ := strconv.Atoi(g[14])
			return x.fill(n)
		default:
			if v, ok := x.bound[g[10]]; ok {
				return v
			}
			return m // a brace in the text, not a placeholder
		}
	})
}

// encodeOf encodes v as the placeholder function fn (b64of, b64urlof,
// jsonof, urlof) says.
func encodeOf(t testing.TB, fn, v string) string {
	switch fn {
	case "b64of":
		return base64.StdEncoding.EncodeToString([]byte(v))
	case "b64urlof":
		return base64.URLEncoding.EncodeToString([]byte(v))
	case "jsonof":
		js, err := json.Marshal(v)
		require.NoError(t, err)
		return string(js[1 : len(js)-1])
	default:
		return url.QueryEscape(v)
	}
}
