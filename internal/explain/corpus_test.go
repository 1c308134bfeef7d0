package explain

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The corpus: real runs of the tools rac wraps, each with the substring of
// the line that really caused its failure. explain must show that line
// among its lines in at least 95% of the runs; the score is printed beside
// tail -10's and a naive grep -iE 'error|fail|fatal' | head -4's on the
// same output.
//
// The runs are made once, live, by make corpus (-corpus.live), which keeps
// what each tool wrote under testdata/corpus/; every go test scores explain
// on those files, so the score is the same on every machine and does not
// wait for compilers. A case whose tools are not installed keeps the files
// a machine that had them made.

var corpusLive = flag.Bool("corpus.live", false,
	"run the corpus's real tools and rewrite testdata/corpus from what they wrote")

var corpusHeldout = flag.Bool("corpus.heldout", false,
	"with -corpus.live, record the held-out sets again too (their pins then fail until -heldout.pin)")

const corpusDir = "testdata/corpus"

// corpusWork stands for the live run's temporary root in the kept files:
// the same text whatever folder the run was made in, so a refresh changes
// only what the tools changed.
const corpusWork = "/tmp/rac-corpus"

// corpusCase is one real run.
type corpusCase struct {
	name  string
	tools []string          // executables that must be on PATH, else the case is skipped
	files map[string]string // written under the case directory first
	setup [][]string        // commands run first, in the case directory; each must succeed
	dir   string            // where argv runs, relative to the case directory
	argv  []string
	want  string // substring of the causal line
	pass  bool   // the run succeeds and has no error line: explain must show its tail
}

// corpusResult is what one case scored: explain in both stream forms
// (two pipes, and one combined stream as a pty gives), the lines its text
// took, and the naive views on the combined output.
type corpusResult struct {
	pipes, combined         bool
	textLines, combinedText int
	tail, grep, headTail    bool
	long                    bool // the combined output has more than 20 lines
}

// corpusSet is a corpus with its own folder: the tuning corpus explain's
// ranking is written against, and the held-out corpus it is only scored on.
type corpusSet struct {
	name  string
	dir   string
	cases func() []corpusCase
	// report: the score is printed and not asserted (a held-out set
	// recorded for a change of the ranking still to come)
	report bool
}

var corpusSets = []corpusSet{
	{name: "tuning", dir: corpusDir, cases: func() []corpusCase {
		return append(append(append(corpusCases(), tuningWideCases()...), tuningRankCases()...), tuningThirdCases()...)
	}},
	{name: "held-out", dir: heldoutDir, cases: heldoutCases},
	{name: "held-out-3", dir: heldoutThirdDir, cases: heldoutThirdCases, report: true},
	{name: "held-out-4", dir: heldoutFourthDir, cases: heldoutFourthCases, report: true},
	{name: "held-out-5", dir: heldoutFifthDir, cases: heldoutFifthCases, report: true},
	{name: "held-out-6", dir: heldoutSixthDir, cases: heldoutSixthCases, report: true},
	{name: "held-out-7", dir: heldoutSeventhDir, cases: heldoutSeventhCases, report: true},
}

// corpusRun is what one run left, as kept under testdata/corpus/SLUG/: the
// files stdout and stderr, and run.json for the rest.
type corpusRun struct {
	Argv     []string `json:"argv"`
	Cwd      string   `json:"cwd"`
	ExitCode int      `json:"exit_code"` // -1 for a signal death
	Signal   string   `json:"signal,omitempty"`
	// Order is how the writes of the two streams interleaved ("stdout N",
	// "stderr N", runs of one stream merged), to rebuild the combined
	// output the tail and grep baselines read, as a terminal showed it.
	Order  []string `json:"order"`
	stdout []byte
	stderr []byte
}

func TestCorpus(t *testing.T) {
	var env *corpusEnv
	if *corpusLive {
		env = newCorpusEnv(t)
	}
	for _, set := range corpusSets {
		e := env
		if set.name != "tuning" && !*corpusHeldout {
			// a held-out set is pinned as it was recorded: make corpus
			// scores its kept runs and leaves them alone
			e = nil
		}
		t.Run(set.name, func(t *testing.T) { scoreCorpusSet(t, e, set) })
	}
}

// Thresholds of the issue that asked for the held-out corpus: on each
// set, in each stream form.
const (
	corpusMinCases    = 25
	corpusMinPct      = 95
	corpusMaxMeanX100 = 800 // mean text lines of a report, times 100
)

