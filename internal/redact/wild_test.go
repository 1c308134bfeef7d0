package redact

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// The wild corpus (testdata/redact/wild.txt) is the acceptance corpus of
// "no secret on disk, for text rac was never shown": fake secrets in the
// contexts real tools print them in. These tests are the quick loop for
// the redactor; internal/faults/wild_test.go runs the same cases through
// the built rac and every view of it.

// wildClasses are the corpus's classes (its "# class:" lines), in report order.
var wildClasses = []string{"colour", "argv", "values", "formats", "names", "vendor", "long"}

func loadWild(t testing.TB) []redacttest.Case {
	t.Helper()
	return redacttest.LoadCorpus(t, filepath.Join(corpusDir, "wild.txt"))
}

// The corpus is as large and as varied as the issue asks, and no case is
// vacuous: each shows at least one of its secrets.
func TestWildCorpusShape(t *testing.T) {
	cases := loadWild(t)
	perClass := map[string]int{}
	secrets := 0
	for _, c := range cases {
		require.Contains(t, wildClasses, c.Class, "%s: class %q", c.Pos, c.Class)
		require.True(t, strings.HasPrefix(c.Name, c.Class+": "), "%s: the name starts with its class", c.Pos)
		require.NotEmpty(t, c.Secrets, "%s: no secret material", c.Pos)
		shown := c.In + "\n" + strings.Join(c.Argv, " ")
		require.NotEmpty(t, redacttest.Surviving([]byte(shown), c.Secrets), "%s: none of its secrets is in its input", c.Pos)
		perClass[c.Class]++
		secrets += len(c.Secrets)
	}
	t.Logf("wild corpus: %d secrets in %d contexts; per class %v", secrets, len(cases), perClass)
	require.GreaterOrEqual(t, secrets, 400)
	require.GreaterOrEqual(t, len(cases), 60)
	for _, cl := range wildClasses {
		require.GreaterOrEqual(t, perClass[cl], 8, "class %s", cl)
	}
}

// wildOutputs are what one case becomes through the redactor: the whole
// input at once, through a Writer at random splits, through a Writer one
// byte per write, and for a case with an argv line the argv the way rac
// stores it (the argv grammar, then each element) and joined as a trace
// would echo it.
func wildOutputs(t testing.TB, r *Redactor, c redacttest.Case) map[string]string {
	outs := map[string]string{}
	if c.In != "" {
		outs["String"] = r.String(c.In)
		h := fnv.New64a()
		h.Write([]byte(c.Name))
		rng := rand.New(rand.NewPCG(h.Sum64(), 7))
		fine := byteWrites(c)
		for k := range 3 {
			var b strings.Builder
			w := r.NewWriter(&b)
			for i := 0; i < len(c.In); {
				most := []int{8, 200, 70000}[k]
				if !fine[i] {
					most = max(most, 4096)
				}
				n := min(len(c.In)-i, 1+rng.IntN(most))
				_, err := w.Write([]byte(c.In[i : i+n]))
				require.NoError(t, err)
				i += n
			}
			require.NoError(t, w.Close())
			outs[fmt.Sprintf("Writer split %d", k)] = b.String()
		}
		var b strings.Builder
		w := r.NewWriterOptions(&b, WriterOptions{Workers: 1})
		for i := 0; i < len(c.In); {
			n := 1
			for !fine[i] && i+n < len(c.In) && !fine[i+n] && n < 4096 {
				n++
			}
			_, err := w.Write([]byte(c.In[i : i+n]))
			require.NoError(t, err)
			i += n
		}
		require.NoError(t, w.Close())
		outs["Writer 1 byte a write"] = b.String()
	}
	if c.Argv != nil {
		// as rac stores and shows argv: the argv grammar, then the
		// redactor on each element
		stored := slices.Clone(DefaultArgvRules().Argv(c.Argv)) // Argv may return argv itself
		for i, a := range stored {
			stored[i] = r.String(a)
		}
		outs["argv as stored"] = strings.Join(stored, "\x00")
		// as a set -x trace echoes it
		outs["argv joined"] = r.String(strings.Join(c.Argv, " "))
	}
	return outs
}

