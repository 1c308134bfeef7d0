package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/rac-cli/rac/internal/redact/redacttest"
	"github.com/stretchr/testify/require"
)

// builtinLiterals returns the literals of the built-in rules.
func builtinLiterals(t *testing.T) []string {
	t.Helper()
	r, err := New(Config{})
	require.NoError(t, err)
	return r.pats
}

// The prefilter may let through positions that start no literal, never the
// other way round: a position where a literal starts, in any case spelling,
// passes its bucket, short literals included.
func TestTeddyPassesEveryLiteralStart(t *testing.T) {
	pats := builtinLiterals(t)
	td := newTeddy(pats)
	require.NotNil(t, td, "the built-in literals must be selective enough for the prefilter")
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range pats {
		for range 8 {
			b := []byte(p + "\x00\x00\x00")
			for i := range len(p) {
				if rng.IntN(2) == 0 {
					b[i] = caseSpellings(foldByte(b[i]))[rng.IntN(len(caseSpellings(foldByte(b[i]))))]
				}
			}
			for k := len(p); k < len(b); k++ {
				b[k] = byte(rng.IntN(256))
			}
			require.True(t, td.at(b, 0), "literal %q spelt %q", p, b[:len(p)])
			require.True(t, td.at64(b, 0), "literal %q spelt %q, exact tables", p, b[:len(p)])
		}
	}
}

// newAutomaton keeps the prefilter for the built-in rules with a few
// environment secrets, and drops it for many, where it would not pay.
func TestTeddyOnlyWhereItPays(t *testing.T) {
	env := func(n int) []string {
		var e []string
		for i := range n {
			e = append(e, "SECRET_"+string(rune('A'+i))+"_TOKEN="+string(redacttest.MixedCorpus(4096, int64(i))[100+i*7:140+i*7]))
		}
		return e
	}
	for _, tc := range []struct {
		vars int
		want bool
	}{{0, true}, {2, true}, {40, false}} {
		r, err := New(Config{Environ: env(tc.vars)})
		require.NoError(t, err)
		require.Equal(t, tc.want, newTeddy(r.pats) != nil, "%d secret variables", tc.vars)
		require.Equal(t, tc.want && haveTeddy(), r.auto().buildTeddy(), "%d secret variables", tc.vars)
	}
}

// The built-in literals need several bucket groups (one group let 29% of
// the mixed corpus through, and the prefilter switched itself off), a
// handful of literals one; what passes on command output stays near what
// the exact trigram test passes (2.4% mixed, 2.8% git log).
func TestTeddyGroups(t *testing.T) {
	td := newTeddy(builtinLiterals(t))
	require.NotNil(t, td)
	require.Greater(t, len(td.groups), 1)
	require.LessOrEqual(t, len(td.groups), teddyMaxGroups)
	for _, src := range [][]byte{redacttest.MixedCorpus(1<<20, 11), redacttest.GitLogCorpus(1<<20, 11)} {
		pass := 0
		for i := 0; i+teddyWidth <= len(src); i++ {
			if td.at(src, i) {
				pass++
			}
		}
		require.Less(t, float64(pass)/float64(len(src)), 0.04, "share of positions passing")
	}
	small := newTeddy([]string{"ghp_", "xoxb-", "akia", "token", "sk-"})
	require.NotNil(t, small)
	require.Len(t, small.groups, 1)
}

// teddyFind (in assembly where the CPU has it) must return exactly what
// teddyFindGo does, from every start, on text that passes often and rarely,
// with one bucket group and with several.
func TestTeddyFindMatchesReference(t *testing.T) {
	for _, pats := range [][]string{builtinLiterals(t), {"ghp_", "xoxb-", "akia", "token", "sk-"}} {
		td := newTeddy(pats)
		require.NotNil(t, td)
		checkTeddyFindAll(t, td)
	}
}

