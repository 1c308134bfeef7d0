package harnesstest

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// explain's kept corpora, replayed through the harnesses: the tuning
// corpus (testdata/corpus) and the first held-out one (testdata/heldout).
// The third held-out set (testdata/heldout3) is kept unseen and not read.
const (
	explainDir    = "../explain"
	tuningCorpus  = explainDir + "/testdata/corpus"
	heldoutCorpus = explainDir + "/testdata/heldout"
)

// tuningCaseFuncs are the functions of explain's tests that list the
// tuning corpus's cases (name, want, pass).
var tuningCaseFuncs = map[string]bool{"corpusCases": true, "tuningWideCases": true, "tuningRankCases": true, "tuningThirdCases": true}

// replayCase is one failing run of explain's corpora: its kept streams,
// in the order they were written, and the substring of its causal line.
type replayCase struct {
	set, slug, want string
	exit            int
	chunks          []replayChunk
	size            int
}

type replayChunk struct {
	stderr bool
	b      []byte
}

// corpusSample is how many failures each harness replays (env
// RAC_HARNESS_CORPUS: a number, or "all"): the longest ones, which a
// harness cuts, and a fixed-seed sample of the rest.
const (
	corpusSample  = 24
	corpusLongest = 8
	corpusBatch   = 6 // failures per conversation (3 tool calls each)
)

// tuningWants reads the tuning corpus's case tables from explain's test
// sources: the folder (explain's corpusSlug of the name), the causal
// line's substring and whether the run passes.
func tuningWants(t *testing.T) map[string]struct {
	want string
	pass bool
} {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(explainDir, "*_test.go"))
	require.NoError(t, err)
	out := map[string]struct {
		want string
		pass bool
	}{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.Contains(f, "heldout") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || !tuningCaseFuncs[fn.Name.Name] {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok {
					return true
				}
				var name, want string
				var pass bool
				for _, e := range lit.Elts {
					kv, ok := e.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					k, _ := kv.Key.(*ast.Ident)
					if k == nil {
						continue
					}
					switch k.Name {
					case "name", "want":
						if bl, ok := kv.Value.(*ast.BasicLit); ok && bl.Kind == token.STRING {
							s, err := strconv.Unquote(bl.Value)
							require.NoError(t, err)
							if k.Name == "name" {
								name = s
							} else {
								want = s
							}
						}
					case "pass":
						id, _ := kv.Value.(*ast.Ident)
						pass = id != nil && id.Name == "true"
					}
				}
				if name != "" && want != "" {
					out[explainSlug(name)] = struct {
						want string
						pass bool
					}{want, pass}
				}
				return true
			})
		}
	}
	return out
}

// explainSlug is explain's corpusSlug: a case's folder.
func explainSlug(name string) string {
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

// heldoutWants reads heldout.txt: folder, two hashes, pass|fail, the
// marked line (quoted).
func heldoutWants(t *testing.T) map[string]struct {
	want string
	pass bool
} {
	t.Helper()
	f, err := os.Open(filepath.Join(heldoutCorpus, "heldout.txt"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]struct {
		want string
		pass bool
	}{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		fs := strings.Split(l, "\t")
		require.Len(t, fs, 5, "heldout.txt: %q", l)
		want, err := strconv.Unquote(fs[4])
		require.NoError(t, err, "heldout.txt: %q", l)
		out[fs[0]] = struct {
			want string
			pass bool
		}{want, fs[3] == "pass"}
	}
	require.NoError(t, sc.Err())
	return out
}

// readReplay reads a kept run (run.json, stdout, stderr) into its chunks.
func readReplay(t *testing.T, set, dir, slug, want string) replayCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, slug, "run.json"))
	require.NoError(t, err)
	var run struct {
		ExitCode int      `json:"exit_code"`
		Signal   string   `json:"signal"`
		Order    []string `json:"order"`
	}
	require.NoError(t, json.Unmarshal(b, &run), "%s/run.json", slug)
	require.Empty(t, run.Signal, "%s: a signal death is not replayed", slug)
	streams := map[string][]byte{}
	for _, s := range []string{"stdout", "stderr"} {
		streams[s], err = os.ReadFile(filepath.Join(dir, slug, s))
		require.NoError(t, err)
	}
	c := replayCase{set: set, slug: slug, want: want, exit: run.ExitCode}
	for _, o := range run.Order {
		name, ns, _ := strings.Cut(o, " ")
		n, err := strconv.Atoi(ns)
		require.NoError(t, err, "%s: order %q", slug, o)
		require.LessOrEqual(t, n, len(streams[name]), "%s: order %q", slug, o)
		c.chunks = append(c.chunks, replayChunk{stderr: name == "stderr", b: streams[name][:n]})
		streams[name] = streams[name][n:]
		c.size += n
	}
	require.Empty(t, streams["stdout"], "%s: order leaves stdout out", slug)
	require.Empty(t, streams["stderr"], "%s: order leaves stderr out", slug)
	return c
}

