package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest/regexgen"
	"github.com/stretchr/testify/require"
)

// The differential test holds rac to gitleaks' default rules: what gitleaks
// finds in text made from each rule's expression, and in the examples of
// gitleaks' own rule sources, rac must redact. gitleaks is asked through
// tools/fieldgen, built here, so this package's tests never link it
// and still build where the module cannot be had; there the test skips.

// fieldOracle is the built fieldgen command and the gitleaks module's
// directory.
type fieldOracle struct {
	bin, dir string
}

// gitleaksOracle builds tools/fieldgen, or skips the test where the
// gitleaks module is not in the module cache and cannot be downloaded.
func gitleaksOracle(t *testing.T) *fieldOracle {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gitleaks: not in -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the gitleaks oracle with")
	}
	out, err := exec.Command(goBin, "mod", "download", "-json", fieldSource).Output()
	var info struct{ Dir, Error string }
	if err != nil || json.Unmarshal(out, &info) != nil || info.Dir == "" {
		t.Skipf("the gitleaks module (%s) is not in the module cache and cannot be downloaded: %v %s", fieldSource, err, info.Error)
	}
	bin := filepath.Join(t.TempDir(), "fieldgen")
	msg, err := exec.Command(goBin, "build", "-o", bin, "../../tools/fieldgen").CombinedOutput()
	require.NoError(t, err, "building the gitleaks oracle: %s", msg)
	return &fieldOracle{bin: bin, dir: info.Dir}
}

func (o *fieldOracle) run(t *testing.T, stdin []byte, v any, args ...string) {
	t.Helper()
	cmd := exec.Command(o.bin, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "gen %v: %s", args, stderr.String())
	require.NoError(t, json.Unmarshal(out, v), "gen %v", args)
}

// The oracle's answers (tools/fieldgen's types, which this package does
// not import).
type (
	gitleaksRule struct {
		ID       string
		Regex    string
		Keywords []string
		Path     string
	}
	gitleaksFinding struct {
		Rule               string
		Secret, Match      string
		StartLine, EndLine int
	}
	gitleaksExample struct {
		Rule string
		TP   bool
		Text string
		Path string
	}
	gitleaksText struct {
		Text, Path string
	}
)

func (o *fieldOracle) rules(t *testing.T) []gitleaksRule {
	var rs []gitleaksRule
	o.run(t, nil, &rs, "-rules")
	return rs
}

func (o *fieldOracle) detect(t *testing.T, texts []gitleaksText) [][]gitleaksFinding {
	in, err := json.Marshal(texts)
	require.NoError(t, err)
	var fs [][]gitleaksFinding
	o.run(t, in, &fs, "-detect")
	require.Len(t, fs, len(texts))
	return fs
}

// TestFieldRules holds rac to gitleaks' default rules (see the parts).
func TestFieldRules(t *testing.T) {
	o := gitleaksOracle(t)
	rules := o.rules(t)
	require.GreaterOrEqual(t, len(rules), 200, "gitleaks' default rule set")
	t.Run("TableCurrent", func(t *testing.T) { fieldTableCurrent(t, o) })
	t.Run("Differential", func(t *testing.T) { fieldDifferential(t, o, rules) })
	t.Run("GitleaksExamples", func(t *testing.T) { fieldGitleaksExamples(t, o, rules) })
	t.Run("ManyOnALine", func(t *testing.T) { fieldManyOnALine(t, o, rules) })
}

// fieldTableCurrent fails when fieldrules_table.go is not what the
// generator writes from the gitleaks version go.mod requires.
func fieldTableCurrent(t *testing.T, o *fieldOracle) {
	out := filepath.Join(t.TempDir(), "table.go")
	cmd := exec.Command(o.bin, "-o", out)
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", msg)
	want, err := os.ReadFile(out)
	require.NoError(t, err)
	got, err := os.ReadFile("fieldrules_table.go")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "fieldrules_table.go is stale: run go generate ./internal/redact/")
}