func scoreCorpusSet(t *testing.T, env *corpusEnv, set corpusSet) {
	cases := set.cases()
	slugs := map[string]bool{}
	for _, c := range cases {
		s := corpusSlug(c.name)
		require.False(t, slugs[s], "two %s cases have the folder name %q", set.name, s)
		slugs[s] = true
	}
	if env == nil {
		// a folder no case owns is a renamed or removed case's leftover
		entries, err := os.ReadDir(set.dir)
		require.NoError(t, err)
		for _, e := range entries {
			if e.IsDir() && !slugs[e.Name()] {
				t.Errorf("%s/%s belongs to no corpus case: remove it, or run make corpus", set.dir, e.Name())
			}
		}
	}

	var (
		mu      sync.Mutex
		results = map[string]corpusResult{}
		skipped []string
		missing = map[string]int{} // tool -> cases skipped for it
	)
	t.Run("case", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				var run *corpusRun
				if env != nil {
					for _, tool := range c.tools {
						if _, err := exec.LookPath(tool); err != nil {
							mu.Lock()
							skipped = append(skipped, c.name+" ("+tool+" missing)")
							missing[tool]++
							mu.Unlock()
							t.Skipf("%s not on PATH (its kept run stays): %v", tool, err)
						}
					}
					run = liveCorpusCase(t, env, set.dir, c)
				} else {
					var ok bool
					run, ok = readCorpusRun(t, set.dir, corpusSlug(c.name))
					if !ok {
						mu.Lock()
						skipped = append(skipped, c.name+" (no kept run: make corpus on a machine with "+strings.Join(c.tools, ", ")+")")
						mu.Unlock()
						t.Skipf("no kept run in %s/%s", set.dir, corpusSlug(c.name))
					}
				}
				r := scoreCorpusCase(t, c, run)
				mu.Lock()
				results[c.name] = r
				mu.Unlock()
			})
		}
	})

	var fails, passes, pipes, comb, tl, gr, ht, lines, clines, passOK int
	var longFails, longHits, longHT int
	var missed []string
	for _, c := range cases {
		r, ok := results[c.name]
		if !ok {
			continue
		}
		lines += r.textLines
		clines += r.combinedText
		if c.pass {
			passes++
			if r.pipes && r.combined {
				passOK++
			} else {
				missed = append(missed, c.name+" (pass)")
			}
			continue
		}
		fails++
		if r.long {
			longFails++
			if r.pipes && r.combined {
				longHits++
			}
			if r.headTail {
				longHT++
			}
		}
		if r.pipes {
			pipes++
		}
		if r.combined {
			comb++
		}
		if !r.pipes || !r.combined {
			missed = append(missed, fmt.Sprintf("%s (pipes %v, combined %v)", c.name, r.pipes, r.combined))
		}
		if r.tail {
			tl++
		}
		if r.grep {
			gr++
		}
		if r.headTail {
			ht++
		}
	}
	n := len(results)
	tools := map[string]bool{}
	for _, c := range cases {
		if _, ok := results[c.name]; ok && len(c.tools) > 0 {
			tools[c.tools[0]] = true // the tool the case is about; the rest only serve it
		}
	}
	pct := func(k, of int) string {
		if of == 0 {
			return fmt.Sprintf("%d/0", k)
		}
		return fmt.Sprintf("%d/%d (%d%%)", k, of, k*100/of)
	}
	mean := func(total int) string {
		if n == 0 {
			return "0"
		}
		return fmt.Sprintf("%.1f", float64(total)/float64(n))
	}
	line := fmt.Sprintf("explain corpus %s: %d runs of %d tools; failures with the cause shown: explain %s two pipes, %s combined; "+
		"passing runs with their pass line and no cause %s; mean lines %s (combined %s); "+
		"beside tail -10 %s, grep|head -4 %s, head -10+tail -10 %s",
		set.name, n, len(tools), pct(pipes, fails), pct(comb, fails), pct(passOK, passes), mean(lines), mean(clines),
		pct(tl, fails), pct(gr, fails), pct(ht, fails))
	line += fmt.Sprintf("; failures over 20 lines: explain %s, head -10+tail -10 %s", pct(longHits, longFails), pct(longHT, longFails))
	t.Log(line)
	fmt.Println(line) // on stdout too, so make test logs carry the score
	if len(skipped) > 0 {
		sort.Strings(skipped)
		t.Logf("skipped: %s", strings.Join(skipped, ", "))
	}
	if env != nil {
		// on stdout: make corpus shows which tools this machine lacked
		tools := make([]string, 0, len(missing))
		for tool, k := range missing {
			tools = append(tools, fmt.Sprintf("%s (%d cases)", tool, k))
		}
		sort.Strings(tools)
		if len(tools) == 0 {
			fmt.Printf("explain corpus %s: every tool was installed; no case skipped\n", set.name)
		} else {
			fmt.Printf("explain corpus %s: not installed, so skipped (their kept runs stay): %s\n", set.name, strings.Join(tools, ", "))
		}
	}
	if len(missed) > 0 {
		t.Logf("explain missed: %s", strings.Join(missed, ", "))
	}
	if set.report {
		return
	}
	require.GreaterOrEqual(t, n, corpusMinCases, "at least %d corpus cases must be scored", corpusMinCases)
	assert.GreaterOrEqual(t, pipes*100, corpusMinPct*fails, "explain must show the causal line in at least %d%% of the failures (two pipes)", corpusMinPct)
	assert.GreaterOrEqual(t, comb*100, corpusMinPct*fails, "explain must show the causal line in at least %d%% of the failures (combined)", corpusMinPct)
	assert.Equal(t, passes, passOK, "every passing run must show its pass line and no cause")
	assert.LessOrEqual(t, lines*100, corpusMaxMeanX100*n, "explain's mean output must stay at most 8 lines")
	assert.LessOrEqual(t, clines*100, corpusMaxMeanX100*n, "explain's mean output must stay at most 8 lines (combined)")
}

// corpusSlug is a case's folder under testdata/corpus.
func corpusSlug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	return b.String()
}

// combined rebuilds the two streams as one, in the order they were written.
func (r *corpusRun) combined() ([]byte, error) {
	var all bytes.Buffer
	streams := map[string][]byte{"stdout": r.stdout, "stderr": r.stderr}
	for _, o := range r.Order {
		name, ns, _ := strings.Cut(o, " ")
		n, err := strconv.Atoi(ns)
		b, ok := streams[name]
		if err != nil || !ok || n < 0 || n > len(b) {
			return nil, fmt.Errorf("order %q does not fit the streams", o)
		}
		all.Write(b[:n])
		streams[name] = b[n:]
	}
	if len(streams["stdout"])+len(streams["stderr"]) > 0 {
		return nil, errors.New("order leaves bytes of the streams out")
	}
	return all.Bytes(), nil
}

// readCorpusRun reads a kept run; false when the case has none.
func readCorpusRun(t *testing.T, root, slug string) (*corpusRun, bool) {
	dir := filepath.Join(root, slug)
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false
	}
	require.NoError(t, err)
	r := &corpusRun{}
	require.NoError(t, json.Unmarshal(b, r), "%s/run.json", dir)
	r.stdout, err = os.ReadFile(filepath.Join(dir, "stdout"))
	require.NoError(t, err)
	r.stderr, err = os.ReadFile(filepath.Join(dir, "stderr"))
	require.NoError(t, err)
	return r, true
}

// writeCorpusRun replaces a case's kept run.
func writeCorpusRun(t *testing.T, root, slug string, r *corpusRun) {
	dir := filepath.Join(root, slug)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	b, err := json.MarshalIndent(r, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run.json"), append(b, '\n'), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stdout"), r.stdout, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stderr"), r.stderr, 0o644))
}

