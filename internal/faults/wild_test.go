package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// The wild corpus (testdata/redact/wild.txt, the acceptance corpus of "no
// secret on disk, for text rac was never shown") through the built rac:
// each class of cases is one recording per capture form (pipe, pty under
// a real terminal, stderr, 2>&1, one byte a write, --summary --json, and
// the stream piped into rac record), and
// each case with an argv line is rac run's own command line. Then every
// file of the store, its names included, and every view rac gives out
// (read, read --raw, read --json, explain and --json, list and --json,
// grep for each secret's middle and for the name beside it, and rac-mcp's
// list, read, grep and explain tools) must hold no secret material: its
// central 12 bytes raw, JSON-escaped or percent-encoded, as the bytes are
// or with terminal escape sequences taken out (a secret split by colour
// codes counts). The same corpus recorded with --no-redact must give out
// nothing through explain, list and the MCP tools. Failures are listed by
// class (the corpus's "# class:" lines) and case.

var wildCorpusPath = filepath.Join("..", "..", "testdata", "redact", "wild.txt")

// wildForm is one way a class's output reaches rac run.
type wildForm struct {
	name   string
	args   []string // rac run flags before --
	write  string   // RAC_WILD_WRITE: bytes or split
	fd     string   // RAC_WILD_FD: 1, 2, mix or cases
	exit   int      // what the writer exits with
	pty    bool     // rac runs under a pseudo-terminal
	joined bool     // rac's stdout and stderr are one open file (2>&1)
	// checkOut, checkErr: rac's own stdout or stderr holds no output of
	// the command in this form, so it must hold no secret either
	checkOut, checkErr bool
	// stdin: the writer's output is piped into rac record (args are rac
	// record's flags), not run by rac run
	stdin bool
}

var wildForms = []wildForm{
	{name: "pipe", args: []string{"-q", "--mode", "pipe"}, write: "split", fd: "1", exit: 3, checkErr: true},
	{name: "pty", args: []string{"-q", "--mode", "pty"}, write: "split", fd: "1", pty: true},
	{name: "stderr", args: []string{"-q", "--mode", "pipe"}, write: "split", fd: "2", checkOut: true},
	{name: "2>&1", args: []string{"-q"}, write: "split", fd: "mix", joined: true},
	{name: "1 byte a write", args: []string{"-q", "--mode", "pipe"}, write: "bytes", fd: "1", checkErr: true},
	{name: "--summary --json", args: []string{"--summary", "--json"}, write: "split", fd: "cases", checkOut: true, checkErr: true},
	{name: "rac record", args: []string{"--no-tee"}, write: "split", fd: "1", checkOut: true, checkErr: true, stdin: true},
}

// wildSet is the corpus, a store, and the leaks found so far.
type wildSet struct {
	t       *testing.T
	sc      *scenario
	cases   []redacttest.Case
	classes []string // in corpus order
	st      *racStore
	env     []string // the views' environment: the store's and every case's variables
	writer  string   // the writer (this test binary) under a name of its own
	bin     string   // a folder with the writer under each argv case's program name
	in      string   // a folder for input files
	owner   map[string]*redacttest.Case
	leaks   map[wildLeak]map[string]bool
	runs    int
	label   map[string]string // a recording's reference: the form or argv run it is
}

type wildLeak struct{ class, kase, where string }