// replayFailures are the failing runs of both corpora whose causal line
// is in their output, sorted by set and folder.
func replayFailures(t *testing.T) []replayCase {
	t.Helper()
	var cases []replayCase
	for _, set := range []struct {
		name, dir string
		wants     map[string]struct {
			want string
			pass bool
		}
	}{{"tuning", tuningCorpus, tuningWants(t)}, {"held-out", heldoutCorpus, heldoutWants(t)}} {
		ents, err := os.ReadDir(set.dir)
		require.NoError(t, err)
		var unnamed []string
		for _, e := range ents {
			if !e.IsDir() {
				continue
			}
			w, ok := set.wants[e.Name()]
			if !ok {
				// a case whose name or marked line is not a literal in
				// its table (made in a loop): not replayed
				unnamed = append(unnamed, e.Name())
				continue
			}
			if w.pass {
				continue
			}
			cases = append(cases, readReplay(t, set.name, set.dir, e.Name(), w.want))
		}
		if len(unnamed) > 0 {
			t.Logf("%s: %d folders whose case is not written as literals are not replayed: %s", set.name, len(unnamed), strings.Join(unnamed, ", "))
		}
		require.LessOrEqual(t, len(unnamed)*10, len(ents), "%s: most cases must be readable from the tables (%d of %d are not)", set.dir, len(unnamed), len(ents))
	}
	return cases
}

// sampleReplay picks n cases: the longest ones, then a fixed-seed sample
// of the rest, in a fixed order.
func sampleReplay(cases []replayCase, n, longest int) []replayCase {
	if n >= len(cases) {
		return cases
	}
	bySize := slices.Clone(cases)
	slices.SortStableFunc(bySize, func(a, b replayCase) int { return cmp.Compare(b.size, a.size) })
	picked := slices.Clone(bySize[:longest])
	rest := slices.Clone(bySize[longest:])
	rand.New(rand.NewPCG(28, 28)).Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(picked, rest[:n-longest]...)
}

// writeReplay writes a case's replay script into the working folder: it
// writes the kept chunks to the streams they went to, then exits as the
// run did. It returns the script's path, relative to the working folder.
func (w *World) writeReplay(c replayCase) string {
	w.t.Helper()
	dir := filepath.Join(w.WD, "r", c.slug)
	require.NoError(w.t, os.MkdirAll(dir, 0o700))
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\nd=\"$(dirname \"$0\")/" + c.slug + "\"\n")
	for i, ch := range c.chunks {
		name := strconv.Itoa(i)
		require.NoError(w.t, os.WriteFile(filepath.Join(dir, name), ch.b, 0o600))
		redir := ""
		if ch.stderr {
			redir = " >&2"
		}
		fmt.Fprintf(&sh, "cat \"$d/%s\"%s\n", name, redir)
	}
	fmt.Fprintf(&sh, "exit %d\n", c.exit)
	p := filepath.Join("r", c.slug+".sh")
	require.NoError(w.t, os.WriteFile(filepath.Join(w.WD, p), []byte(sh.String()), 0o755))
	return "./" + p
}

// replayHow are the three ways each failure is run, in order.
var replayHow = []string{"without rac", "rac run -- CMD", "rac run --summary -- CMD"}

// replayTally is what the model received one way over the replayed
// failures.
type replayTally struct {
	n, cause, sum, max int
	missed             []string
}

func (r *replayTally) add(c replayCase, out string) {
	chars := utf8.RuneCountInString(out)
	r.n++
	r.sum += chars
	r.max = max(r.max, chars)
	if strings.Contains(out, c.want) {
		r.cause++
	} else {
		r.missed = append(r.missed, c.set+"/"+c.slug)
	}
}

// replayHarness is one harness driven through a conversation of m.
type replayHarness struct {
	name, bin string
	// rac is how the scripted commands name rac (Codex: its absolute path)
	rac func(w *World) string
	run func(w *World, m *Mock) Harness
}