// liveCorpusCase makes the run in a fresh folder under the corpus root,
// scores it as it came, and keeps it (with the root's path replaced by
// corpusWork) once explain scores the kept form the same way.
func liveCorpusCase(t *testing.T, env *corpusEnv, root string, c corpusCase) *corpusRun {
	slug := corpusSlug(c.name)
	dir := filepath.Join(env.root, slug)
	home := filepath.Join(dir, ".home")
	require.NoError(t, os.MkdirAll(home, 0o755))
	vars := env.vars(home)
	for name, body := range c.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	for _, argv := range c.setup {
		run, err := runCorpus(dir, vars, argv)
		require.NoError(t, err, "setup %q failed:\n%s%s", argv, run.stdout, run.stderr)
	}
	runDir := filepath.Join(dir, filepath.FromSlash(c.dir))
	raw, err := runCorpus(runDir, vars, c.argv)
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exitErr) && exitErr.ExitCode() >= 0:
		raw.ExitCode = exitErr.ExitCode()
	case errors.As(err, &exitErr):
		raw.ExitCode, raw.Signal = -1, exitErr.String()
	default:
		t.Fatalf("%q did not run: %v", c.argv, err)
	}

	// the same run as kept: the writes again, each with the root replaced
	kept := &corpusRun{Argv: c.argv, ExitCode: raw.ExitCode, Signal: raw.Signal,
		Cwd: strings.Replace(runDir, env.root, corpusWork, 1)}
	var w corpusWriter
	rest := map[string][]byte{"stdout": raw.stdout, "stderr": raw.stderr}
	for _, o := range raw.Order {
		name, ns, _ := strings.Cut(o, " ")
		n, err := strconv.Atoi(ns)
		require.NoError(t, err)
		_, _ = w.stream(name).Write(bytes.ReplaceAll(rest[name][:n], []byte(env.root), []byte(corpusWork)))
		rest[name] = rest[name][n:]
	}
	w.finish(kept)
	// kept before it is scored: a held-out case's cause is marked by hand
	// from what the tool really wrote
	writeCorpusRun(t, root, slug, kept)
	return kept
}

// scoreCorpusCase checks the run is the case it claims to be and scores
// explain, tail -10 and grep on it.
func scoreCorpusCase(t *testing.T, c corpusCase, run *corpusRun) corpusResult {
	combined, err := run.combined()
	require.NoError(t, err)
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	end := start.Add(time.Second)
	meta := Meta{Ref: "corpus/" + c.name, Argv: run.Argv, Cwd: run.Cwd, StartedAt: start, EndedAt: &end}
	if run.Signal != "" {
		meta.Status, meta.Signal = StatusSignaled, run.Signal
	} else {
		code := run.ExitCode
		meta.Status, meta.ExitCode = StatusExited, &code
	}
	if c.pass {
		require.True(t, run.ExitCode == 0 && run.Signal == "", "a passing case failed:\n%s", combined)
	} else {
		require.False(t, run.ExitCode == 0 && run.Signal == "", "a failing case passed:\n%s", combined)
	}
	require.Contains(t, string(combined), c.want,
		"the causal line is not in the output: the case is wrong for this tool version")

	pipes := explainCorpusRun(t, meta, end, []Stream{
		{Name: "stdout", R: bytes.NewReader(run.stdout)},
		{Name: "stderr", R: bytes.NewReader(run.stderr)},
	})
	comb := explainCorpusRun(t, meta, end, []Stream{{Name: "pty", R: bytes.NewReader(combined)}})
	r := corpusResult{
		pipes: corpusHit(c, pipes), combined: corpusHit(c, comb),
		textLines: len(reportLines(pipes)), combinedText: len(reportLines(comb)),
		tail:     containsAny(tailLines(combined, 10), c.want),
		grep:     containsAny(grepHead(combined, 4), c.want),
		headTail: containsAny(headLines(combined, 10), c.want) || containsAny(tailLines(combined, 10), c.want),
		long:     bytes.Count(combined, []byte("\n")) > 20,
	}
	if !r.pipes || !r.combined {
		t.Logf("explain did not show %q (pipes %v, combined %v):\n%s\n%s", c.want, r.pipes, r.combined, pipes, comb)
	} else {
		t.Logf("\n%s", pipes)
	}
	return r
}

func explainCorpusRun(t *testing.T, meta Meta, end time.Time, streams []Stream) *Report {
	rep, err := Explain(Input{Meta: meta, Now: func() time.Time { return end }, Streams: streams})
	require.NoError(t, err)
	return rep
}

// corpusHit says whether the report's text shows the case's line in its
// first 12 lines, and for a passing run, no cause.
func corpusHit(c corpusCase, rep *Report) bool {
	lines := reportLines(rep)
	return containsAny(lines[:min(len(lines), 12)], c.want) && (!c.pass || rep.Shows != ShowsCause)
}

func reportLines(rep *Report) []string {
	return strings.Split(strings.TrimSuffix(rep.String(), "\n"), "\n")
}

func headLines(b []byte, n int) []string {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return lines[:min(len(lines), n)]
}

func containsAny(lines []string, want string) bool {
	for _, l := range lines {
		if strings.Contains(l, want) {
			return true
		}
	}
	return false
}

func tailLines(b []byte, n int) []string {
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	return lines[max(len(lines)-n, 0):]
}

var naiveGrep = regexp.MustCompile(`(?i)error|fail|fatal`)

func grepHead(b []byte, n int) []string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if len(out) < n && naiveGrep.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

// corpusWriter keeps the two streams of a run and the order of their
// writes (a terminal, or a pipe 2>&1, would show them so).
type corpusWriter struct {
	mu    sync.Mutex
	out   bytes.Buffer
	err   bytes.Buffer
	order []string
	last  string
	lastN int
}

type corpusStream struct {
	w    *corpusWriter
	name string
}

func (w *corpusWriter) stream(name string) corpusStream { return corpusStream{w, name} }

func (s corpusStream) Write(p []byte) (int, error) {
	w := s.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if s.name != w.last {
		w.flush()
		w.last = s.name
	}
	w.lastN += len(p)
	if s.name == "stdout" {
		return w.out.Write(p)
	}
	return w.err.Write(p)
}