func newWildSet(t *testing.T, sc *scenario) *wildSet {
	w := &wildSet{t: t, sc: sc, cases: redacttest.LoadCorpus(t, wildCorpusPath),
		owner: map[string]*redacttest.Case{}, leaks: map[wildLeak]map[string]bool{}, label: map[string]string{}}
	require.NotEmpty(t, w.cases)
	w.st = newStore(t)
	w.env = slices.Clone(w.st.env)
	seen := map[string]string{}
	for i := range w.cases {
		c := &w.cases[i]
		if !slices.Contains(w.classes, c.Class) {
			w.classes = append(w.classes, c.Class)
		}
		for _, s := range c.Secrets {
			if _, dup := w.owner[s]; !dup {
				w.owner[s] = c
			}
		}
		for _, kv := range c.Env {
			name, _, _ := strings.Cut(kv, "=")
			if prev, ok := seen[name]; ok && prev != kv {
				t.Fatalf("%s: %s is set by two cases with different values: the views' environment holds one", c.Pos, name)
			}
			if _, ok := seen[name]; !ok {
				w.env = append(w.env, kv)
			}
			seen[name] = kv
		}
	}
	w.in = filepath.Join(w.st.dir, "in")
	w.bin = filepath.Join(w.st.dir, "bin")
	require.NoError(t, os.MkdirAll(w.in, 0o700))
	require.NoError(t, os.MkdirAll(w.bin, 0o700))
	self, err := os.Executable()
	require.NoError(t, err)
	w.writer = filepath.Join(w.st.dir, "wild-writer")
	require.NoError(t, os.Symlink(self, w.writer))
	for _, c := range w.cases {
		if c.Argv == nil {
			continue
		}
		prog := c.Argv[0]
		require.False(t, strings.Contains(prog, "/") || slices.Contains([]string{"sh", "bash", "cat", "env", "rac"}, prog),
			"%s: argv[0] %q would shadow what rac or the test runs", c.Pos, prog)
		if _, err := os.Lstat(filepath.Join(w.bin, prog)); err != nil {
			require.NoError(t, os.Symlink(self, filepath.Join(w.bin, prog)))
		}
	}
	return w
}

// secretsOf is the secret material of the cases of class ("" for all).
func (w *wildSet) secretsOf(class string) []string {
	var out []string
	for _, c := range w.cases {
		if class == "" || c.Class == class {
			out = append(out, c.Secrets...)
		}
	}
	return out
}

func session(class string) string { return "wild-" + class }

// check records every secret of class ("" for all) that survives in text,
// seen through where.
func (w *wildSet) check(where, class string, text []byte) {
	for _, s := range redacttest.Surviving(text, w.secretsOf(class)) {
		c := w.owner[s]
		k := wildLeak{c.Class, c.Name, where}
		if w.leaks[k] == nil {
			w.leaks[k] = map[string]bool{}
		}
		w.leaks[k][s] = true
	}
}

// problem is a failure that is not a leak: a run or a view that did not
// work (which would make its check vacuous).
func (w *wildSet) problem(format string, args ...any) {
	w.t.Helper()
	w.sc.fail(format, args...)
}

// wildCaseMark starts the line before each case in a batch's input.
const wildCaseMark = "---- wild case "

// wildBatch is the cases of one class that have output, written as one
// input file, with the variables they set.
type wildBatch struct {
	class, file string
	env         []string
	cases       int
}

func (w *wildSet) batches() []wildBatch {
	var out []wildBatch
	for _, cl := range w.classes {
		var b bytes.Buffer
		var env []string
		n := 0
		for _, c := range w.cases {
			if c.Class != cl || c.In == "" {
				continue
			}
			// a line between cases, so no state of one (a PEM body, a
			// YAML block) runs on into the next
			fmt.Fprintf(&b, "%s%d ----\n%s", wildCaseMark, n, c.In)
			env = append(env, c.Env...)
			n++
		}
		if n == 0 {
			continue
		}
		p := filepath.Join(w.in, cl)
		require.NoError(w.t, os.WriteFile(p, b.Bytes(), 0o600))
		out = append(out, wildBatch{class: cl, file: p, env: env, cases: n})
	}
	return out
}

// labelled runs one recorded run, then notes what its recording is (the
// writer wrote its reference to the file named in its environment).
func (w *wildSet) labelled(label string, run func(refFile string)) {
	w.runs++
	w.sc.iter()
	refFile := filepath.Join(w.in, "ref-"+strconv.Itoa(w.runs))
	run(refFile)
	if ref, err := os.ReadFile(refFile); err == nil && len(ref) > 0 {
		w.label[string(ref)] = label
	}
}

// at is where with the recording's label: "read [pty]".
func (w *wildSet) at(where, ref string) string {
	if l := w.label[ref]; l != "" {
		return where + " [" + l + "]"
	}
	return where + " [" + ref + "]"
}