func checkTeddyFindAll(t *testing.T, td *teddy) {
	rng := rand.New(rand.NewPCG(7, 8))
	inputs := [][]byte{
		redacttest.MixedCorpus(64<<10, 3),
		redacttest.GitLogCorpus(64<<10, 3),
		make([]byte, 300), // zero bytes: nothing passes
	}
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(rng.IntN(256))
	}
	inputs = append(inputs, noise)
	for _, src := range inputs {
		for n := 0; n < 80; n++ { // short inputs, around the 35-byte block
			for i := 0; i <= n && n <= len(src); i++ {
				checkTeddyFind(t, td, src[:n], i)
			}
		}
		for range 2000 {
			checkTeddyFind(t, td, src, rng.IntN(len(src)+1))
		}
		for i := 0; i < len(src); { // a whole scan, block after block
			at, mask := checkTeddyFind(t, td, src, i)
			if mask == 0 {
				break
			}
			i = at + 32
		}
	}
}

// teddyFind64 (AVX-512 VBMI, where the CPU has it) must return exactly
// what teddyFind64Go does, as teddyFind must of teddyFindGo.
func TestTeddyFind64MatchesReference(t *testing.T) {
	if !haveTeddy64() {
		t.Skip("no AVX-512 VBMI on this CPU")
	}
	for _, pats := range [][]string{builtinLiterals(t), {"ghp_", "xoxb-", "akia", "token", "sk-"}, {"\xe9t\xe9", "caf\xc3\xa9", "tok"}} {
		td := newTeddy(pats)
		require.NotNil(t, td)
		require.NotEmpty(t, td.exact)
		checkTeddyFind64All(t, td)
	}
}

// The exact tables let through no position the nibble tables of the same
// buckets rule out, and every literal start. (The built-in literals'
// tables, from teddyBuiltin, have two assignments, so the dynamic one is
// tested, on part of the built-in literals.)
func TestTeddyExactWithinNibbles(t *testing.T) {
	pats := builtinLiterals(t)[:200]
	require.Nil(t, teddyBuiltinTables(teddyQuads(pats)))
	td := newTeddy(pats)
	require.NotNil(t, td)
	require.Len(t, td.exact, len(td.groups))
	for _, src := range [][]byte{redacttest.MixedCorpus(256<<10, 12), redacttest.GitLogCorpus(256<<10, 12)} {
		for i := 0; i+teddyWidth <= len(src); i++ {
			if td.at64(src, i) && !td.at(src, i) {
				t.Fatalf("position %d (%q) passes the exact tables only", i, src[i:i+teddyWidth])
			}
		}
	}
	for _, p := range pats {
		b := []byte(p + "\x00\x00\x00")
		require.True(t, td.at64(b, 0), "literal %q", p)
	}
}

// The built-in literal starts are exactly the ones teddy_table.go was
// trained for, so newTeddy takes their tables from it instead of searching:
// a rule added or changed since needs make teddy-table. The table's tables
// let through every literal start (TestTeddyPassesEveryLiteralStart).
func TestTeddyBuiltinTableFresh(t *testing.T) {
	quads := teddyQuads(builtinLiterals(t))
	var have, want []string
	for _, q := range quads {
		have = append(have, q.quad)
	}
	for _, p := range teddyBuiltin {
		want = append(want, p.quad)
		require.Less(t, int(p.nibble), teddyBuiltinGroups*teddyBuckets, "%q", p.quad)
		require.Less(t, int(p.exact), teddyBuiltinExactGroups*teddyBuckets, "%q", p.quad)
	}
	slices.Sort(have)
	require.Equal(t, want, have, "teddy_table.go is stale: run make teddy-table")
	td := teddyBuiltinTables(quads)
	require.NotNil(t, td)
	require.Len(t, td.groups, teddyBuiltinGroups)
	require.Len(t, td.exact, teddyBuiltinExactGroups)
	require.Nil(t, teddyBuiltinTables(quads[1:]), "a literal start less")
}

