package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Config is plain data; the CLI fills it from the environment and config file.
type Config struct {
	Environ  []string   // rac's own environment, "NAME=VALUE" entries; values of secret-named vars become literals
	EnvNames []string   // extra variable names to treat as secret (config redact.env_names)
	Rules    []RuleSpec // extra team rules (config redact.rules)
	Allow    []string   // allow-list: exact strings never redacted (config redact.allow)
}

// RuleSpec is a team's own token shape.
type RuleSpec struct {
	Name    string // marker id: [REDACTED:<Name>]
	Prefix  string // required literal prefix (prefilter literal), matched case-sensitively
	Pattern string // RE2 regexp matched anchored at the prefix on the line; whole match is the secret span
}

// ErrRedactorFailed is wrapped by the error a Writer returns once redaction
// itself has failed and the Writer has stopped writing.
var ErrRedactorFailed = errors.New("redactor failed")

// MinEnvValueLen is the shortest environment value treated as a secret:
// shorter ones (1, true, dev) would redact ordinary words everywhere.
const MinEnvValueLen = 8

// Redactor holds a compiled rule set. It is immutable and safe for
// concurrent use; each stream gets its own Writer.
type Redactor struct {
	rules    []compiledRule
	pats     []string  // literals, original case
	patRules [][]int32 // rules to verify for each literal
	patLens  []int32   // len(pats[i])
	folded   []string  // pats, ASCII-folded, for the short-string path
	// authLit is the literal "auth" when secret-assignment is its only rule,
	// else -1: a hit of it inside an Author word is skipped (see authorWord).
	authLit int32
	// nameLit marks the literals whose only rules are matchAssignment and
	// matchFlagWord, which quietName can rule out without the line.
	nameLit []bool
	// mayQuiet: nameLit or authLit, the literals quietHit may pass over.
	mayQuiet []bool
	// nameSkip is, per literal, how many of its bytes quietName may step
	// over on its walk to the end of the name that holds a hit: its length
	// when every byte of it is a name byte (and it is shorter than the
	// longest name, 128), else 0.
	nameSkip []int32

	// The automaton over every literal is built on first use: a short
	// string (argv, cwd) is scanned with one over just the literals it
	// holds, so rac run starts the command without paying for the whole
	// table, and a command with no output never builds it.
	acOnce  sync.Once
	acFull  *automaton
	markers [][]byte
	// markerNL: a marker holds a newline (an environment variable's name
	// may), so a redacted region's newlines are not its input's less the
	// lines it dropped (changedNL).
	markerNL bool
	allow    map[string]struct{}

	privateKeyRule int32
	kubeRule       int32
	engines        sync.Pool

	// testHook runs before every line a Writer redacts; tests use it to make
	// redaction fail.
	testHook func(line []byte)
	// noLineCache turns the line cache (linecache.go) off, for the tests
	// that compare the redactor with and without it.
	noLineCache bool
}

type compiledRule struct {
	rule
	body        *byteSet // shared by the rules of one alphabet
	trim        *byteSet
	re          *regexp.Regexp
	extraPrefix string
	lb          bool
}

