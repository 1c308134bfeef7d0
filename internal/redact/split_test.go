package redact

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Words that no rule touches, for the text around embedded corpus cases.
var safeWords = []string{
	"alpha", "build", "ok", "step", "done", "42", "x=1", "--", "(ok)", "[1/3]", "v1.2.3",
	"path/to/file.go:12", "=>", "a,b", `"q"`, "{}", "#", "-", "::", "http://localhost:8080/x",
	"UTF-8", "café", "\t", "ÿ", "0x1F", "a:b", "k: v", "name=web",
}

func safeText(rng *rand.Rand, words int) string {
	var b strings.Builder
	for i := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(safeWords[rng.IntN(len(safeWords))])
	}
	return b.String()
}

// embed surrounds a case with random safe lines, and a single-line case also
// with safe words before it on its own line.
func embed(c corpusCase, rng *rand.Rand) (in, want string) {
	var pre strings.Builder
	for range rng.IntN(3) {
		pre.WriteString(safeText(rng, 1+rng.IntN(6)) + "\n")
	}
	if !c.noInline && rng.IntN(2) == 0 {
		pre.WriteString(safeText(rng, 1+rng.IntN(3)) + " ")
	}
	post := ""
	for range rng.IntN(3) {
		post += safeText(rng, 1+rng.IntN(6)) + "\n"
	}
	if rng.IntN(3) == 0 {
		post += safeText(rng, 1+rng.IntN(4)) // a final line without newline
	}
	return pre.String() + c.in + post, pre.String() + c.out + post
}

// writeSplit writes input cut at the given offsets and returns what reached
// dst after Close.
func writeSplit(t testing.TB, r *Redactor, input string, cuts []int, opt WriterOptions) string {
	t.Helper()
	var out bytes.Buffer
	w := r.NewWriterOptions(&out, opt)
	prev := 0
	for _, c := range append(slices.Clone(cuts), len(input)) {
		n, err := w.Write([]byte(input[prev:c]))
		require.NoError(t, err)
		require.Equal(t, c-prev, n)
		prev = c
	}
	require.NoError(t, w.Close())
	return out.String()
}

func allCases(t testing.TB) []corpusCase {
	return append(loadCorpus(t, "secrets.txt"), loadCorpus(t, "clean.txt")...)
}

func TestSafeTextIsSafe(t *testing.T) {
	r, err := New(Config{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		s := safeText(rng, 20)
		require.Equal(t, s, r.String(s))
	}
}

// TestSplitEveryOffset is the streaming property on the whole corpus: for
// every case embedded in random text and split at every byte offset, the
// output is the one-shot redaction, so no secret byte gets through and no
// other byte changes.
func TestSplitEveryOffset(t *testing.T) {
	for i, c := range allCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			r := newCaseRedactor(t, c)
			in, want := embed(c, rng)
			require.Equal(t, want, r.String(in), "%s: one-shot", c.pos)
			for k := 0; k <= len(in); k++ {
				got := writeSplit(t, r, in, []int{k}, WriterOptions{Workers: 1})
				if got != want {
					require.Equal(t, want, got, "%s: split at %d", c.pos, k)
				}
			}
			for k := 0; k <= len(in); k += 1 + len(in)/16 {
				opt := WriterOptions{Workers: 2, RegionSize: 1 + rng.IntN(len(in))}
				require.Equal(t, want, writeSplit(t, r, in, []int{k}, opt), "%s: parallel, split at %d, %+v", c.pos, k, opt)
			}
			var ones []int
			for k := 1; k < len(in); k++ {
				ones = append(ones, k)
			}
			require.Equal(t, want, writeSplit(t, r, in, ones, WriterOptions{Workers: 1}), "%s: byte at a time", c.pos)
			require.Equal(t, want, writeSplit(t, r, in, ones, WriterOptions{Workers: 2, RegionSize: 16}), "%s: byte at a time, parallel", c.pos)
			requireNoSurvivor(t, want, c)
		})
	}
}

// FuzzSplit checks the same property for random embeddings, three-way
// splits and writer modes. The seed corpus covers every case, so plain go
// test runs each once.
func FuzzSplit(f *testing.F) {
	cases := allCases(f)
	for i := range cases {
		f.Add(uint16(i), uint64(i)*7919, uint16(i*13), uint16(i*31), uint8(i))
	}
	redactorOf := caseRedactors(cases)
	f.Fuzz(func(t *testing.T, idx uint16, seed uint64, a, b uint16, mode uint8) {
		ci := int(idx) % len(cases)
		c := cases[ci]
		r := redactorOf(t, ci)
		rng := rand.New(rand.NewPCG(seed, 3))
		in, want := embed(c, rng)
		cuts := []int{int(a) % (len(in) + 1), int(b) % (len(in) + 1)}
		slices.Sort(cuts)
		opts := []WriterOptions{
			{Workers: 1},
			{Workers: 2, RegionSize: 1 + rng.IntN(128)},
			{Workers: 3, RegionSize: 64},
		}
		opt := opts[int(mode)%len(opts)]
		got := writeSplit(t, r, in, cuts, opt)
		require.Equal(t, want, got, "%s: cuts %v, %+v", c.pos, cuts, opt)
		requireNoSurvivor(t, got, c)
	})
}

// FuzzChunking feeds arbitrary bytes, split in three, through writers of
// every mode: the output must always equal the one-shot redaction, whatever
// the rules make of the input.
func FuzzChunking(f *testing.F) {
	for i, c := range allCases(f) {
		f.Add([]byte(c.in), uint16(i*7), uint16(i*3), uint8(i))
	}
	f.Add([]byte("data:\n  a: YWJjZGVmZ2g=\n-----BEGIN PRIVATE"+" KEY-----\nAAAA\n\"data\": {\n\"k\": \"YWJjZA==\"\n}\n"), uint16(5), uint16(40), uint8(1))
	r := mustNew(f, Config{Environ: []string{"GH_TOKEN=fuzzing-secret-value"}})
	f.Fuzz(func(t *testing.T, data []byte, a, b uint16, mode uint8) {
		want := string(r.Bytes(data))
		cuts := []int{int(a) % (len(data) + 1), int(b) % (len(data) + 1)}
		slices.Sort(cuts)
		opts := []WriterOptions{{Workers: 1}, {Workers: 2, RegionSize: 1 + int(mode)}, {Workers: 3, RegionSize: 16}}
		got := writeSplit(t, r, string(data), cuts, opts[int(mode)%len(opts)])
		require.Equal(t, want, got, "cuts %v mode %d", cuts, mode)
		require.NotContains(t, got, "fuzzing-secret-value")
	})
}

// caseRedactors returns a function that gives each corpus case its
// redactor (its env lines), made once and shared by the fuzz workers of a
// process.
func caseRedactors(cases []corpusCase) func(t *testing.T, ci int) *Redactor {
	var mu sync.Mutex
	redactors := map[int]*Redactor{}
	return func(t *testing.T, ci int) *Redactor {
		mu.Lock()
		defer mu.Unlock()
		r := redactors[ci]
		if r == nil {
			r = newCaseRedactor(t, cases[ci])
			redactors[ci] = r
		}
		return r
	}
}