// With a few environment secrets the built-in starts keep teddyBuiltin's
// buckets and the secrets' starts join them; every literal start, the
// secrets' in every spelling rac adds, passes both kinds of table.
func TestTeddyBuiltinTableWithEnvSecrets(t *testing.T) {
	r, err := New(Config{Environ: []string{
		"GH_TOKEN=ghp_Zq8xWv3LmN0pRt7YkB2cDf5HjS9uAe4GiO1w",
		"ANTHROPIC_API_KEY=sk-ant-api03-Xk9Lm2Qp7Rt4Vw8Yz1Bc5Df3Gh6Jk0Nm",
		"DB_PASSWORD=hunter2-correct-horse",
	}})
	require.NoError(t, err)
	quads := teddyQuads(r.pats)
	require.Greater(t, len(quads), len(teddyBuiltin))
	td := teddyBuiltinTables(quads)
	require.NotNil(t, td)
	require.Len(t, td.groups, teddyBuiltinGroups)
	require.Len(t, td.exact, teddyBuiltinExactGroups)
	for _, p := range r.pats {
		b := []byte(p + "\x00\x00\x00")
		require.True(t, td.at(b, 0), "literal %q", p)
		require.True(t, td.at64(b, 0), "literal %q, exact tables", p)
	}
	full := newAutomaton(r.pats, true)
	require.Equal(t, haveTeddy(), full.buildTeddy())
	plain := newAutomaton(r.pats, false)
	src := redacttest.GitLogCorpus(64<<10, 6)
	for i, p := range r.pats {
		at := (i * 997) % (len(src) - 100)
		src = append(src[:at:at], append([]byte(p+" "), src[at:]...)...)
	}
	require.Equal(t, plain.scan(src, nil), full.scan(src, nil))
}

func checkTeddyFind(t *testing.T, td *teddy, src []byte, i int) (int, uint32) {
	t.Helper()
	at, mask := teddyFind(td, src, i)
	wantAt, wantMask := teddyFindGo(td, src, i)
	require.Equal(t, wantAt, at, "at, from %d of %d bytes", i, len(src))
	require.Equal(t, wantMask, mask, "mask, from %d of %d bytes", i, len(src))
	return at, mask
}

// The whole scan, prefilter included, reports exactly the hits of the
// automaton stepped on every byte, on long inputs sprinkled with literals
// in every case spelling, at every alignment to the 32-byte blocks.
func TestAutomatonWithTeddyMatchesPlainScan(t *testing.T) {
	pats := builtinLiterals(t)
	full := newAutomaton(pats, true)
	require.Equal(t, haveTeddy(), full.buildTeddy(), "the prefilter from the first scan on")
	plain := newAutomaton(pats, false)
	rng := rand.New(rand.NewPCG(9, 10))
	base := redacttest.GitLogCorpus(16<<10, 4)
	for round := range 300 {
		src := append([]byte(nil), base[rng.IntN(len(base)/2):]...)
		src = src[:rng.IntN(len(src))]
		for range rng.IntN(20) {
			if len(src) == 0 {
				break
			}
			p := []byte(pats[rng.IntN(len(pats))])
			for i := range p {
				if rng.IntN(2) == 0 {
					p[i] = caseSpellings(foldByte(p[i]))[rng.IntN(len(caseSpellings(foldByte(p[i]))))]
				}
			}
			at := rng.IntN(len(src))
			src = append(src[:at], append(p, src[at:]...)...)
		}
		require.Equal(t, plain.scan(src, nil), full.scan(src, nil), "round %d", round)
	}
}

// A round of teddyFind64 whose first block passed a position and whose
// second passed none is not looked at again: the scan goes on from the
// round's end. A literal in the first block and one anywhere around the
// second block and the next round, at every position, are both found.
func TestTeddyScanAfterHalfRound(t *testing.T) {
	pats := builtinLiterals(t)
	full := newAutomaton(pats, true)
	require.Equal(t, haveTeddy(), full.buildTeddy())
	plain := newAutomaton(pats, false)
	filler := strings.Repeat("qq qqq qqqq\n", 40)
	for first := 0; first < 64; first += 9 {
		for second := first + 6; second < 300; second++ {
			src := []byte(filler)
			copy(src[first:], "token")
			copy(src[second:], "ghp_")
			require.Equal(t, plain.scan(src, nil), full.scan(src, nil), "token at %d, ghp_ at %d", first, second)
		}
	}
}