// ruleNameRE is compiled on first use: start-up must not pay for it.
var ruleNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`) })

// New compiles the built-in rules, the team's extra rules and the literals
// taken from the environment. An extra rule that cannot be compiled is an
// error naming it: a silently weaker redactor is worse than none.
func New(cfg Config) (*Redactor, error) {
	r := &Redactor{privateKeyRule: -1, kubeRule: -1, authLit: -1}
	// the hand-written table, the secret-flag rules (a flag and its value
	// in echoed command lines), the rules carried over from the field's
	// common rule set (gitleaks' defaults), and the user's own secret
	// names (redact.env_names) as assignment names
	builtin := slices.Concat(builtinRules(), flagRules(), fieldRules(), envNameRules(cfg.EnvNames))
	// sized once: New runs on every rac start, and a cold process pays for
	// every page it touches
	r.rules = make([]compiledRule, 0, len(builtin)+len(cfg.Rules)+len(cfg.EnvNames)+8)
	lits := newLiteralTable(builtin, len(cfg.Rules))
	r.addBuiltins(builtin, lits)
	for _, spec := range cfg.Rules {
		cr, err := compileExtra(spec)
		if err != nil {
			return nil, err
		}
		ri := int32(len(r.rules))
		r.rules = append(r.rules, cr)
		lits.add(strings.ToLower(spec.Prefix), ri)
	}
	if len(cfg.Allow) > 0 {
		r.allow = make(map[string]struct{}, len(cfg.Allow))
		for _, a := range cfg.Allow {
			if a != "" {
				r.allow[a] = struct{}{}
			}
		}
	}
	r.addEnvLiterals(envLiterals(cfg, r.allow), lits)
	r.setPatterns(lits)
	r.setMarkers()
	r.engines.New = func() any { return newEngine(r) }
	return r, nil
}

// literalTable maps each literal the automaton looks for to the rules it
// starts, in the order the literals were first added.
type literalTable struct {
	rules map[string][]int32
	order []string
}

// newLiteralTable is sized once for every literal of the table and nextra
// extra rules: a map that grows rehashes on the start-up path of every rac
// run.
func newLiteralTable(builtin []rule, nextra int) *literalTable {
	nlits := nextra
	for _, rl := range builtin {
		nlits += len(rl.literals)
		if rl.shape != nil {
			nlits += len(rl.shape.prefixes)
		}
	}
	return &literalTable{rules: make(map[string][]int32, nlits), order: make([]string, 0, nlits)}
}

func (t *literalTable) add(lit string, ri int32) {
	if _, seen := t.rules[lit]; !seen {
		t.order = append(t.order, lit)
	}
	t.rules[lit] = append(t.rules[lit], ri)
}

// addBuiltins compiles the built-in rules: their byte sets (one per
// distinct spec), their literals, and the rules the engine reaches by
// index.
func (r *Redactor) addBuiltins(builtin []rule, lits *literalTable) {
	sets := map[string]*byteSet{}
	set := func(spec string) *byteSet {
		s, ok := sets[spec]
		if !ok {
			v := mkset(spec)
			s = &v
			sets[spec] = s
		}
		return s
	}
	for _, rl := range builtin {
		ri := int32(len(r.rules))
		cr := compiledRule{rule: rl}
		if rl.shape != nil {
			cr.body = set(rl.shape.body)
			cr.trim = set(rl.shape.trim)
			for _, p := range rl.shape.prefixes {
				lits.add(strings.ToLower(p), ri)
			}
		}
		for _, l := range rl.literals {
			lits.add(l, ri)
		}
		switch rl.id {
		case "private-key":
			if r.privateKeyRule < 0 {
				r.privateKeyRule = ri
			}
		case "k8s-secret-data":
			r.kubeRule = ri
		}
		r.rules = append(r.rules, cr)
	}
}

// addEnvLiterals adds a rule per secret variable and its values as
// literals. Folded literals can collide (two variables with one value, or
// a value equal to a rule literal): every rule listed for a literal runs,
// and env literals verify the exact original bytes, so a literal is kept
// per original spelling.
func (r *Redactor) addEnvLiterals(envLits []envLiteral, lits *literalTable) {
	envRule := map[string]int32{}
	for _, el := range envLits {
		ri, ok := envRule[el.name]
		if !ok {
			ri = int32(len(r.rules))
			envRule[el.name] = ri
			r.rules = append(r.rules, compiledRule{rule: rule{id: "env:" + el.name, prio: prioEnv, match: matchEnvLiteral}})
		}
		lits.add("\x00env\x00"+el.value, ri)
	}
}

// setPatterns lays the literals out for the automaton: the patterns, the
// rules of each, their lengths and folded spellings.
func (r *Redactor) setPatterns(lits *literalTable) {
	r.pats = make([]string, len(lits.order))
	r.patRules = make([][]int32, len(lits.order))
	for i, lit := range lits.order {
		r.pats[i] = strings.TrimPrefix(lit, "\x00env\x00")
		r.patRules[i] = lits.rules[lit]
	}
	if rs := lits.rules["auth"]; len(rs) == 1 && r.rules[rs[0]].id == "secret-assignment" {
		r.authLit = int32(slices.Index(lits.order, "auth"))
	}
	r.nameLit = make([]bool, len(lits.order))
	r.mayQuiet = make([]bool, len(lits.order))
	for i, rs := range r.patRules {
		r.nameLit[i] = len(rs) > 0 && !slices.ContainsFunc(rs, func(ri int32) bool { return !r.rules[ri].nameWordRule() })
		r.mayQuiet[i] = r.nameLit[i] || int32(i) == r.authLit
	}
	r.patLens = make([]int32, len(r.pats))
	r.nameSkip = make([]int32, len(r.pats))
	r.folded = make([]string, len(r.pats))
	for i, p := range r.pats {
		r.patLens[i] = int32(len(p))
		if len(p) < 128 && !strings.ContainsFunc(p, func(c rune) bool { return c >= 0x80 || !nameSet[c] }) {
			r.nameSkip[i] = int32(len(p))
		}
		r.folded[i] = foldString(p)
	}
}

// setMarkers builds every rule's [REDACTED:id] marker in one allocation (a
// few hundred rules).
func (r *Redactor) setMarkers() {
	size := 0
	for _, cr := range r.rules {
		size += len("[REDACTED:]") + len(cr.id)
	}
	buf := make([]byte, 0, size)
	r.markers = make([][]byte, len(r.rules))
	for i, cr := range r.rules {
		at := len(buf)
		buf = append(append(append(buf, "[REDACTED:"...), cr.id...), ']')
		r.markers[i] = buf[at:len(buf):len(buf)]
		r.markerNL = r.markerNL || strings.IndexByte(cr.id, '\n') >= 0
	}
}

// changedNL is the newlines of a region's redacted output, given nl, the
// newlines of its input (-1: not counted), and dropped, the newlines it
// dropped: a marker replaces bytes of one line and holds no newline, so
// the rest are all still there. It is -1 where that is not known.
func (r *Redactor) changedNL(nl int64, dropped int) int64 {
	if nl < 0 || r.markerNL {
		return -1
	}
	return nl - int64(dropped)
}

func compileExtra(spec RuleSpec) (compiledRule, error) {
	fail := func(format string, args ...any) (compiledRule, error) {
		return compiledRule{}, fmt.Errorf("redact rule %q: "+format, append([]any{spec.Name}, args...)...)
	}
	switch {
	case !ruleNameRE().MatchString(spec.Name) || strings.HasPrefix(spec.Name, "env:"):
		return fail("name must be 1-63 lower-case letters, digits, '.', '_' or '-'")
	case len(spec.Prefix) < 3:
		return fail("prefix %q is shorter than 3 bytes, too common to prefilter on", spec.Prefix)
	case strings.ContainsAny(spec.Prefix, "\r\n"):
		return fail("prefix contains a newline; rules match within one line")
	case spec.Pattern == "":
		return fail("empty pattern")
	}
	re, err := regexp.Compile(`^(?:` + spec.Pattern + `)`)
	if err != nil {
		return fail("%v", err)
	}
	if re.MatchString("") {
		return fail("pattern %q matches the empty string", spec.Pattern)
	}
	// The pattern is matched where the prefix is, so a literal start of the
	// pattern that disagrees with the prefix can never match: say so now.
	unanchored, _ := regexp.Compile(spec.Pattern)
	if p, _ := unanchored.LiteralPrefix(); !strings.HasPrefix(p, spec.Prefix) && !strings.HasPrefix(spec.Prefix, p) {
		return fail("pattern %q does not start with the prefix %q", spec.Pattern, spec.Prefix)
	}
	return compiledRule{
		rule:        rule{id: spec.Name, prio: prioExtra, match: matchExtra},
		re:          re,
		extraPrefix: spec.Prefix,
		lb:          wordSet[spec.Prefix[0]],
	}, nil
}

type envLiteral struct {
	name, value string
}

// envLiterals returns the secret values of the environment and their
// encodings, as the GitHub Actions runner masks them: raw, base64 (standard
// and URL alphabets, at the three byte alignments the value can have inside a
// longer encoded text, without the characters that depend on neighbours),
// JSON-escaped and URL-escaped.
func envLiterals(cfg Config, allow map[string]struct{}) []envLiteral {
	c := envLitCollector{allow: allow, seen: map[string]bool{}}
	for _, v := range secretEnvVars(cfg) {
		val := v.value
		if len(val) < MinEnvValueLen || val == "true" || val == "1" || strings.ContainsRune(val, 0) || strings.TrimSpace(val) == "" {
			continue
		}
		if _, ok := allow[val]; ok {
			continue
		}
		if len(val) < 4096 {
			if _, err := os.Stat(val); err == nil {
				continue // a path: redacting it would hide where things are, not secrets
			}
		}
		c.addForms(v.name, val)
	}
	return c.out
}

// secretEnvVars returns the variables of cfg.Environ with a secret-like
// name or one of cfg.EnvNames, sorted by name.
func secretEnvVars(cfg Config) []envLiteral {
	extra := map[string]bool{}
	for _, n := range cfg.EnvNames {
		extra[n] = true
	}
	var vars []envLiteral
	for _, ent := range cfg.Environ {
		name, value, ok := strings.Cut(ent, "=")
		if !ok || name == "" {
			continue
		}
		if !extra[name] && !IsSecretName(name) {
			continue
		}
		vars = append(vars, envLiteral{name, value})
	}
	sort.SliceStable(vars, func(i, j int) bool { return vars[i].name < vars[j].name })
	return vars
}

// envLitCollector keeps each literal once, under the first variable that
// gives it, and drops the short, blank, multi-line and allowed ones.
type envLitCollector struct {
	allow map[string]struct{}
	seen  map[string]bool
	out   []envLiteral
}

func (c *envLitCollector) add(name, v string) {
	if len(v) < MinEnvValueLen || c.seen[v] || strings.ContainsAny(v, "\r\n") || strings.TrimSpace(v) == "" {
		return
	}
	if _, ok := c.allow[v]; ok {
		return
	}
	c.seen[v] = true
	c.out = append(c.out, envLiteral{name, v})
}

// addForms adds val as it may appear in output: raw, base64, JSON- and
// URL-escaped.
func (c *envLitCollector) addForms(name, val string) {
	// No rule matches across a newline, so a multi-line value is masked
	// line by line (its JSON-escaped form stays whole).
	for _, ln := range strings.Split(val, "\n") {
		c.add(name, strings.TrimSuffix(ln, "\r"))
	}
	for _, off := range []int{0, 1, 2} {
		if off >= len(val) {
			break
		}
		tail := []byte(val[off:])
		whole := tail[:len(tail)/3*3]
		c.add(name, base64.RawStdEncoding.EncodeToString(whole))
		c.add(name, base64.RawURLEncoding.EncodeToString(whole))
		if len(whole) < len(tail) {
			// The last partial group still fixes all but its last
			// character; mask those too when the value ends the encoding.
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				s := enc.EncodeToString(tail)
				c.add(name, s[:len(s)-1])
			}
		}
	}
	if js, err := json.Marshal(val); err == nil {
		c.add(name, string(js[1:len(js)-1]))
	}
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	if enc.Encode(val) == nil {
		s := strings.TrimSpace(sb.String())
		c.add(name, s[1:len(s)-1])
	}
	c.add(name, url.QueryEscape(val))
	c.add(name, url.PathEscape(val))
}

// String redacts a whole string: argv elements, the working directory,
// explain lines, summaries. Multi-line strings get the same PEM and data:
// handling as a stream.
func (r *Redactor) String(s string) string {
	out := r.Bytes([]byte(s))
	return string(out)
}

// Bytes redacts b as a complete stream. It returns b itself when nothing is
// redacted.
func (r *Redactor) Bytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	if len(b) >= 1<<30 {
		// Hit positions are int32: stream anything this large.
		var sb bytesBuffer
		w := r.NewWriterOptions(&sb, WriterOptions{Workers: 1})
		_, _ = w.Write(b)
		_ = w.Close()
		return sb.b
	}
	e := r.getEngine()
	defer r.putEngine(e)
	// a terminal sequence can split a literal (TO<ESC>[1mKEN=): only the
	// full automaton, run on the line's view, sees through it
	if len(b) <= shortString && bytes.IndexByte(b, 0x1b) < 0 {
		if e.mini, e.miniMap = r.miniAutomaton(b); e.mini == nil {
			return b // holds no literal of any rule
		}
		defer func() { e.mini, e.miniMap = nil, nil }()
	}
	var st mlState
	out, changed := e.region(nil, b, &st)
	if !changed {
		return b
	}
	return out
}

type bytesBuffer struct{ b []byte }

func (b *bytesBuffer) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	return len(p), nil
}

func (r *Redactor) getEngine() *engine { return r.engines.Get().(*engine) }

func (r *Redactor) putEngine(e *engine) {
	clear(e.counts)
	if cap(e.hits) > 1<<16 {
		e.hits = nil
	}
	r.engines.Put(e)
}

// shortString is the longest input scanned with an automaton of its own.
const shortString = 4 << 10

// auto returns the automaton over every literal, building it once.
func (r *Redactor) auto() *automaton {
	r.acOnce.Do(func() { r.acFull = newAutomaton(r.pats, true) })
	return r.acFull
}

// miniAutomaton builds an automaton over just the literals b holds (nil
// when none), and the map from its literal numbers to the Redactor's.
func (r *Redactor) miniAutomaton(b []byte) (*automaton, []int32) {
	folded := foldString(string(b))
	var pats []string
	var idx []int32
	for i, f := range r.folded {
		if strings.Contains(folded, f) {
			pats = append(pats, r.pats[i])
			idx = append(idx, int32(i))
		}
	}
	if len(pats) == 0 {
		return nil, nil
	}
	return newAutomaton(pats, false), idx
}

func foldString(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = foldByte(c)
	}
	return string(b)
}