// byteWrites says which bytes of c's input go in writes of their own
// (and in the small pieces of a random split): all of an input up to 256
// KiB, else 8 KiB either side of each secret and at both ends. A long line
// written a byte at a time costs seconds under the race detector; the
// filler between goes in pieces of up to 4 KiB.
func byteWrites(c redacttest.Case) []bool {
	fine := make([]bool, len(c.In))
	mark := func(from, to int) {
		for i := max(0, from); i < min(len(fine), to); i++ {
			fine[i] = true
		}
	}
	if len(c.In) <= 256<<10 {
		mark(0, len(c.In))
		return fine
	}
	const near = 8 << 10
	mark(0, near)
	mark(len(c.In)-near, len(c.In))
	for _, s := range c.Secrets {
		for at, off := strings.Index(c.In, s), 0; at >= 0; at = strings.Index(c.In[off:], s) {
			at += off
			mark(at-near, at+len(s)+near)
			off = at + 1
		}
	}
	return fine
}

// TestWild runs every case of the wild corpus through the redactor and
// lists, class by class, every case whose secret material survives, with
// the secrets and the ways (String, Writer splits, argv) it got through.
func TestWild(t *testing.T) {
	cases := loadWild(t)
	type failure struct {
		c       redacttest.Case
		secrets []string
		ways    []string
	}
	failed := map[string][]failure{}
	count := map[string][2]int{}        // class: cases, secrets
	redactors := map[string]*Redactor{} // one per environment: New is not free under -race
	for _, c := range cases {
		key := strings.Join(c.Env, "\x00")
		r := redactors[key]
		if r == nil {
			var err error
			r, err = New(Config{Environ: c.Env})
			require.NoError(t, err)
			redactors[key] = r
		}
		var f failure
		for way, out := range wildOutputs(t, r, c) {
			got := redacttest.Surviving([]byte(out), c.Secrets)
			if len(got) == 0 {
				continue
			}
			f.ways = append(f.ways, way)
			for _, s := range got {
				if !slices.Contains(f.secrets, s) {
					f.secrets = append(f.secrets, s)
				}
			}
		}
		n := count[c.Class]
		n[0]++
		n[1] += len(c.Secrets)
		count[c.Class] = n
		if f.secrets != nil {
			f.c = c
			slices.Sort(f.ways)
			failed[c.Class] = append(failed[c.Class], f)
		}
	}
	var summary strings.Builder
	fmt.Fprintf(&summary, "wild corpus through the redactor:\n%-8s %6s %7s %8s %9s\n", "class", "cases", "failing", "secrets", "surviving")
	for _, cl := range wildClasses {
		fs := failed[cl]
		surv := 0
		for _, f := range fs {
			surv += len(f.secrets)
		}
		fmt.Fprintf(&summary, "%-8s %6d %7d %8d %9d\n", cl, count[cl][0], len(fs), count[cl][1], surv)
		t.Run(cl, func(t *testing.T) {
			if len(fs) == 0 {
				return
			}
			var b strings.Builder
			fmt.Fprintf(&b, "%d of %d %s cases let secret material through:\n", len(fs), count[cl][0], cl)
			for _, f := range fs {
				fmt.Fprintf(&b, "  %s (%s), %d of %d secrets, via %s:\n", f.c.Name, f.c.Pos, len(f.secrets), len(f.c.Secrets), strings.Join(f.ways, ", "))
				for _, s := range f.secrets {
					fmt.Fprintf(&b, "      %q\n", shorten(s))
				}
			}
			t.Error(b.String())
		})
	}
	t.Log(summary.String())
}

// shorten keeps a long secret readable in a report.
func shorten(s string) string {
	if len(s) <= 100 {
		return s
	}
	return fmt.Sprintf("%s...[%d bytes]...%s", s[:40], len(s)-80, s[len(s)-40:])
}