func (w *corpusWriter) flush() {
	if w.lastN > 0 {
		w.order = append(w.order, fmt.Sprintf("%s %d", w.last, w.lastN))
	}
	w.lastN = 0
}

// finish hands the streams and their order to r.
func (w *corpusWriter) finish(r *corpusRun) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flush()
	r.Order = append(make([]string, 0, len(w.order)), w.order...)
	r.stdout = bytes.Clone(w.out.Bytes())
	r.stderr = bytes.Clone(w.err.Bytes())
}

// runCorpus runs argv in dir with exactly env.
func runCorpus(dir string, env []string, argv []string) (*corpusRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	var w corpusWriter
	cmd.Stdout = w.stream("stdout")
	cmd.Stderr = w.stream("stderr")
	err := cmd.Run()
	run := &corpusRun{Argv: argv, Cwd: dir}
	w.finish(run)
	return run, err
}

// corpusEnv is the environment of every live run: a temporary root that
// holds each case's folder and HOME, git kept from looking above it and
// from any configuration but its own, go's flags its own (not the
// caller's GOFLAGS, nor a go.work or VCS stamping that a folder above
// could disturb), the C locale, no colour, no network for go, cargo and
// npm, and the toolchains' caches and homes carried over from the real
// home so nothing is fetched or rebuilt from scratch.
type corpusEnv struct {
	root string
	keep []string
}

func newCorpusEnv(t *testing.T) *corpusEnv {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	e := &corpusEnv{root: root, keep: []string{"PATH=" + os.Getenv("PATH")}}
	realHome, _ := os.UserHomeDir()
	if _, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
		require.NoError(t, err)
		f := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(f) == 4 {
			e.keep = append(e.keep, "GOCACHE="+f[0], "GOMODCACHE="+f[1], "GOPATH="+f[2], "GOROOT="+f[3])
		}
	}
	// rustup's and pyenv's shims find their toolchains through these.
	for name, def := range map[string]string{
		"RUSTUP_HOME": filepath.Join(realHome, ".rustup"),
		"CARGO_HOME":  filepath.Join(realHome, ".cargo"),
		"PYENV_ROOT":  filepath.Join(realHome, ".pyenv"),
	} {
		if v := os.Getenv(name); v != "" {
			e.keep = append(e.keep, name+"="+v)
		} else if _, err := os.Stat(def); err == nil {
			e.keep = append(e.keep, name+"="+def)
		}
	}
	for _, name := range []string{"JAVA_HOME", "PYENV_VERSION", "RUSTUP_TOOLCHAIN"} {
		if v := os.Getenv(name); v != "" {
			e.keep = append(e.keep, name+"="+v)
		}
	}
	return e
}

func (e *corpusEnv) vars(home string) []string {
	return append(append([]string{}, e.keep...),
		"HOME="+home,
		"TMPDIR="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"LC_ALL=C", "LANG=C", "TERM=dumb", "NO_COLOR=1",
		"USER=rac", "LOGNAME=rac",
		"GIT_CEILING_DIRECTORIES="+e.root,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME=rac test", "GIT_AUTHOR_EMAIL=rac@example.com",
		"GIT_COMMITTER_NAME=rac test", "GIT_COMMITTER_EMAIL=rac@example.com",
		"GIT_AUTHOR_DATE=2025-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2025-01-02T03:04:05Z",
		"GIT_TERMINAL_PROMPT=0",
		"GOFLAGS=-buildvcs=false -mod=mod", "GOENV=off",
		"GOPROXY=off", "GOSUMDB=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOTELEMETRY=off",
		"CGO_ENABLED=0",
		"CARGO_NET_OFFLINE=true", "CARGO_TERM_COLOR=never", "RUSTUP_AUTO_INSTALL=0",
		"npm_config_cache="+filepath.Join(home, ".npm"), "npm_config_offline=true",
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false",
		"PYTHONDONTWRITEBYTECODE=1",
		"KUBECONFIG="+filepath.Join(home, "no-kubeconfig"),
	)
}

// goModule is a throwaway module: go.mod plus the given files.
func goModule(files map[string]string) map[string]string {
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	return files
}

// goPackages makes n small passing packages with a test each.
func goPackages(files map[string]string, names ...string) map[string]string {
	for _, n := range names {
		files[n+"/"+n+".go"] = fmt.Sprintf("package %s\n\n// Name names the package.\nfunc Name() string { return %q }\n", n, n)
		files[n+"/"+n+"_test.go"] = fmt.Sprintf("package %s\n\nimport \"testing\"\n\nfunc TestName(t *testing.T) {\n\tif Name() != %q {\n\t\tt.Fatal(\"wrong name\")\n\t}\n}\n", n, n)
	}
	return files
}

// gitRepo is the setup of a repository with one commit of f.txt.
var gitRepo = [][]string{
	{"git", "init", "-q", "-b", "main", "repo"},
	{"sh", "-c", "cd repo && printf 'port = 8080\\nhost = localhost\\n' > f.txt && git add f.txt && git commit -qm init"},
}

// serverLog writes a long service log with one ERROR in the middle.
const serverLog = `import logging, sys
logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("orders")
db = logging.getLogger("db")
log.info("starting orders service, error budget 99.9%, retries=3")
for i in range(1, 3001):
    log.info("GET /api/orders/%d 200 %dms", i, 3 + i % 17)
    if i % 500 == 0:
        log.warning("slow request /api/orders/%d took %dms (timeout 2000ms)", i, 1500 + i % 400)
    if i == 1500:
        db.error("connection to postgres://orders-db:5432 refused; giving up after 3 attempts")
        failed = i
log.info("drained; processed 3000 requests")
sys.exit(1)
`