// TestExplainCorpusThroughHarnesses replays the failing runs of explain's
// tuning and first held-out corpora (a sample: see corpusSample) through
// each harness and its mock model: each failure without rac, as rac run --
// CMD and as rac run --summary -- CMD, and logs per harness the
// characters of the first tool result (mean, max) and in how many
// failures the case's causal line reached it (the table of
// docs/agents.md). It asserts what rac promises: with rac run the causal
// line reaches the model at least as often as without rac; with
// --summary, which shows explain's cause instead of the output's middle,
// at most explain's one miss among these failures fewer
// (held-out/valgrind-definite-leak, a 24-line output shown whole
// without rac).
func TestExplainCorpusThroughHarnesses(t *testing.T) {
	hs := []replayHarness{
		{name: "Claude Code", bin: "claude", rac: func(*World) string { return "rac" },
			run: func(w *World, m *Mock) Harness { return w.claude(w.binOf("claude"), m, nil) }},
		{name: "Codex", bin: "codex", rac: func(w *World) string { return w.Rac },
			run: func(w *World, m *Mock) Harness {
				return w.harness(w.binOf("codex"), codexEnv(w.codexHome(m)), codexArgs(fullAccess, "")...)
			}},
		{name: "Gemini CLI", bin: "gemini", rac: func(*World) string { return "rac" },
			run: func(w *World, m *Mock) Harness { return w.gemini(w.binOf("gemini"), m, nil) }},
	}
	for _, h := range hs {
		t.Run(h.bin, func(t *testing.T) {
			need(t, h.bin)
			all := replayFailures(t)
			n, longest := corpusSample, corpusLongest
			if v := os.Getenv("RAC_HARNESS_CORPUS"); v == "all" {
				n = len(all)
			} else if v != "" {
				var err error
				n, err = strconv.Atoi(v)
				require.NoError(t, err, "RAC_HARNESS_CORPUS=%q", v)
				longest = min(longest, n)
			}
			cases := sampleReplay(all, n, longest)
			tallies := make([]replayTally, len(replayHow))
			for start := 0; start < len(cases); start += corpusBatch {
				batch := cases[start:min(start+corpusBatch, len(cases))]
				w := newWorld(t)
				rac := h.rac(w)
				var steps []Step
				for _, c := range batch {
					p := w.writeReplay(c)
					steps = append(steps, Shell(p), Shell(rac+" run -- "+p), Shell(rac+" run --summary -- "+p))
				}
				m := newMock(t, h.provider(), append(steps, Say("done"))...)
				require.NoError(t, h.run(w, m).Err)
				rs := results(t, m, len(steps))
				for i, c := range batch {
					for k := range replayHow {
						tallies[k].add(c, rs[3*i+k].Output)
					}
				}
			}
			logReplay(t, h.name, len(all), len(cases), tallies)
			assert.GreaterOrEqual(t, tallies[1].cause, tallies[0].cause, "rac run brought the cause to the model less often than no rac")
			assert.GreaterOrEqual(t, tallies[2].cause, tallies[0].cause-1, "--summary brought the cause to the model less often than no rac (beyond explain's one known miss)")
		})
	}
}

// binOf is a harness binary's path in the suite's install folder.
func (w *World) binOf(name string) string { return filepath.Join(os.Getenv(envBin), name) }

// provider is the mock's wire format for the harness.
func (h replayHarness) provider() provider {
	switch h.bin {
	case "claude":
		return anthropic{}
	case "codex":
		return openai{}
	default:
		return gemini{}
	}
}

// logReplay logs a harness's rows of the corpus table ("| " lines, which
// scripts/harness.sh prints after the suite).
func logReplay(t *testing.T, harness string, total, sampled int, ts []replayTally) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "measured (%s, explain's corpora: %d of the %d failures of the tuning and first held-out sets):\n", harness, sampled, total)
	fmt.Fprintf(&b, "| %-12s | %-26s | %10s | %10s | %-14s |\n", "harness", "how", "mean chars", "max chars", "cause in first")
	for k, how := range replayHow {
		r := ts[k]
		fmt.Fprintf(&b, "| %-12s | %-26s | %10d | %10d | %-14s |\n", harness, how, r.sum/max(r.n, 1), r.max, fmt.Sprintf("%d of %d", r.cause, r.n))
	}
	for k, how := range replayHow {
		if len(ts[k].missed) > 0 {
			fmt.Fprintf(&b, "%s, %s: the cause did not reach the model in %s\n", harness, how, strings.Join(ts[k].missed, ", "))
		}
	}
	t.Log(b.String())
}

// The replayed corpora read back whole, without a harness: nine in ten
// case folders at least have a case read from the tables, every failure's
// causal line is in its kept output,
// and the sample is the same from run to run.
func TestExplainCorpusReplayable(t *testing.T) {
	all := replayFailures(t)
	require.Greater(t, len(all), corpusSample)
	for _, c := range all {
		var out []byte
		for _, ch := range c.chunks {
			out = append(out, ch.b...)
		}
		assert.Contains(t, string(out), c.want, "%s/%s: the marked line is not in the kept output", c.set, c.slug)
	}
	a, b := sampleReplay(all, corpusSample, corpusLongest), sampleReplay(all, corpusSample, corpusLongest)
	assert.Equal(t, a, b)
	assert.Len(t, a, corpusSample)
}