// fieldScopes narrows what a rule's lines must show where gitleaks'
// expression takes more than the rac rule covering it does, on purpose.
// Lines outside are counted, not failed; lines made from expr (which
// gitleaks must find too) are all in.
var fieldScopes = map[string]struct {
	in   func(line string) bool
	expr string
	why  string
}{
	"private-key": {
		in:   regexp.MustCompile(`^-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=]{64,}-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----$`).MatchString,
		expr: `-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----[A-Za-z0-9+/]{64,100}={0,2}-----END (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----`,
		why:  "rac's private-key rule takes PEM as it is written (upper-case BEGIN and END lines around a base64 body, kept while the body goes); gitleaks' expression takes any case, any bytes as the body and KEY----- alone as the end",
	},
	"slack-webhook-url": {
		in:  regexp.MustCompile(`hooks\.slack\.com/`).MatchString,
		why: "rac's slack-webhook rule takes the host as it is written; gitleaks' expression lets each dot of hooks.slack.com be any byte",
	},
	"vault-service-token": {
		in:  regexp.MustCompile(`\bhvs\.`).MatchString,
		why: "mapped to vault-token, which takes hvs. tokens; the legacy s. form's two-byte literal would be a hit at every \"s.\" in output",
	},
	"generic-api-key": {
		in:   func(string) bool { return false },
		expr: `(?:export )?(?:API_KEY|api_token|SECRET_KEY|client_secret|AUTH_TOKEN|password|db_password|accessToken)(?:=| = |: |=")[A-Za-z0-9]{24,40}`,
		why:  "mapped, not carried: its keywords are in most lines of output and its expression has no literal to start from; rac's secret-assignment rule takes NAME=VALUE, NAME: VALUE and \"name\": \"value\" whose name has a secret word, which the lines made from expr show, but not a value after any of its other operators (, > || ?=) or after a name without one",
	},
}

// fieldRedactBoth redacts text as a stream (the write path) and as a
// short string (argv, summaries), which take different paths.
func fieldRedactBoth(t *testing.T, r *Redactor, text string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	w := r.NewWriterOptions(&buf, WriterOptions{Workers: 1})
	_, err := io.WriteString(w, text)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.String(), r.String(text)
}

// secretSurvives reports whether out, the redaction of in, still holds
// the secret: all of it, or, for a long one, any half of it more often
// than in holds that half outside the secret (a rac rule whose span is
// narrower than gitleaks' secret keeps a header or a host, never half a
// token; the name a value is assigned to may hold part of it).
func secretSurvives(in, out, secret string) bool {
	if strings.Contains(out, secret) {
		return true
	}
	if len(secret) < 16 {
		return false
	}
	rest := strings.ReplaceAll(in, secret, "\x00")
	n := (len(secret) + 1) / 2
	for i := 0; i+n <= len(secret); i++ {
		if w := secret[i : i+n]; strings.Count(out, w) > strings.Count(rest, w) {
			return true
		}
	}
	return false
}

// fieldSecretPart is what of gitleaks' secret rac redacts: for a
// user:password (fieldSpanAfterColon), the password, or the user where
// there is none; else all of it.
func fieldSecretPart(id, secret string) string {
	for _, f := range fieldTable {
		if f.id == id && f.span == fieldSpanAfterColon {
			inner := strings.Trim(secret, `"'`)
			if user, pass, ok := strings.Cut(inner, ":"); ok {
				if pass = strings.Trim(pass, `"'`); pass != "" {
					return pass
				}
				return user
			}
			return inner
		}
	}
	return secret
}

func fieldSeed(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}