func corpusCases() []corpusCase {
	progress := strings.Repeat("echo step ok\n", 40)
	return []corpusCase{
		// go
		{
			name: "go test: one failing package among twelve", tools: []string{"go"},
			files: goModule(goPackages(map[string]string{
				"billing/billing.go":      "package billing\n\n// Total sums cents.\nfunc Total(items ...int) int {\n\tt := 1\n\tfor _, i := range items {\n\t\tt += i\n\t}\n\treturn t\n}\n",
				"billing/billing_test.go": "package billing\n\nimport \"testing\"\n\nfunc TestTotal(t *testing.T) {\n\tif got := Total(10, 20); got != 30 {\n\t\tt.Errorf(\"Total(10, 20) = %d, want 30\", got)\n\t}\n}\n\nfunc TestTotalEmpty(t *testing.T) {\n\tt.Log(\"empty cart\")\n}\n",
			}, "api", "auth", "cache", "config", "db", "events", "httpx", "jobs", "logx", "metrics", "search")),
			argv: []string{"go", "test", "./..."}, want: "Total(10, 20) = 31, want 30",
		},
		{
			name: "go test -v: failing test message printed before its FAIL", tools: []string{"go"},
			files: goModule(goPackages(map[string]string{
				"parse/parse.go":      "package parse\n\nimport \"strconv\"\n\n// Port parses a port.\nfunc Port(s string) (int, error) { return strconv.Atoi(s[1:]) }\n",
				"parse/parse_test.go": "package parse\n\nimport \"testing\"\n\nfunc TestPortError(t *testing.T) {\n\tif _, err := Port(\"x\"); err == nil {\n\t\tt.Log(\"no error\")\n\t}\n}\n\nfunc TestPort(t *testing.T) {\n\tt.Log(\"parsing 8080\")\n\tif p, err := Port(\"8080\"); err != nil || p != 8080 {\n\t\tt.Fatalf(\"Port(8080) = %d, %v; want 8080\", p, err)\n\t}\n}\n\nfunc TestPortRange(t *testing.T) {\n\tfor i := 0; i < 3; i++ {\n\t\tt.Logf(\"case %d\", i)\n\t}\n}\n",
			}, "alpha", "beta", "gamma")),
			argv: []string{"go", "test", "-v", "./..."}, want: "Port(8080) = 80, <nil>; want 8080",
		},
		{
			name: "go test -v: passing tests named Error", tools: []string{"go"}, pass: true,
			files: goModule(map[string]string{
				"errors/errors.go":      "package errors\n\n// Wrap wraps.\nfunc Wrap(s string) string { return \"wrapped: \" + s }\n",
				"errors/errors_test.go": "package errors\n\nimport \"testing\"\n\nfunc TestErrorHandling(t *testing.T) { t.Log(\"error path handled\") }\nfunc TestWrapError(t *testing.T) {\n\tif Wrap(\"x\") != \"wrapped: x\" {\n\t\tt.Fatal(\"bad\")\n\t}\n}\nfunc TestFailover(t *testing.T) {}\n",
				"retry/retry.go":        "package retry\n\n// Max is the retry limit.\nconst Max = 3\n",
				"retry/retry_test.go":   "package retry\n\nimport \"testing\"\n\nfunc TestRetryOnTimeoutError(t *testing.T) { t.Logf(\"max %d\", Max) }\nfunc TestFailureCount(t *testing.T) {}\n",
			}),
			argv: []string{"go", "test", "-v", "-count=1", "./..."}, want: "ok  \texample.com/m/retry",
		},
		{
			name: "go test: compile error cascading into dependent packages", tools: []string{"go"},
			files: goModule(map[string]string{
				"store/store.go":  "package store\n\n// Open opens the store.\nfunc Open() error { return openDB(\"orders\") }\n",
				"api/api.go":      "package api\n\nimport \"example.com/m/store\"\n\nvar _ = store.Open\n",
				"api/api_test.go": "package api\n\nimport \"testing\"\n\nfunc TestAPI(t *testing.T) {}\n",
				"cli/cli.go":      "package cli\n\nimport \"example.com/m/store\"\n\nvar _ = store.Open\n",
				"cli/cli_test.go": "package cli\n\nimport \"testing\"\n\nfunc TestCLI(t *testing.T) {}\n",
			}),
			argv: []string{"go", "test", "./..."}, want: "undefined: openDB",
		},
		{
			name: "go build: renamed constructor used in several places", tools: []string{"go"},
			files: goModule(map[string]string{
				"main.go": "package main\n\nimport \"fmt\"\n\ntype Server struct{ Port int }\n\nfunc main() {\n\ta := NewServer(8080)\n\tb := NewServer(8081)\n\tfmt.Println(a.Port, b.Port, undefinedHelper())\n}\n",
			}),
			argv: []string{"go", "build", "-o", os.DevNull, "."}, want: "undefined: NewServer",
		},
		{
			name: "go vet: printf verb", tools: []string{"go"},
			files: goModule(map[string]string{
				"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tname := \"srv\"\n\tfmt.Printf(\"starting %d\\n\", name)\n}\n",
			}),
			argv: []string{"go", "vet", "./..."}, want: "fmt.Printf format %d has arg name of wrong type string",
		},
		{
			name: "go run: index out of range panic", tools: []string{"go"},
			files: goModule(map[string]string{
				"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tports := []int{80, 443}\n\tfor i := 0; i <= len(ports); i++ {\n\t\tfmt.Println(\"listening on\", ports[i])\n\t}\n}\n",
			}),
			argv: []string{"go", "run", "."}, want: "panic: runtime error: index out of range [2] with length 2",
		},
		{
			name: "go test: panic inside a test", tools: []string{"go"},
			files: goModule(goPackages(map[string]string{
				"cache/cache.go":      "package cache\n\n// C is a cache.\ntype C struct{ m map[string]int }\n\n// Put stores v.\nfunc (c *C) Put(k string, v int) { c.m[k] = v }\n",
				"cache/cache_test.go": "package cache\n\nimport \"testing\"\n\nfunc TestPut(t *testing.T) {\n\tvar c C\n\tc.Put(\"a\", 1)\n}\n",
			}, "queue", "worker")),
			argv: []string{"go", "test", "./..."}, want: "panic: assignment to entry in nil map",
		},
		{
			name: "go build: module missing with GOPROXY=off", tools: []string{"go"},
			files: goModule(map[string]string{
				"main.go": "package main\n\nimport \"github.com/acme/widgets/render\"\n\nfunc main() { render.Page() }\n",
			}),
			argv: []string{"go", "build", "-o", os.DevNull, "."}, want: "cannot find module providing package github.com/acme/widgets/render",
		},

		// git
		{
			name: "git push rejected by a local bare remote", tools: []string{"git"},
			setup: [][]string{
				{"git", "init", "-q", "--bare", "-b", "main", "remote.git"},
				{"git", "clone", "-q", "remote.git", "one"},
				{"sh", "-c", "cd one && echo 1 > a && git add a && git commit -qm one && git push -q origin HEAD:main"},
				{"git", "clone", "-q", "-b", "main", "remote.git", "two"},
				{"sh", "-c", "cd two && echo 2 > b && git add b && git commit -qm two && git push -q origin main"},
				{"sh", "-c", "cd one && echo 3 > c && git add c && git commit -qm three"},
			},
			dir: "one", argv: []string{"git", "push", "origin", "HEAD:main"}, want: "! [rejected]",
		},
		{
			name: "git merge conflict", tools: []string{"git"},
			setup: append(append([][]string{}, gitRepo...),
				[]string{"sh", "-c", "cd repo && git checkout -qb feature && sed -i 's/8080/9090/' f.txt && git commit -qam 'port 9090' && git checkout -q main && sed -i 's/8080/7070/' f.txt && git commit -qam 'port 7070'"}),
			dir: "repo", argv: []string{"git", "merge", "feature"}, want: "CONFLICT (content): Merge conflict in f.txt",
		},
		{
			name: "git rebase conflict", tools: []string{"git"},
			setup: append(append([][]string{}, gitRepo...),
				[]string{"sh", "-c", "cd repo && git checkout -qb feature && sed -i 's/8080/9090/' f.txt && git commit -qam 'port 9090' && git checkout -q main && sed -i 's/8080/7070/' f.txt && git commit -qam 'port 7070' && git checkout -q feature"}),
			dir: "repo", argv: []string{"git", "rebase", "main"}, want: "CONFLICT (content): Merge conflict in f.txt",
		},
		{
			name: "git checkout of a missing branch", tools: []string{"git"},
			setup: gitRepo, dir: "repo", argv: []string{"git", "checkout", "release-2.0"},
			want: "error: pathspec 'release-2.0' did not match",
		},
		{
			name: "git clone of a missing repository", tools: []string{"git"},
			argv: []string{"git", "clone", "/nonexistent/widgets.git"}, want: "does not exist",
		},
		{
			name: "git apply of a stale patch", tools: []string{"git"},
			setup: gitRepo,
			files: map[string]string{"fix.patch": "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-port = 9999\n+port = 8443\n host = localhost\n"},
			dir:   "repo", argv: []string{"git", "apply", "../fix.patch"}, want: "error: patch failed: f.txt:1",
		},

		// python
		{
			name: "python chained traceback", tools: []string{"python3"},
			files: map[string]string{"app.py": "import json\n\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n\ndef main():\n    try:\n        load(\"settings.json\")\n    except FileNotFoundError as e:\n        raise RuntimeError(\"cannot start: configuration unavailable\") from e\n\n\nmain()\n"},
			argv:  []string{"python3", "app.py"}, want: "FileNotFoundError: [Errno 2] No such file or directory: 'settings.json'",
		},
		{
			name: "python exception without Error in its name", tools: []string{"python3"},
			files: map[string]string{"quota.py": "class QuotaExceeded(Exception):\n    pass\n\n\ndef store(n):\n    for i in range(n):\n        print(f\"stored chunk {i}\")\n    raise QuotaExceeded(\"disk quota of 10 GiB reached on /var/lib/app\")\n\n\nstore(30)\n"},
			argv:  []string{"python3", "quota.py"}, want: "QuotaExceeded: disk quota of 10 GiB reached",
		},
		{
			name: "python SyntaxError", tools: []string{"python3"},
			files: map[string]string{"bad.py": "def main():\n    print(\"starting\"\n\nmain()\n"},
			argv:  []string{"python3", "bad.py"}, want: "SyntaxError: '(' was never closed",
		},
		{
			name: "python unittest failure", tools: []string{"python3"},
			files: map[string]string{"test_cart.py": "import unittest\n\n\ndef total(items):\n    return sum(items) + 1\n\n\nclass CartTest(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(total([10, 20]), 30)\n\n    def test_error_message(self):\n        self.assertTrue(True)\n\n    def test_empty(self):\n        self.assertEqual(total([]), 1)\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n"},
			argv:  []string{"python3", "-m", "unittest", "-v", "test_cart"}, want: "AssertionError: 31 != 30",
		},
		{
			name: "python missing module", tools: []string{"python3"},
			files: map[string]string{"job.py": "import os\nimport sys\nprint('loading plugins')\nimport widgets_renderer\n"},
			argv:  []string{"python3", "job.py"}, want: "ModuleNotFoundError: No module named 'widgets_renderer'",
		},
		{
			name: "long service log with one ERROR in the middle", tools: []string{"python3"},
			files: map[string]string{"server.py": serverLog},
			argv:  []string{"python3", "server.py"}, want: "connection to postgres://orders-db:5432 refused",
		},
		{
			name: "python json.tool on malformed JSON", tools: []string{"python3"},
			files: map[string]string{"bad.json": "{\"name\": \"orders\" \"port\": 8080}\n"},
			argv:  []string{"python3", "-m", "json.tool", "bad.json"}, want: "Expecting ',' delimiter",
		},

		// java
		{
			name: "javac cascade from a missing package", tools: []string{"javac"},
			files: map[string]string{"Main.java": "import com.example.missing.Widget;\n\npublic class Main {\n    public static void main(String[] args) {\n        Widget w = new Widget();\n        w.render();\n        System.out.println(count(3));\n    }\n}\n"},
			argv:  []string{"javac", "-d", "out", "Main.java"}, want: "error: package com.example.missing does not exist",
		},
		{
			name: "java uncaught exception", tools: []string{"java"},
			files: map[string]string{"App.java": "public class App {\n    static int port(String s) {\n        return Integer.parseInt(s);\n    }\n    public static void main(String[] args) {\n        System.out.println(\"booting\");\n        try {\n            port(\"80a\");\n        } catch (NumberFormatException e) {\n            throw new IllegalStateException(\"bad port in config\", e);\n        }\n    }\n}\n"},
			argv:  []string{"java", "App.java"}, want: "java.lang.IllegalStateException: bad port in config",
		},

		// C and make
		{
			name: "make -k with one failing file", tools: []string{"make", "cc"},
			files: map[string]string{
				"Makefile": "CFLAGS=-Wall\nall: a.o b.o c.o\n",
				"a.c":      "int a(void) { return 1; }\n",
				"b.c":      "#include <stdio.h>\nint b(void) {\n    int unused;\n    printf(\"%d\\n\", total);\n    return 0;\n}\n",
				"c.c":      "int c(void) { return 3; }\n",
			},
			argv: []string{"make", "-k"}, want: "error: 'total' undeclared",
		},
		{
			name: "gcc cascade from an unknown type", tools: []string{"gcc"},
			files: map[string]string{"main.c": "#include <stdio.h>\nstruct config cfg;\nconfig_t load(void);\nint main(void) {\n    config_t c = load();\n    printf(\"%d\\n\", c.port);\n    return cfg.x;\n}\n"},
			argv:  []string{"gcc", "-o", "main", "main.c"}, want: "error: unknown type name 'config_t'",
		},
		{
			name: "gcc link error", tools: []string{"gcc"},
			files: map[string]string{"main.c": "int flush_queue(int);\nint main(void) { return flush_queue(3); }\n"},
			argv:  []string{"gcc", "-o", "main", "main.c"}, want: "undefined reference to `flush_queue'",
		},
		{
			name: "make missing rule", tools: []string{"make"},
			files: map[string]string{"Makefile": "all: bundle.js\n\nbundle.js: src/index.js\n\tcat src/index.js > bundle.js\n"},
			argv:  []string{"make"}, want: "No rule to make target 'src/index.js'",
		},

		// rust
		{
			name: "cargo build: unresolved names", tools: []string{"cargo"},
			files: map[string]string{
				"Cargo.toml":  "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
				"src/main.rs": "fn main() {\n    let total = add(2, 3);\n    println!(\"{}\", totl);\n}\n\nfn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
			},
			argv: []string{"cargo", "build", "--offline"}, want: "error[E0425]: cannot find value `totl` in this scope",
		},
		{
			name: "cargo test: failing assert_eq", tools: []string{"cargo"},
			files: map[string]string{
				"Cargo.toml": "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
				"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    a + b + 1\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds_small_numbers() {\n        assert_eq!(add(2, 2), 4);\n    }\n    #[test]\n    fn error_message_is_stable() {\n        assert_eq!(1, 1);\n    }\n}\n",
			},
			argv: []string{"cargo", "test", "--offline"}, want: "assertion `left == right` failed",
		},

		// node and npm
		{
			name: "npm run: build script throws", tools: []string{"npm", "node"},
			files: map[string]string{
				"package.json": "{\"name\":\"site\",\"version\":\"1.0.0\",\"private\":true,\"scripts\":{\"build\":\"node build.js\"}}\n",
				"build.js":     "const fs = require('fs');\nconst path = require('path');\nfor (let i = 0; i < 20; i++) console.log('rendered page ' + i);\nconst cfg = JSON.parse(fs.readFileSync(path.join(__dirname, 'site.config.json'), 'utf8'));\nconsole.log(cfg);\n",
			},
			argv: []string{"npm", "run", "build"}, want: "Error: ENOENT: no such file or directory",
		},
		{
			name: "npm run: missing script", tools: []string{"npm"},
			files: map[string]string{"package.json": "{\"name\":\"site\",\"version\":\"1.0.0\",\"private\":true,\"scripts\":{\"build\":\"node build.js\"}}\n"},
			argv:  []string{"npm", "run", "deploy"}, want: "Missing script: \"deploy\"",
		},
		{
			name: "node uncaught TypeError", tools: []string{"node"},
			files: map[string]string{"app.js": "const users = { alice: { email: 'a@example.com' } };\nfunction email(name) { return users[name].email.toLowerCase(); }\nconsole.log(email('alice'));\nconsole.log(email('bob'));\n"},
			argv:  []string{"node", "app.js"}, want: "TypeError: Cannot read properties of undefined",
		},
		{
			name: "node --test failing assertion", tools: []string{"node"},
			files: map[string]string{"test/math.test.js": "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => { assert.strictEqual(1 + 1, 3); });\ntest('handles error input', () => { assert.ok(true); });\n"},
			argv:  []string{"node", "--test"}, want: "Expected values to be strictly equal",
		},

		// shell and small tools
		{
			name: "sh: command not found after progress output", tools: []string{"sh"},
			files: map[string]string{"deploy.sh": progress + "deployctl --now\necho done\nexit 127\n"},
			argv:  []string{"sh", "deploy.sh"}, want: "deployctl: not found",
		},
		{
			name: "sh -e: cp of a missing file", tools: []string{"sh", "cp"},
			files: map[string]string{"release.sh": "set -e\n" + progress + "cp build/app.tar.gz /tmp/release/\necho copied\n"},
			argv:  []string{"sh", "release.sh"}, want: "cannot stat 'build/app.tar.gz'",
		},
		{
			name: "cat of a missing file", tools: []string{"cat"},
			argv: []string{"cat", "config/app.yaml"}, want: "No such file or directory",
		},
		{
			name: "tar of a missing archive", tools: []string{"tar"},
			argv: []string{"tar", "xf", "backup.tar"}, want: "backup.tar: Cannot open: No such file or directory",
		},
		{
			name: "perl open failure", tools: []string{"perl"},
			files: map[string]string{"report.pl": "use strict;\nprint \"generating report\\n\";\nopen(my $fh, '<', 'data/sales.csv') or die \"Can't open data/sales.csv: $!\\n\";\n"},
			argv:  []string{"perl", "report.pl"}, want: "Can't open data/sales.csv: No such file or directory",
		},
		{
			name: "curl connection refused on loopback", tools: []string{"curl"},
			argv: []string{"curl", "-sS", "--max-time", "10", "http://127.0.0.1:1/health"}, want: "Failed to connect to 127.0.0.1 port 1",
		},

		// failure blocks and structured reports (the classes the held-out
		// corpus is scored on, in runs of their own)
		{
			name: "go test -v: subtest message printed before the other subtests", tools: []string{"go"},
			files: goModule(map[string]string{
				"duration/duration.go":      "package duration\n\nimport \"time\"\n\n// Parse parses a duration with a day unit.\nfunc Parse(s string) (time.Duration, error) { return time.ParseDuration(s) }\n",
				"duration/duration_test.go": "package duration\n\nimport (\n\t\"testing\"\n\t\"time\"\n)\n\nfunc TestParse(t *testing.T) {\n\tfor _, tc := range []struct {\n\t\tin  string\n\t\tout time.Duration\n\t}{{\"1s\", time.Second}, {\"1d\", 24 * time.Hour}, {\"2m\", 2 * time.Minute}, {\"3h\", 3 * time.Hour}} {\n\t\tt.Run(tc.in, func(t *testing.T) {\n\t\t\tt.Logf(\"parsing %s\", tc.in)\n\t\t\tgot, _ := Parse(tc.in)\n\t\t\tif got != tc.out {\n\t\t\t\tt.Errorf(\"Parse(%q) is %v, the day unit is not read\", tc.in, got)\n\t\t\t}\n\t\t})\n\t}\n}\n",
			}),
			argv: []string{"go", "test", "-v", "-count=1", "./..."}, want: `Parse("1d") is 0s, the day unit is not read`,
		},
		{
			name: "go test -race: two goroutines write one field", tools: []string{"go", "gcc"},
			files: goModule(map[string]string{
				"stats/stats.go":      "package stats\n\n// S holds a maximum.\ntype S struct{ Max int }\n\n// Observe records v.\nfunc (s *S) Observe(v int) {\n\tif v > s.Max {\n\t\ts.Max = v\n\t}\n}\n",
				"stats/stats_test.go": "package stats\n\nimport \"testing\"\n\nfunc TestObserve(t *testing.T) {\n\tvar s S\n\tdone := make(chan bool)\n\tgo func() { s.Observe(3); done <- true }()\n\ts.Observe(5)\n\t<-done\n\tt.Log(s.Max)\n}\n",
			}),
			argv: []string{"sh", "-c", "CGO_ENABLED=1 go test -race -count=1 ./..."}, want: "WARNING: DATA RACE",
		},
		{
			name: "valgrind: invalid write past a buffer", tools: []string{"gcc", "valgrind"},
			files: map[string]string{"copy.c": "#include <stdlib.h>\n#include <string.h>\nint main(void) {\n    char *name = malloc(6);\n    strcpy(name, \"orders\");\n    free(name);\n    return 0;\n}\n"},
			setup: [][]string{{"gcc", "-g", "-O0", "-fno-builtin", "-o", "copy", "copy.c"}},
			argv:  []string{"valgrind", "--error-exitcode=4", "./copy"}, want: "Invalid write of size 1",
		},
		{
			name: "valgrind: jump on an uninitialised value", tools: []string{"gcc", "valgrind"},
			files: map[string]string{"flag.c": "#include <stdio.h>\nint main(void) {\n    int ready;\n    if (ready > 2)\n        puts(\"ready\");\n    return 0;\n}\n"},
			setup: [][]string{{"gcc", "-g", "-O0", "-o", "flag", "flag.c"}},
			argv:  []string{"valgrind", "--error-exitcode=4", "./flag"}, want: "Conditional jump or move depends on uninitialised value",
		},
		{
			name: "sh: a log line whose reason follows a long prefix", tools: []string{"sh"},
			files: map[string]string{"sync.sh": "for i in 1 2 3; do echo \"2025-01-02T03:04:0$i.123456Z host=ingest-7.eu-central.internal pid=4242 component=replicator shard=orders-000$i span=9b1c7e2f44a0d1e3 parent=1f2e3d4c5b6a7988 level=info msg=copied batch $i\"; done\necho \"2025-01-02T03:04:09.123456Z host=ingest-7.eu-central.internal pid=4242 component=replicator shard=orders-0004 span=9b1c7e2f44a0d1e4 parent=1f2e3d4c5b6a7989 level=error msg=replica orders-b lags by 9000 batches, stopping the copy\" >&2\nexit 1\n"},
			argv:  []string{"sh", "sync.sh"}, want: "replica orders-b lags by 9000 batches",
		},
		{
			name: "pass: python script that logs a handled traceback", tools: []string{"python3"}, pass: true,
			files: map[string]string{"report.py": "import logging\nfor attempt in (1, 2):\n    try:\n        if attempt == 1:\n            raise TimeoutError('mirror did not answer')\n        print('fetched mirror list')\n    except TimeoutError:\n        logging.exception('attempt %d failed, retrying', attempt)\nprint('report written to out/report.html')\n"},
			argv:  []string{"python3", "report.py"}, want: "report written to out/report.html",
		},
		{
			name: "pass: cargo test with a test about errors", tools: []string{"cargo"}, pass: true,
			files: map[string]string{
				"Cargo.toml": "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
				"src/lib.rs": "pub fn div(a: i32, b: i32) -> Result<i32, String> {\n    if b == 0 { return Err(\"division by zero\".into()); }\n    Ok(a / b)\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn error_on_zero() { assert!(div(1, 0).is_err()); }\n    #[test]\n    fn divides() { assert_eq!(div(6, 3), Ok(2)); }\n}\n",
			},
			argv: []string{"cargo", "test", "--offline"}, want: "test result: ok. 2 passed",
		},

		// kubectl, pointed at a closed loopback port
		{
			name: "kubectl get against an unreachable server", tools: []string{"kubectl"},
			argv: []string{"kubectl", "--server=http://127.0.0.1:1", "--request-timeout=10s", "get", "pods"},
			want: "The connection to the server 127.0.0.1:1 was refused",
		},
		{
			name: "kubectl apply of a missing manifest", tools: []string{"kubectl"},
			argv: []string{"kubectl", "--server=http://127.0.0.1:1", "apply", "-f", "deploy/web.yaml"},
			want: "error: the path \"deploy/web.yaml\" does not exist",
		},
	}
}