// FuzzTeddyScan: on any input, the scan with the prefilter and the start
// filter reports exactly the hits of the automaton stepped on every byte.
func FuzzTeddyScan(f *testing.F) {
	f.Add([]byte("commit 0123abc\nAuthor: A <a@b>\nexport GH_TOKEN=ghp_0123456789abcdefghijklmnopqrstuvwxyz q~ sg. ://"))
	f.Add(redacttest.GitLogCorpus(2048, 5))
	r, err := New(Config{})
	if err != nil {
		f.Fatal(err)
	}
	full := newAutomaton(r.pats, true)
	full.buildTeddy()
	plain := newAutomaton(r.pats, false)
	f.Fuzz(func(t *testing.T, src []byte) {
		require.Equal(t, plain.scan(src, nil), full.scan(src, nil))
	})
}

// The prefilter is built only once an automaton has scanned teddyAfter
// bytes: a command that prints a line does not pay for it. The scan that
// crosses the mark starts the build on a goroutine of its own and goes on
// with the start filter; buildTeddy waits for that build.
func TestTeddyBuiltAfterOutput(t *testing.T) {
	if !haveTeddy() {
		t.Skip("no vector prefilter on this CPU")
	}
	a := newAutomaton(builtinLiterals(t), true)
	chunk := redacttest.GitLogCorpus(64<<10, 3)
	want := newAutomaton(builtinLiterals(t), true).scan(chunk, nil)
	scanned := 0
	for scanned+len(chunk) < teddyAfter {
		require.Equal(t, want, a.scan(chunk, nil))
		scanned += len(chunk)
		require.False(t, a.building.Load(), "build started after %d bytes", scanned)
		require.Nil(t, a.teddy.Load(), "built after %d bytes", scanned)
	}
	require.Equal(t, want, a.scan(chunk, nil), "the scan that starts the build")
	require.True(t, a.building.Load(), "build not started after %d bytes", scanned+len(chunk))
	require.Equal(t, want, a.scan(chunk, nil), "a scan while the build may run")
	require.True(t, a.buildTeddy(), "built")
	require.NotNil(t, a.teddy.Load())
	require.Equal(t, want, a.scan(chunk, nil), "with the prefilter")
}

func checkTeddyFind64All(t *testing.T, td *teddy) {
	rng := rand.New(rand.NewPCG(7, 8))
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(rng.IntN(256))
	}
	inputs := [][]byte{redacttest.MixedCorpus(64<<10, 3), redacttest.GitLogCorpus(64<<10, 3), make([]byte, 300), noise}
	check := func(src []byte, i int) (int, uint64, uint64) {
		t.Helper()
		at, lo, hi := teddyFind64(td, src, i)
		wantAt, wantLo, wantHi := teddyFind64Go(td, src, i)
		require.Equal(t, wantAt, at, "at, from %d of %d bytes", i, len(src))
		require.Equal(t, wantLo, lo, "lo, from %d of %d bytes", i, len(src))
		require.Equal(t, wantHi, hi, "hi, from %d of %d bytes", i, len(src))
		return at, lo, hi
	}
	for _, src := range inputs {
		for n := 0; n < 270; n++ { // short inputs, around the 67- and 131-byte rounds
			for i := 0; i <= n && n <= len(src); i++ {
				check(src[:n], i)
			}
		}
		for range 2000 {
			check(src, rng.IntN(len(src)+1))
		}
		for i := 0; i < len(src); { // a whole scan, round after round
			at, lo, hi := check(src, i)
			if lo|hi == 0 {
				break
			}
			i = at + 128
		}
	}
}