// writerEnv is the environment of one recorded run of the writer.
func (w *wildSet) writerEnv(file string, env []string, write, fd string, exit int) []string {
	seed := func() string { return strconv.FormatUint(w.sc.rng.Uint64(), 10) }
	e := append(slices.Clone(w.st.env), env...)
	if write == "split" {
		write += ":" + seed()
	}
	if fd == "mix" || fd == "cases" {
		fd += ":" + seed()
	}
	e = append(e, wildWriterEnv+"=1", "RAC_WILD_WRITE="+write, "RAC_WILD_FD="+fd, "RAC_WILD_EXIT="+strconv.Itoa(exit))
	if file != "" {
		e = append(e, "RAC_WILD_IN="+file)
	}
	return e
}

// record runs every batch in every form, and every argv case; noRedact
// adds --no-redact and uses the pipe form only.
func (w *wildSet) record(noRedact bool) {
	const limit = 2 * time.Minute
	forms := wildForms
	if noRedact {
		forms = wildForms[:1]
	}
	for _, b := range w.batches() {
		for _, f := range forms {
			w.labelled(f.name, func(refFile string) { w.recordForm(b, f, noRedact, refFile) })
		}
	}
	// each argv case is a run of its own: rac run's argv is the case
	env0 := []string{"PATH=" + w.bin + string(os.PathListSeparator) + os.Getenv("PATH")}
	for i, c := range w.cases {
		if c.Argv == nil {
			continue
		}
		file := ""
		if c.In != "" {
			file = filepath.Join(w.in, "argv-"+strconv.Itoa(i))
			require.NoError(w.t, os.WriteFile(file, []byte(c.In), 0o600))
		}
		variants := [][]string{{"-q"}, {"--summary", "--json"}}
		if noRedact {
			variants = variants[:1]
		}
		for _, v := range variants {
			label := "argv run"
			if v[0] != "-q" {
				label = "argv run " + strings.Join(v, " ")
			}
			w.labelled(label, func(refFile string) {
				args := append([]string{"run", "--session", session(c.Class)}, v...)
				if noRedact {
					args = append(args, "--no-redact")
				}
				args = append(append(args, "--"), c.Argv...)
				var out, errb bytes.Buffer
				env := append(w.writerEnv(file, c.Env, "split", "1", 0), append(env0, "RAC_WILD_REF_FILE="+refFile)...)
				code, err := w.st.runWith(limit, env, &out, &errb, args...)
				where := "rac run " + strings.Join(v, " ")
				if err != nil || code != 0 {
					w.problem("%s: %s: exit %d, %v: %.300s", c.Name, where, code, err, errb.String())
				}
				if v[0] != "-q" { // with -q, stdout is the command's own output
					w.check("rac run stdout ["+label+"]", c.Class, out.Bytes())
				}
				w.check("rac run stderr ["+label+"]", c.Class, errb.Bytes())
			})
		}
	}
}

// recordForm records one batch in one form.
func (w *wildSet) recordForm(b wildBatch, f wildForm, noRedact bool, refFile string) {
	const limit = 2 * time.Minute
	if f.stdin {
		w.recordStdin(b, f, noRedact, refFile)
		return
	}
	args := append([]string{"run", "--session", session(b.class)}, f.args...)
	if noRedact {
		args = append(args, "--no-redact")
	}
	args = append(args, "--", w.writer)
	env := append(w.writerEnv(b.file, b.env, f.write, f.fd, f.exit), "RAC_WILD_REF_FILE="+refFile)
	where := "rac run (" + f.name + ")"
	var code int
	var err error
	var out, errb bytes.Buffer
	switch {
	case f.pty:
		code, err = w.st.racIn(limit, env, args...)
	case f.joined:
		var tmp *os.File
		tmp, err = os.CreateTemp(w.st.dir, "joined-")
		require.NoError(w.t, err)
		code, err = w.st.runWith(limit, env, tmp, tmp, args...)
		require.NoError(w.t, tmp.Close())
	default:
		code, err = w.st.runWith(limit, env, &out, &errb, args...)
	}
	if err != nil || code != f.exit {
		w.problem("%s, class %s: exit %d (want %d), %v: %.300s", where, b.class, code, f.exit, err, errb.String())
	}
	if f.checkOut {
		w.check("rac run stdout ["+f.name+"]", b.class, out.Bytes())
	}
	if f.checkErr {
		w.check("rac run stderr ["+f.name+"]", b.class, errb.Bytes())
	}
}