// fieldExamples makes up to n lines each of which expr matches, from a
// seed of the rule's id. Half spell case-insensitive literals in random
// case. A line holds a keyword, as gitleaks needs: when the match need
// not, one is put before it.
func fieldExamples(t *testing.T, gr gitleaksRule, expr string, n int) []string {
	re := regexp.MustCompile(expr)
	rng := rand.New(rand.NewPCG(fieldSeed(gr.ID), 2))
	g, err := regexgen.New(expr, rng)
	require.NoError(t, err)
	var out []string
	seen := map[string]bool{}
	for try := 0; try < 50*n && len(out) < n; try++ {
		g.FoldCase = try%2 == 1
		s, ok := g.Generate()
		if !ok || !re.MatchString(s) {
			continue
		}
		low := strings.ToLower(s)
		hasKW := len(gr.Keywords) == 0
		for _, k := range gr.Keywords {
			hasKW = hasKW || strings.Contains(low, k)
		}
		if !hasKW {
			s = gr.Keywords[0] + " " + s
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// fieldPath makes a file name gitleaks applies a path-restricted rule to.
func fieldPath(t *testing.T, gr gitleaksRule) string {
	if gr.Path == "" {
		return ""
	}
	re := regexp.MustCompile(gr.Path)
	g, err := regexgen.New(gr.Path, rand.New(rand.NewPCG(fieldSeed(gr.ID), 3)))
	require.NoError(t, err)
	for range 100 {
		if s, ok := g.Generate(); ok && re.MatchString("src/x"+s) {
			return "src/x" + s
		}
	}
	t.Fatalf("%s: no file name for %s", gr.ID, gr.Path)
	return ""
}

type fieldCoverage struct {
	id, how         string
	made, found     int
	redacted, scope int
	narrower        int // native: lines the rac rule takes narrower than gitleaks' expression
	failures, notes []string
}

// fieldDifferential: for every default rule, lines made from its
// expression that gitleaks reports come out of rac without the secret
// gitleaks reports, and redacting them again changes nothing.
func fieldDifferential(t *testing.T, o *fieldOracle, rules []gitleaksRule) {
	how := map[string]string{}
	for _, f := range fieldTable {
		how[f.id] = "carried"
	}
	for _, m := range fieldNative {
		how[m.id] = "native " + m.native
	}
	for _, s := range fieldSkipped {
		how[s.id] = "skipped: " + s.why
	}
	r, err := New(Config{})
	require.NoError(t, err)
	for _, m := range fieldNative {
		require.True(t, slices.ContainsFunc(r.rules, func(cr compiledRule) bool { return cr.id == m.native }),
			"%s is mapped to rac's %s, which rac does not have (tools/fieldgen/decisions.go)", m.id, m.native)
	}

	const perRule = 12
	var texts []gitleaksText
	var owner []int
	var extra []bool // made from the scope's expression
	cov := make([]fieldCoverage, len(rules))
	for i, gr := range rules {
		cov[i] = fieldCoverage{id: gr.ID, how: how[gr.ID]}
		require.NotEmpty(t, cov[i].how, "gitleaks rule %s is neither carried, native nor skipped: regenerate the table", gr.ID)
		if gr.Regex == "" {
			continue
		}
		path := fieldPath(t, gr)
		for _, ex := range fieldExamples(t, gr, gr.Regex, perRule) {
			texts = append(texts, gitleaksText{ex, path})
			owner = append(owner, i)
			extra = append(extra, false)
			cov[i].made++
		}
		if sc, ok := fieldScopes[gr.ID]; ok && sc.expr != "" {
			for _, ex := range fieldExamples(t, gr, sc.expr, perRule) {
				texts = append(texts, gitleaksText{ex, path})
				owner = append(owner, i)
				extra = append(extra, true)
				cov[i].made++
			}
		}
	}
	findings := o.detect(t, texts)
	for k, text := range texts {
		c := &cov[owner[k]]
		var own []gitleaksFinding
		for _, f := range findings[k] {
			if f.Rule == c.id {
				own = append(own, f)
			}
		}
		if len(own) == 0 {
			continue // gitleaks rejects it: entropy, an allowlist, a boundary
		}
		c.found++
		if sc, ok := fieldScopes[c.id]; ok && !extra[k] && !sc.in(text.Text) {
			c.scope++
			continue
		}
		stream, short := fieldRedactBoth(t, r, text.Text)
		if again, _ := fieldRedactBoth(t, r, stream); again != stream {
			t.Errorf("%s: redacting rac's output again changes it:\n\t%q\n\t%q", c.id, stream, again)
		}
		ok := true
		for _, f := range own {
			if sec := fieldSecretPart(f.Rule, f.Secret); secretSurvives(text.Text, stream, sec) || secretSurvives(text.Text, short, sec) {
				ok = false
			}
		}
		switch {
		case ok:
			c.redacted++
		case strings.HasPrefix(c.how, "native") && !extra[k]:
			// The rac rule a gitleaks rule is mapped to takes less than
			// gitleaks' expression: a failure like any other, counted
			// apart because its fix is a choice (widen rac's rule, or carry
			// gitleaks' rule: tools/fieldgen/decisions.go).
			c.narrower++
			if c.narrower <= 2 {
				c.notes = append(c.notes, fmt.Sprintf("%q -> %q", text.Text, stream))
			}
		default:
			c.failures = append(c.failures, fmt.Sprintf("%q\n\tsecret %q\n\tstream %q\n\tstring %q", text.Text, own[0].Secret, stream, short))
		}
	}
	var report strings.Builder
	fmt.Fprintf(&report, "%-48s %-28s %5s %5s %5s %5s %5s\n", "gitleaks rule", "in rac", "made", "found", "gone", "scope", "narrow")
	totals := fieldCoverage{}
	for _, c := range cov {
		how := c.how
		if strings.HasPrefix(how, "skipped") {
			how = "skipped"
		}
		fmt.Fprintf(&report, "%-48s %-28s %5d %5d %5d %5d %5d\n", c.id, how, c.made, c.found, c.redacted, c.scope, c.narrower)
		totals.made += c.made
		totals.found += c.found
		totals.redacted += c.redacted
		totals.scope += c.scope
		totals.narrower += c.narrower
	}
	fmt.Fprintf(&report, "%-48s %-28s %5d %5d %5d %5d %5d\n", "total", "", totals.made, totals.found, totals.redacted, totals.scope, totals.narrower)
	report.WriteString("(made: lines made from the expression; found: gitleaks reports the rule; gone: rac leaves none of the secret; " +
		"scope: outside what a rac rule takes on purpose, below; narrow: not gone because the rac rule it is mapped to is narrower, a failure)\n")
	for _, c := range cov {
		for _, n := range c.notes {
			fmt.Fprintf(&report, "narrower, %s (%s): %s\n", c.id, c.how, n)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(fieldScopes)) {
		fmt.Fprintf(&report, "scope of %s: %s\n", id, fieldScopes[id].why)
	}
	t.Log("\n" + report.String())
	for _, c := range cov {
		if strings.HasPrefix(c.how, "skipped") {
			continue
		}
		if c.found == c.scope {
			t.Errorf("%s: of the %d lines made from its expression, gitleaks found none that rac is to redact", c.id, c.made)
		}
		for _, f := range c.failures[:min(len(c.failures), 3)] {
			t.Errorf("%s (%s): the secret survives in\n\t%s", c.id, c.how, f)
		}
		if c.narrower > 0 {
			t.Errorf("%s (%s): the rac rule it is mapped to leaves %d of the lines made from its expression unredacted, "+
				"for example %s; widen that rule or carry gitleaks' rule (tools/fieldgen/decisions.go)",
				c.id, c.how, c.narrower, strings.Join(c.notes, ", "))
		}
	}
}

// fieldManyOnALine: one line holding many matches of a rule, far apart,
// close together and past the long-line threshold, loses every secret
// gitleaks finds in it. The rules that search near a hit settle stretches
// of the line for the hits that follow (fieldSettle); a settled stretch
// must hold every match they could be part of.
func fieldManyOnALine(t *testing.T, o *fieldOracle, rules []gitleaksRule) {
	r, err := New(Config{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 6))
	byID := map[string]gitleaksRule{}
	for _, gr := range rules {
		byID[gr.ID] = gr
	}
	var texts []gitleaksText
	for i, f := range fieldTable {
		if f.mode == fieldAnchored && i%8 != 0 {
			continue // every searching rule, an eighth of the anchored ones
		}
		ex := fieldExamples(t, byID[f.id], byID[f.id].Regex, 40)
		for _, gap := range []int{0, 300, 3000} {
			var b strings.Builder
			for _, e := range ex {
				b.WriteString(e)
				b.WriteString(" ")
				for range rng.IntN(gap + 1) {
					b.WriteByte(" ,;|"[rng.IntN(4)])
				}
			}
			texts = append(texts, gitleaksText{Text: b.String(), Path: fieldPath(t, byID[f.id])})
		}
	}
	findings := o.detect(t, texts)
	checked := 0
	for k, text := range texts {
		stream, short := fieldRedactBoth(t, r, text.Text)
		for _, f := range findings[k] {
			if sec := fieldSecretPart(f.Rule, f.Secret); f.Secret != "" && !strings.Contains(f.Match, "\n") {
				checked++
				if secretSurvives(text.Text, stream, sec) || secretSurvives(text.Text, short, sec) {
					t.Errorf("%s: the secret %q survives on a line of %d bytes", f.Rule, f.Secret, len(text.Text))
				}
			}
		}
	}
	require.Greater(t, checked, 1000, "too few secrets on the lines")
	t.Logf("%d lines, %d secrets gitleaks finds on them, all gone", len(texts), checked)
}

var markerRE = regexp.MustCompile(`\[REDACTED:([A-Za-z0-9:._-]+)\]`)

// fieldGitleaksExamples: the true and false positive examples of
// gitleaks' own rule sources. A secret gitleaks finds on one line must not
// survive rac; one it finds across lines is counted (no rac rule matches
// across a newline). False positives rac redacts are reported with the
// rule that did, and a field rule must never redact a false positive of
// its own gitleaks rule.
func fieldGitleaksExamples(t *testing.T, o *fieldOracle, rules []gitleaksRule) {
	var ex struct {
		Examples []gitleaksExample
		Unread   int
	}
	o.run(t, nil, &ex, "-examples", o.dir)
	require.GreaterOrEqual(t, len(ex.Examples), 1000)
	texts := make([]gitleaksText, len(ex.Examples))
	for i, e := range ex.Examples {
		texts[i] = gitleaksText{e.Text, e.Path}
	}
	findings := o.detect(t, texts)
	r, err := New(Config{})
	require.NoError(t, err)
	pathRE := map[string]*regexp.Regexp{}
	for _, gr := range rules {
		if gr.Path != "" {
			pathRE[gr.ID] = regexp.MustCompile(gr.Path)
		}
	}

	how := map[string]fieldMode{}
	keywords := map[string][]string{}
	for _, f := range fieldTable {
		how[f.id] = f.mode
		keywords[f.id] = f.keywords
	}
	skipped := map[string]bool{}
	for _, sk := range fieldSkipped {
		skipped[sk.id] = true
	}
	var tp, tpFound, tpMulti, tpGone, tpElsewhere, tpScope, fp, fpRedacted int
	byRule := map[string]int{}
	var fpLines, scopeLines []string
	for i, e := range ex.Examples {
		stream, short := fieldRedactBoth(t, r, e.Text)
		if !e.TP {
			fp++
			if stream != e.Text {
				fpRedacted++
				var ids []string
				for _, m := range markerRE.FindAllStringSubmatch(stream, -1) {
					ids = append(ids, m[1])
				}
				ids = slices.Compact(slices.Sorted(slices.Values(ids)))
				// A false positive for its file name alone is one rac, which
				// sees no file names, takes by design.
				byPath := e.Path != "" && pathRE[e.Rule] != nil && !pathRE[e.Rule].MatchString(e.Path)
				for _, id := range ids {
					byRule[id]++
					if id == "gitleaks:"+e.Rule && !byPath {
						t.Errorf("%s redacts a false positive of its own gitleaks rule: %q -> %q", id, e.Text, stream)
					}
				}
				note := ""
				if byPath {
					note = " (false positive for its file name, " + e.Path + ")"
				}
				fpLines = append(fpLines, fmt.Sprintf("%-36s %-40s %q%s", e.Rule, strings.Join(ids, ","), fieldClip(e.Text), note))
			}
			continue
		}
		tp++
		if skipped[e.Rule] {
			continue
		}
		var own []gitleaksFinding
		for _, f := range findings[i] {
			if f.Rule == e.Rule && f.Secret != "" {
				own = append(own, f)
			}
		}
		if len(own) == 0 {
			continue
		}
		tpFound++
		switch {
		case slices.ContainsFunc(own, func(f gitleaksFinding) bool { return strings.Contains(f.Match, "\n") }):
			// No rac rule matches across a newline.
			tpMulti++
			continue
		case how[e.Rule] == fieldContext && !slices.ContainsFunc(own, func(f gitleaksFinding) bool { return fieldKeywordNear(e.Text, f.Secret, keywords[e.Rule]) }):
			// rac needs the keyword on the secret's line.
			tpElsewhere++
			continue
		}
		if sc, ok := fieldScopes[e.Rule]; ok && !sc.in(e.Text) {
			tpScope++
			if secretSurvives(e.Text, stream, own[0].Secret) {
				scopeLines = append(scopeLines, fmt.Sprintf("%-24s %q", e.Rule, fieldClip(e.Text)))
			}
			continue
		}
		gone := true
		for _, f := range own {
			if sec := fieldSecretPart(f.Rule, f.Secret); secretSurvives(e.Text, stream, sec) || secretSurvives(e.Text, short, sec) {
				gone = false
				t.Errorf("%s: gitleaks' own true positive keeps its secret %q:\n\t%q\n\tstream %q\n\tstring %q", e.Rule, f.Secret, e.Text, stream, short)
			}
		}
		if gone {
			tpGone++
		}
	}
	sort.Strings(fpLines)
	var counts []string
	for id, n := range byRule {
		counts = append(counts, fmt.Sprintf("%s %d", id, n))
	}
	sort.Strings(counts)
	t.Logf("gitleaks' examples: %d read, %d unreadable (built by helpers the oracle does not run)", len(ex.Examples), ex.Unread)
	t.Logf("true positives: %d, gitleaks finds %d; rac redacts %d; not compared: %d span lines, %d have the keyword on another line, %d outside a mapped rule's scope (%d of them kept: %s)",
		tp, tpFound, tpGone, tpMulti, tpElsewhere, tpScope, len(scopeLines), strings.Join(scopeLines, "; "))
	t.Logf("false positives: %d, rac redacts something in %d; by rule: %s", fp, fpRedacted, strings.Join(counts, ", "))
	t.Log("false positives rac redacts (gitleaks rule, rac rules, text):\n" + strings.Join(fpLines, "\n"))
}

// fieldKeywordNear reports whether a keyword is on the secret's line.
func fieldKeywordNear(text, secret string, keywords []string) bool {
	i := strings.Index(text, secret)
	if i < 0 {
		return false
	}
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := len(text)
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		end = i + j
	}
	line := strings.ToLower(text[start:end])
	return slices.ContainsFunc(keywords, func(k string) bool { return strings.Contains(line, k) })
}

func fieldClip(s string) string {
	if len(s) > 140 {
		return s[:140] + "..."
	}
	return s
}

// BenchmarkNew is what every rac start pays for the rule set (the field
// rules' expressions are compiled on their first hit, never here), and,
// as first-output, what the first line of output adds: the automaton over
// every literal.
func BenchmarkNew(b *testing.B) {
	env := []string{"HOME=/home/dev", "PATH=/usr/local/bin:/usr/bin:/bin", "GH_TOKEN=not-in-the-corpus-0123456789"}
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := New(Config{Environ: env}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("first-output", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := New(Config{Environ: env})
			if err != nil {
				b.Fatal(err)
			}
			r.auto()
		}
	})
}

// TestContainsFoldMatchesBytes compares containsFold's eight-byte steps
// with the byte-by-byte walk for every need string of the field table, at
// every place in windows of both cases, with bytes one above the first
// byte's spellings (which the steps may flag) and across step boundaries.
func TestContainsFoldMatchesBytes(t *testing.T) {
	var needs []string
	for i := range fieldTable {
		for _, set := range fieldTable[i].need {
			needs = append(needs, set...)
		}
	}
	needs = append(needs, "a", "z", "0x", "-_", "@[", "`{")
	for _, s := range needs {
		up := strings.ToUpper(s)
		for n := 0; n <= 20; n++ {
			for _, fill := range []byte{'.', s[0] + 1, s[0] - 1, s[0] ^ 0x20, 0} {
				for _, w := range []string{s, up, s[:len(s)-1], up[:len(up)-1]} {
					b := append(bytes.Repeat([]byte{fill}, n), w...)
					b = append(b, bytes.Repeat([]byte{fill}, 20-n)...)
					for lo := 0; lo <= len(b); lo += 3 {
						for hi := lo; hi <= len(b); hi += 5 {
							if got, want := containsFold(b[lo:hi], s), containsFoldBytes(b[lo:hi], s); got != want {
								t.Fatalf("containsFold(%q, %q) = %v, want %v", b[lo:hi], s, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// FuzzContainsFold compares containsFold with containsFoldBytes on any
// bytes and any need string.
func FuzzContainsFold(f *testing.F) {
	f.Add([]byte("GITHUB_TOKEN=ghp_x"), "ghp_")
	f.Add([]byte("\x01\x00Aa@`{["), "a")
	f.Fuzz(func(t *testing.T, b []byte, s string) {
		if s == "" {
			return
		}
		if got, want := containsFold(b, s), containsFoldBytes(b, s); got != want {
			t.Fatalf("containsFold(%q, %q) = %v, want %v", b, s, got, want)
		}
	})
}