// rac runs rac in the store with the views' environment; code is -1 when
// it could not run.
func (w *wildSet) rac(args ...string) (code int, stdout, stderr []byte) {
	var out, errb bytes.Buffer
	code, err := w.st.runWith(2*time.Minute, w.env, &out, &errb, args...)
	if err != nil {
		return -1, out.Bytes(), []byte(err.Error())
	}
	return code, out.Bytes(), errb.Bytes()
}

// view runs one rac out command and checks what it printed; a status
// other than ok (grep: also 1, no match) is a problem.
func (w *wildSet) view(where, class string, ok []int, args ...string) []byte {
	code, out, errb := w.rac(args...)
	if !slices.Contains(ok, code) {
		w.problem("rac %s: exit %d: %.300s", strings.Join(args, " "), code, errb)
	}
	w.check(where, class, append(out, errb...))
	return out
}

// refs lists a session's recordings through list --json.
func (w *wildSet) refs(class string) []string {
	st := *w.st
	st.env = w.env
	es, err := st.list("--session", session(class))
	if err != nil {
		w.problem("%v", err)
		return nil
	}
	var refs []string
	for _, e := range es {
		refs = append(refs, e.Ref)
	}
	return refs
}

// names are the words right before each secret of class in its cases'
// input and argv (password, --token, AccountKey, ghp_, bot, ...): what a
// person greps for to find the secret again.
var nameBefore = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_.-]{2,})[^A-Za-z0-9_]{0,6}$`)

func (w *wildSet) names(class string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range w.cases {
		if c.Class != class {
			continue
		}
		text := string(redacttest.StripEscapes([]byte(c.In + "\n" + strings.Join(c.Argv, " "))))
		for _, s := range c.Secrets {
			at := strings.Index(text, s)
			if at < 0 {
				continue
			}
			m := nameBefore.FindStringSubmatch(text[max(0, at-48):at])
			if m == nil || seen[strings.ToLower(m[1])] || len(m[1]) > 40 || holdsSecret(m[1], c.Secrets) {
				continue
			}
			seen[strings.ToLower(m[1])] = true
			out = append(out, m[1])
		}
	}
	return out
}

// holdsSecret says whether word is or holds a piece of secret material
// (the word before one secret can be the end of another, or its own
// start): a name to grep for is not one.
func holdsSecret(word string, secrets []string) bool {
	for _, s := range secrets {
		if strings.Contains(word, s) || strings.Contains(s, word) {
			return true
		}
	}
	return false
}

// middle is the text grep is asked for to find a secret: its central
// bytes, as SurvivalForms takes them.
func middle(s string) string { return redacttest.SurvivalForms(s)[0] }

// views checks what rac out prints of every recording; noRedact: only the
// views that redact what they print whatever the recording holds
// (explain, list).
func (w *wildSet) views(noRedact bool) {
	code, out, errb := w.rac("out", "list", "--all-sessions", "--json")
	if code != 0 {
		w.problem("rac out list --all-sessions --json: exit %d: %.300s", code, errb)
	}
	w.check("list --all-sessions --json", "", out)
	for _, cl := range w.classes {
		s := session(cl)
		w.view("list", cl, []int{0}, "out", "list", "--session", s)
		w.view("list --json", cl, []int{0}, "out", "list", "--session", s, "--json")
		refs := w.refs(cl)
		if len(refs) == 0 {
			w.problem("class %s: no recordings in session %s", cl, s)
		}
		for _, ref := range refs {
			if !noRedact {
				w.view(w.at("read", ref), cl, []int{0}, "out", "read", ref, "--no-pager")
				w.view(w.at("read --raw", ref), cl, []int{0}, "out", "read", ref, "--raw", "--no-pager")
				w.view(w.at("read --json", ref), cl, []int{0}, "out", "read", ref, "--json", "--no-pager")
			}
			w.view(w.at("explain", ref), cl, []int{0}, "out", "explain", ref)
			w.view(w.at("explain --json", ref), cl, []int{0}, "out", "explain", ref, "--json")
		}
		if noRedact {
			continue
		}
		// grep for each secret's middle (every third with
		// RAC_FAULTS_SHORT) and for the names beside the secrets
		w.t.Logf("class %s: %d recordings; grep for %d secrets' middles and %d names: %q", cl, len(refs), len(w.secretsOf(cl)), len(w.names(cl)), w.names(cl))
		for i, sec := range w.secretsOf(cl) {
			if short && i%3 != 0 {
				continue
			}
			w.view("grep MIDDLE", cl, []int{0, 1}, "out", "grep", "--session", s, "--", middle(sec))
		}
		for _, n := range w.names(cl) {
			w.view("grep -i NAME", cl, []int{0, 1}, "out", "grep", "--session", s, "-i", "--", n)
			w.view("grep -i NAME --json", cl, []int{0, 1}, "out", "grep", "--session", s, "-i", "--json", "--", n)
		}
	}
}

// mcp checks the MCP tools (rac-mcp, or rac mcp when viaRac) on every recording: list, read (every line,
// page by page), explain, and grep for each secret's middle and each name.
func (w *wildSet) mcp(viaRac bool) {
	env := append(slices.Clone(w.env), "RAC_MCP_BUDGET=4MiB")
	m := w.st.startMCP(w.t, env, viaRac)
	raw, res := m.call("tools/list", map[string]any{})
	for _, name := range []string{"list", "read", "grep", "explain"} {
		if !bytes.Contains(raw, []byte(`"name":"`+name+`"`)) {
			w.problem("rac-mcp offers no %s tool: %.500s", name, raw)
		}
	}
	require.NotNil(w.t, res)
	tool := func(where, class, name string, args map[string]any) map[string]any {
		raw, sc, isErr := m.tool(name, args)
		if isErr {
			w.problem("MCP %s %v: an error: %.300s", name, args, raw)
		}
		w.check(where, class, raw)
		return sc
	}
	tool("MCP list all_sessions", "", "list", map[string]any{"all_sessions": true, "limit": 200})
	for _, cl := range w.classes {
		s := session(cl)
		tool("MCP list", cl, "list", map[string]any{"session": s, "limit": 200})
		for _, ref := range w.refs(cl) {
			w.mcpRead(m, cl, ref)
			tool(w.at("MCP explain", ref), cl, "explain", map[string]any{"ref": ref})
		}
		for _, sec := range w.secretsOf(cl) {
			w.mcpGrep(m, "MCP grep MIDDLE", cl, map[string]any{"text": middle(sec), "session": s})
		}
		for _, n := range w.names(cl) {
			w.mcpGrep(m, "MCP grep NAME", cl, map[string]any{"text": n, "ignore_case": true, "session": s})
		}
	}
}

// mcpGrep calls the MCP grep tool and checks its result: the structured
// content and the text but for the text's first line, which repeats the
// text asked for ("N hits for ..."): a secret the caller sent is not one
// rac gave out.
func (w *wildSet) mcpGrep(m *mcpClient, where, class string, args map[string]any) {
	raw, res := m.call("tools/call", map[string]any{"name": "grep", "arguments": args})
	if res == nil || res["isError"] == true {
		w.problem("MCP grep %v: an error: %.300s", args, raw)
		return
	}
	sc, err := json.Marshal(res["structuredContent"])
	require.NoError(w.t, err)
	w.check(where, class, sc)
	content, _ := res["content"].([]any)
	for _, c := range content {
		text, _ := c.(map[string]any)["text"].(string)
		head, rest, _ := strings.Cut(text, "\n")
		if !regexp.MustCompile(`^\d+ hits for `).MatchString(head) {
			w.problem("MCP grep %v: the text does not start with the hit count: %.200q", args, text)
			rest = text
		}
		w.check(where, class, []byte(rest))
	}
}

// mcpRead reads every line of a recording through the MCP read tool, page
// by page as its next ranges say; a recording with output on both streams
// is read stream by stream (a line range needs one).
func (w *wildSet) mcpRead(m *mcpClient, class, ref string) {
	for _, stream := range []string{"", "stdout", "stderr"} {
		args := map[string]any{"ref": ref, "lines": "1:"}
		if stream != "" {
			args["stream"] = stream
		}
		for page := 0; page < 100; page++ {
			raw, sc, isErr := m.tool("read", args)
			w.check(w.at("MCP read", ref), class, raw)
			if isErr {
				if stream == "" && bytes.Contains(raw, []byte("both streams")) {
					break // then each stream on its own
				}
				w.problem("MCP read %v: an error: %.300s", args, raw)
				return
			}
			next, _ := sc["next"].(map[string]any)
			if next == nil {
				if stream == "" {
					return // the whole recording was read
				}
				break
			}
			args = map[string]any{"ref": ref, "lines": next["lines"]}
			if st, _ := next["stream"].(string); st != "" {
				args["stream"] = st
			}
		}
	}
}

// store checks every file of the store and every name in it: a session's
// files against its class's secrets, the rest against all.
func (w *wildSet) store() {
	sessions := filepath.Join(w.st.home, "sessions")
	var rest []byte
	for _, cl := range w.classes {
		dir := filepath.Join(sessions, session(cl))
		ents, err := os.ReadDir(dir)
		require.NoError(w.t, err)
		var own []byte // the session's own files, and every name
		for _, e := range ents {
			own = fmt.Appendf(own, "%s\n", e.Name())
			p := filepath.Join(dir, e.Name())
			if e.IsDir() {
				w.check(w.at("store", session(cl)+"/"+e.Name()), cl, readTree(w.t, p))
				continue
			}
			if e.Type().IsRegular() {
				b, err := os.ReadFile(p)
				require.NoError(w.t, err)
				own = append(own, b...)
			}
		}
		w.check("store", cl, own)
	}
	require.NoError(w.t, filepath.WalkDir(w.st.home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && filepath.Dir(p) == sessions && strings.HasPrefix(d.Name(), "wild-") {
			return filepath.SkipDir
		}
		rest = fmt.Appendf(rest, "%s\n", p)
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rest = append(rest, b...)
		}
		return nil
	}))
	w.check("store", "", rest)
}

// report fails the test with the leaks found, class by class, each case
// with the places its secrets showed up in; each (case, place) counts as
// one failure of the scenario.
func (w *wildSet) report() {
	type caseLeaks struct {
		where   []string
		secrets map[string]bool
	}
	byClass := map[string]map[string]*caseLeaks{}
	for k, secs := range w.leaks {
		if byClass[k.class] == nil {
			byClass[k.class] = map[string]*caseLeaks{}
		}
		cl := byClass[k.class][k.kase]
		if cl == nil {
			cl = &caseLeaks{secrets: map[string]bool{}}
			byClass[k.class][k.kase] = cl
		}
		cl.where = append(cl.where, k.where)
		for s := range secs {
			cl.secrets[s] = true
		}
	}
	total := map[string]int{}
	for _, c := range w.cases {
		total[c.Class]++
	}
	var summary strings.Builder
	fmt.Fprintf(&summary, "%d recorded runs; leaks by class:\n", w.runs)
	for _, cl := range w.classes {
		cs := byClass[cl]
		fmt.Fprintf(&summary, "  %-8s %3d of %3d cases leak\n", cl, len(cs), total[cl])
		if len(cs) == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "class %s: %d of %d cases leak secret material:\n", cl, len(cs), total[cl])
		names := make([]string, 0, len(cs))
		for n := range cs {
			names = append(names, n)
		}
		slices.Sort(names)
		n := 0
		for _, name := range names {
			c := cs[name]
			n += len(c.where)
			var one string
			for s := range c.secrets {
				if one == "" || s < one {
					one = s
				}
			}
			fmt.Fprintf(&b, "  %s: %d secrets, e.g. %q, through %s\n", name, len(c.secrets), shortSecret(one), groupWhere(c.where))
		}
		// printed whatever the count of earlier failures (sc.fail prints
		// the first ten only)
		w.sc.mu.Lock()
		w.sc.fails += n
		w.sc.mu.Unlock()
		w.t.Errorf("%s: %s", w.sc.name, b.String())
	}
	w.t.Log(summary.String())
}

// groupWhere folds "read [pipe]", "read [pty]" into "read [pipe, pty]".
func groupWhere(where []string) string {
	forms := map[string][]string{}
	var views []string
	for _, w := range where {
		view, form, _ := strings.Cut(strings.TrimSuffix(w, "]"), " [")
		if _, ok := forms[view]; !ok {
			views = append(views, view)
		}
		if form != "" {
			forms[view] = append(forms[view], form)
		}
	}
	slices.Sort(views)
	var parts []string
	for _, v := range views {
		fs := forms[v]
		slices.Sort(fs)
		if len(fs) > 0 {
			v += " [" + strings.Join(slices.Compact(fs), ", ") + "]"
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, "; ")
}

func shortSecret(s string) string {
	if len(s) <= 60 {
		return s
	}
	return fmt.Sprintf("%s...[%d bytes]", s[:40], len(s))
}

// TestWildCorpus records the wild corpus in every capture form and checks
// the store and every view.
func TestWildCorpus(t *testing.T) {
	sc := newScenario(t, "wild corpus: 7 capture forms, argv, store, views, MCP", true)
	start := time.Now()
	w := newWildSet(t, sc)
	w.record(false)
	t.Logf("recorded in %v", time.Since(start).Round(time.Millisecond))
	w.store()
	w.views(false)
	t.Logf("store and views checked at %v", time.Since(start).Round(time.Millisecond))
	w.mcp(false) // rac-mcp, as rac agent-init --mcp registers it
	t.Logf("MCP checked at %v", time.Since(start).Round(time.Millisecond))
	w.report()
}

// TestWildNoRedact records the wild corpus with --no-redact: the store
// holds the secrets then, by request, but explain, list and the MCP
// tools still give none out.
func TestWildNoRedact(t *testing.T) {
	sc := newScenario(t, "wild corpus with --no-redact: explain, list, MCP", true)
	w := newWildSet(t, sc)
	w.record(true)
	w.views(true)
	w.mcp(true) // rac mcp, which runs rac-mcp in its place
	w.report()
}

// TestWildRealTools plants fake secrets in a git repository and records
// the real tools' coloured output of them (git grep, git log -p, jq -C,
// yq -C, grep --color=always) in pipe and pty mode. A tool that is not
// installed is skipped with a logged reason (CI installs git, jq, yq and
// grep).
func TestWildRealTools(t *testing.T) {
	sc := newScenario(t, "wild: real coloured git grep, git log, jq, yq, grep", true)
	st := newStore(t)
	repo := filepath.Join(st.dir, "repo")
	require.NoError(t, os.MkdirAll(repo, 0o700))
	gen := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[sc.rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	const b64 = alnum + "+/"
	words := func() string {
		var ws []string
		for range 4 {
			ws = append(ws, gen("abcdefghijklmnopqrstuvwxyz", 5+sc.rng.IntN(3)))
		}
		return strings.Join(ws, " ")
	}
	p1, k1, phrase, p2, t2, s2, p3, t3, sk := gen(alnum, 20), gen(alnum, 24), words(), gen(alnum, 18), gen(alnum, 36), gen(alnum, 32), gen(alnum, 16), gen(alnum, 28), gen(alnum, 24)
	keyLines := []string{"MIIEpAIBAAKCAQEA" + gen(b64, 48), gen(b64, 64), gen(b64, 64)}
	secrets := append([]string{p1, k1, phrase, p2, t2, s2, p3, t3, sk}, keyLines...)
	dashes := strings.Repeat("-", 5)
	files := map[string]string{
		"config.yml": "db:\n  user: app\n  password: " + p1 + "\napi_key: \"" + k1 + "\"\nsmtp:\n  password: " + phrase + "\n",
		"creds.json": `{"user":"app","password":"` + p2 + `","token":"ghp_` + t2 + `","client_secret":"` + s2 + `","n":3}` + "\n",
		"creds.yaml": "user: app\npassword: " + p2 + "\ntoken: ghp_" + t2 + "\nclient_secret: " + s2 + "\n",
		".env":       "DB_PASSWORD=" + p3 + "\nAPI_TOKEN=" + t3 + "\nSTRIPE_SECRET_KEY=sk_live_" + sk + "\n",
		"deploy/id_rsa": dashes + "BEGIN RSA PRIVATE" + " KEY" + dashes + "\n" + strings.Join(keyLines, "\n") + "\n" +
			dashes + "END RSA PRIVATE" + " KEY" + dashes + "\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o700))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
	}
	// at a terminal git would start its pager, which waits for a key
	gitEnv := append(slices.Clone(st.env), "GIT_PAGER=cat", "PAGER=cat", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=wild", "GIT_AUTHOR_EMAIL=wild@example.com",
		"GIT_COMMITTER_NAME=wild", "GIT_COMMITTER_EMAIL=wild@example.com")
	haveGit := true
	if _, err := exec.LookPath("git"); err != nil {
		haveGit = false
	} else {
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "config"}} {
			c := exec.Command("git", args...)
			c.Dir, c.Env = repo, gitEnv
			out, err := c.CombinedOutput()
			require.NoError(t, err, "git %v: %s", args, out)
		}
	}
	cmds := [][]string{
		{"git", "-c", "color.ui=always", "grep", "-n", "-i", "password"},
		{"git", "-c", "color.ui=always", "grep", "-n", "-e", "token", "-e", "secret", "-e", "PRIVATE"},
		{"git", "-c", "color.ui=always", "log", "-p"},
		{"jq", "-C", ".", "creds.json"},
		{"jq", "-C", "-c", ".", "creds.json"},
		{"yq", "-C", ".", "creds.yaml"},
		{"grep", "--color=always", "-r", "-i", "password", "."},
		{"grep", "--color=always", "-rn", p1[:5], "."},
		{"grep", "--color=always", "-r", "-e", "TOKEN", "-e", "KEY=", "."},
	}
	w := &wildSet{t: t, sc: sc, st: st, env: gitEnv, owner: map[string]*redacttest.Case{}, leaks: map[wildLeak]map[string]bool{},
		classes: []string{"tools"}}
	planted := redacttest.Case{Name: "tools: planted secrets", Class: "tools", Secrets: secrets}
	w.cases = []redacttest.Case{planted}
	for _, s := range secrets {
		w.owner[s] = &w.cases[0]
	}
	inRepo := *st
	inRepo.dir = repo
	w.st = &inRepo
	ran := 0
	for _, c := range cmds {
		if _, err := exec.LookPath(c[0]); err != nil || (c[0] == "git" && !haveGit) {
			t.Logf("skipping %s: not installed here (%v)", strings.Join(c, " "), err)
			continue
		}
		// the tool itself, so a case checks something: its output holds
		// the planted secrets
		raw := exec.Command(c[0], c[1:]...)
		raw.Dir, raw.Env = repo, gitEnv
		out, err := raw.Output()
		require.NoError(t, err, "%v", c)
		require.NotEmpty(t, redacttest.Surviving(out, secrets), "%v shows no planted secret: %q", c, out)
		require.Contains(t, string(out), "\x1b[", "%v is not coloured", c)
		for _, mode := range []string{"pipe", "pty"} {
			sc.iter()
			ran++
			args := append([]string{"run", "--session", session("tools"), "-q", "--mode", mode, "--"}, c...)
			var code int
			var errb bytes.Buffer
			if mode == "pty" {
				code, err = w.st.racIn(time.Minute, gitEnv, args...)
			} else {
				code, err = w.st.runWith(time.Minute, gitEnv, io.Discard, &errb, args...)
			}
			if err != nil || code != 0 {
				w.problem("rac run %v (%s): exit %d, %v: %.300s", c, mode, code, err, errb.String())
			}
		}
	}
	if ran == 0 {
		t.Skip("none of git, jq, yq, grep is installed")
	}
	w.runs = ran
	w.check("store", "", readTree(t, st.home))
	listed := *w.st
	listed.env = w.env
	es, err := listed.list("--session", session("tools"))
	require.NoError(t, err)
	require.Len(t, es, ran)
	for _, e := range es {
		// the views of each tool's recording apart, so the report names the tool
		label := fmt.Sprintf("%s (%s)", strings.Join(e.Argv, " "), e.Ref)
		w.view(label+": read", "", []int{0}, "out", "read", e.Ref, "--no-pager")
		w.view(label+": read --raw", "", []int{0}, "out", "read", e.Ref, "--raw", "--no-pager")
		w.view(label+": read --json", "", []int{0}, "out", "read", e.Ref, "--json", "--no-pager")
		w.view(label+": explain --json", "", []int{0}, "out", "explain", e.Ref, "--json")
	}
	for _, n := range []string{"password", "token", "secret", "key", "PRIVATE", "ghp_"} {
		w.view("grep -i NAME", "", []int{0, 1}, "out", "grep", "--session", session("tools"), "-i", "--", n)
	}
	w.report()
}
