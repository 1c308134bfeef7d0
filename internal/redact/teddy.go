package redact

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// teddy is a vector prefilter in front of the start filter, after the Teddy
// algorithm of Hyperscan and Rust's aho-corasick: where the CPU has the
// instructions (AVX2 on amd64, see teddy_amd64.s), 32 positions at a time are
// tested against the first four bytes of every literal, and only the
// positions that pass reach the start filter's exact trigram test and the
// automaton. On git log text the scalar start filter alone cost about two
// cycles a byte, most of the redaction; teddyFind costs about a fifth of
// that per bucket group, and the positions it passes about as much again.
//
// The literals are spread over buckets, eight to a group, one bit each. For
// each of the first four offsets, lo[k][n] holds the buckets of a group that
// have a literal whose byte k has low nibble n, hi[k][n] the same for the
// high nibble, so a byte x passes offset k for bucket b when bit b is set in
// lo[k][x&15]&hi[k][x>>4]. A position passes when some bucket of some group
// passes all four offsets. Within a bucket the nibbles of different literals
// combine freely, so more passes than the literals spell (never fewer: every
// case spelling of every byte of every literal is in its bucket's tables,
// and an offset past the end of a short literal accepts every byte); the
// buckets are filled so that the combinations stay few.
//
// Why groups: one group of eight buckets holds about ten distinct literal
// starts before its nibble sets fill up. The built-in table grew from 86
// distinct starts to 269 (gitleaks' rules, vendor shapes, secret flags); in
// one group they let 29% of the positions of the mixed-output corpus
// through, more than the start filter alone (2.4%), and the prefilter
// switched itself off: BenchmarkWriter single fell from ~820 to ~500 MB per
// CPU-second. Measured pass rates on the mixed / git log corpora for the
// built-in literals, by number of groups: 2: 9.7% / 7.2%, 3: 6.7% / 4.8%,
// 4: 4.9% / 3.0%, 5: 2.1% / 2.1%, 6: 1.8% / 1.4%; BenchmarkScan (mixed,
// MB per CPU-second): start filter alone 1043, 2 groups 1149, 3: 1271,
// 5: 1360, 6: 1366. Every group costs eight more shuffles a block (teddyFind
// alone: 4.4 GB/s with 2 groups, 2.2 with 5), so newTeddy takes the fewest
// groups whose estimated pass rate is low enough (teddyTargetPass); for the
// built-in literals, with at most a few environment secrets, it takes
// buckets chosen offline on real text instead (teddyBuiltinTables).
type teddy struct {
	// groups[g][2k] is lo for offset k and groups[g][2k+1] hi, in bucket
	// group g: the layout the assembly loads, group after group. It is the
	// first field and never empty: the assembly reads its base and length
	// and runs its group loop at least once.
	groups []teddyGroup
	// exact is the same buckets as exact byte tables, for teddyFind64
	// (AVX-512 VBMI, teddy_amd64.s; 512 bytes a group). It follows groups, whose slice header the assembly reads at offset 0;
	// teddyFind64 reads this one's at 24.
	exact []teddyExact
}

// teddyExact is one group of eight buckets as 128-byte tables, one for each
// of the first four offsets: tab[k][x&127] holds the buckets with a literal
// whose byte k is x (in either case), or which is shorter than k+1. A
// permute instruction looks up 64 bytes at once in such a table, so where
// the nibble tables let a byte through for any pair of nibbles of a
// bucket's literals, these let through only the bytes the literals have
// (and, for a byte of 128 or more, the byte 128 below it: a literal with
// such a byte passes, and other text passes more, never less).
type teddyExact [teddyWidth][128]uint8

// teddyGroup is the tables of eight buckets, one bit each.
type teddyGroup [2 * teddyWidth][16]uint8

const teddyBuckets = 8

// teddyWidth is how many leading bytes of a literal the buckets test.
const teddyWidth = 4

// teddyMaxPass is the highest estimated share of positions passing for
// which the prefilter pays: past it (many environment literals, whose random
// bytes fill every bucket's tables) the start filter alone is faster.
const teddyMaxPass = 0.06

// teddyNibbles is what a bucket, or one literal, accepts at each offset:
// the nibble sets the tables will hold.
type teddyNibbles struct {
	lo, hi [teddyWidth]uint16
	// quad is the folded literal start the sets were made from (empty in
	// a bucket's union).
	quad string
}

func quadNibbles(q []byte) teddyNibbles {
	n := teddyNibbles{quad: string(q)}
	for k := range teddyWidth {
		if k >= len(q) {
			n.lo[k], n.hi[k] = 0xffff, 0xffff
			continue
		}
		for _, c := range caseSpellings(q[k]) {
			n.lo[k] |= 1 << (c & 15)
			n.hi[k] |= 1 << (c >> 4)
		}
	}
	return n
}

func (n teddyNibbles) or(m teddyNibbles) teddyNibbles {
	n.quad = ""
	for k := range teddyWidth {
		n.lo[k] |= m.lo[k]
		n.hi[k] |= m.hi[k]
	}
	return n
}

// estimate is the share of text positions these sets let through.
func (n teddyNibbles) estimate() float64 {
	sums := textFreqSums()
	e := 1.0
	for k := range teddyWidth {
		if n.lo[k] == 0xffff && n.hi[k] == 0xffff {
			continue
		}
		p := 0.0
		for hi := n.hi[k]; hi != 0; hi &= hi - 1 {
			row := &sums[bits.TrailingZeros16(hi)]
			p += row[0][uint8(n.lo[k])] + row[1][n.lo[k]>>8]
		}
		e *= p
	}
	return e
}

// textFreqSums[hi][h][m] is the summed textFreq of the bytes with high
// nibble hi and a low nibble in the set m<<(8*h): estimate adds two of
// these a high nibble instead of up to sixteen frequencies. newTeddy calls
// estimate for every literal start and bucket, several times over (with
// 269 starts and five groups it took 12 ms, against 0.3 ms for the rest of
// the automaton, on the first output of every rac run).
var textFreqSums = sync.OnceValue(func() *[16][2][256]float64 {
	var sums [16][2][256]float64
	for hi := range 16 {
		for h := range 2 {
			for m := 1; m < 256; m++ {
				low := bits.TrailingZeros8(uint8(m))
				sums[hi][h][m] = sums[hi][h][m&(m-1)] + textFreq[hi][8*h+low]
			}
		}
	}
	return &sums
})

// textFreq is a rough distribution of bytes in command output (English-like
// words, identifiers, digits, punctuation), normalised to sum to 1; the
// bucket assignment only needs it to rank common bytes above rare ones.
var textFreq = func() (freq [16][16]float64) {
	var f [256]float64
	for x := range f {
		f[x] = 0.02
	}
	lower := "etaoinsrhldcumfpgwybvkxjqz"
	weights := []float64{10, 7, 7, 7, 6, 6, 6, 6, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 1.5, 1, 0.7, 0.3, 0.2, 0.1, 0.1}
	for i := range len(lower) {
		f[lower[i]] = weights[i]
		f[lower[i]-('a'-'A')] = weights[i] / 6
	}
	for c := '0'; c <= '9'; c++ {
		f[c] = 1
	}
	for _, c := range []byte(".,:;-_/\"'=()[]{}<>@#*+&%$!?|~`^\t") {
		f[c] = 0.4
	}
	f[' '], f['\n'] = 15, 2
	sum := 0.0
	for _, v := range f {
		sum += v
	}
	for x := range f {
		freq[x>>4][x&15] = f[x] / sum
	}
	return freq
}()

// teddyQuadsPerGroup is about how many distinct literal starts a group of
// eight buckets holds well: newTeddy starts its search for the number of
// groups there (86 starts passed 3.6% in one group; 269 reach the target
// in five), since every try costs a full assignment (2.3 ms for 269 starts
// in five groups).
const teddyQuadsPerGroup = 56

// teddyMaxGroups bounds the prefilter's cost: past six groups a block costs
// more than the positions they keep from the start filter (BenchmarkWriter
// single-env, with a dozen secret variables: 431 MB per CPU-second with 5
// groups, 435 with 6, 418 with 8).
const teddyMaxGroups = 6

// teddyTargetPass is the estimated pass rate (textFreq, which assumes
// independent bytes and so underestimates real text about twofold) at which
// more groups stop paying: for the built-in literals, 5 groups estimate
// 1.1% and pass 2.1%, 6 estimate 0.6% and pass 1.8%, for little gain.
const teddyTargetPass = 0.012

// newTeddy assigns the folded first four bytes of every literal to the
// fewest bucket groups that estimate a pass rate of at most teddyTargetPass
// (or teddyMaxGroups of them). It returns nil when even those would let too
// much through to pay (teddyMaxPass).
func newTeddy(pats []string) *teddy {
	quads := teddyQuads(pats)
	if t := teddyBuiltinTables(quads); t != nil {
		return t
	}
	if len(quads) > teddyQuadsPerGroup*teddyMaxGroups {
		return nil
	}
	for g := max(1, (len(quads)+teddyQuadsPerGroup-1)/teddyQuadsPerGroup); ; g++ {
		t, est := newTeddyGroups(quads, g)
		if est <= teddyTargetPass || g == teddyMaxGroups {
			if est > teddyMaxPass {
				return nil
			}
			return t
		}
	}
}

// teddyPlace is the buckets of one literal start in teddyBuiltin.
type teddyPlace struct {
	quad          string
	nibble, exact uint8
}

// teddyBuiltinTables returns the tables of teddyBuiltin when quads hold
// every one of its literal starts (the built-in rules), and few others,
// else nil. Its buckets were chosen offline (TestTeddyTrain,
// make teddy-table) by a local search that counts the positions of real
// text (git log -p, go test -v, ps, env, dpkg -l, documentation, Go and
// JavaScript sources, go list -json) every bucket lets through, 4-gram by
// 4-gram, where newTeddyGroups can only estimate from byte frequencies as
// if bytes were independent: "-----begin" beside "sk-" and "sg." passed
// every "--- " of go test -v. The nibble and the exact tables have
// assignments of their own, each chosen for how its tables combine bytes.
// On the bench's 64 MiB shapes, held out from the training, the exact
// tables pass up to 88% fewer positions than newTeddyGroups' buckets did
// (go test -v 42.6K a MiB to 21.9K, of which 2.7K start no literal, where
// 23.4K did; kubectl YAML the same), the nibble tables 11% to 87% fewer on
// all but git log (16.2K to 18.4K), each with five groups instead of
// six; and the table saves newTeddy's search, about 3 ms on every run that
// prints more than teddyAfter.
//
// Environment secrets add starts of their own (each variable's value in
// four or five spellings), and an agent's session usually has a few (its
// API keys): up to teddyMaxExtra of them go where the byte-frequency
// estimate rises least, in both assignments, and the trained buckets stay
// as they are. With more, or without every start of teddyBuiltin, it
// returns nil and newTeddyGroups assigns them all.
func teddyBuiltinTables(quads []teddyNibbles) *teddy {
	if len(quads) < len(teddyBuiltin) || len(quads) > len(teddyBuiltin)+teddyMaxExtra {
		return nil
	}
	nibble, exact := make([]int, len(quads)), make([]int, len(quads))
	var extra []int
	for qi, q := range quads {
		j, ok := slices.BinarySearchFunc(teddyBuiltin[:], q.quad, func(p teddyPlace, s string) int { return strings.Compare(p.quad, s) })
		if !ok {
			extra = append(extra, qi)
			continue
		}
		nibble[qi], exact[qi] = int(teddyBuiltin[j].nibble), int(teddyBuiltin[j].exact)
	}
	if len(quads)-len(extra) != len(teddyBuiltin) {
		return nil
	}
	placeExtra(quads, nibble, extra, teddyBuiltinGroups, teddyNibbles.or, teddyNibbles.estimate)
	placeExtra(quads, exact, extra, teddyBuiltinExactGroups, teddyExactSet.with, teddyExactSet.estimate)
	t, _ := teddyAssigned(quads, nibble, teddyBuiltinGroups)
	t.exact = teddyExactTables(quads, exact, teddyBuiltinExactGroups)
	return t
}

// teddyMaxExtra is how many starts besides teddyBuiltin's its buckets take
// (about five environment secrets).
const teddyMaxExtra = 24

// placeExtra puts each of the quads extra in the bucket of ngroups groups
// where the estimate of its set S rises least, the others staying in the
// buckets which gives them.
func placeExtra[S any](quads []teddyNibbles, which, extra []int, ngroups int, or func(S, teddyNibbles) S, estimate func(S) float64) {
	if len(extra) == 0 {
		return
	}
	isExtra := make([]bool, len(quads))
	for _, qi := range extra {
		isExtra[qi] = true
	}
	sets := make([]S, ngroups*teddyBuckets)
	used := make([]bool, len(sets))
	for qi, bi := range which {
		if !isExtra[qi] {
			sets[bi], used[bi] = or(sets[bi], quads[qi]), true
		}
	}
	for _, qi := range extra {
		best, bestDelta := 0, 0.0
		for bi := range sets {
			c := estimate(or(sets[bi], quads[qi]))
			if used[bi] {
				c -= estimate(sets[bi])
			}
			if bi == 0 || c < bestDelta {
				best, bestDelta = bi, c
			}
		}
		which[qi] = best
		sets[best], used[best] = or(sets[best], quads[qi]), true
	}
}

// teddyExactSet is what the exact tables of a bucket accept at each offset,
// by a byte's low seven bits: placeExtra's view of them.
type teddyExactSet [teddyWidth][2]uint64

func (s teddyExactSet) with(q teddyNibbles) teddyExactSet {
	for k := range teddyWidth {
		if k >= len(q.quad) {
			s[k] = [2]uint64{^uint64(0), ^uint64(0)}
			continue
		}
		for _, c := range caseSpellings(q.quad[k]) {
			s[k][c>>6&1] |= 1 << (c & 63)
		}
	}
	return s
}

// estimate is the share of text positions the set lets through, by
// textFreq (a byte x passes where x&127 is in the set).
func (s teddyExactSet) estimate() float64 {
	e := 1.0
	for k := range teddyWidth {
		if s[k] == [2]uint64{^uint64(0), ^uint64(0)} {
			continue
		}
		p := 0.0
		for h := range 2 {
			for m := s[k][h]; m != 0; m &= m - 1 {
				x := h*64 + bits.TrailingZeros64(m)
				p += textFreq[x>>4][x&15] + textFreq[8+x>>4][x&15]
			}
		}
		e *= p
	}
	return e
}

// teddyQuads returns the nibble sets of the distinct folded first four bytes
// of pats.
func teddyQuads(pats []string) []teddyNibbles {
	seen := map[string]bool{}
	var quads []teddyNibbles
	for _, p := range pats {
		q := foldString(p[:min(len(p), teddyWidth)])
		if !seen[q] {
			seen[q] = true
			quads = append(quads, quadNibbles([]byte(q)))
		}
	}
	return quads
}

// newTeddyGroups assigns every quad to the bucket of ngroups groups where it
// raises the estimated pass rate least, then moves quads between buckets
// while that lowers it. It returns the tables and their estimated pass rate.
func newTeddyGroups(quads []teddyNibbles, ngroups int) (*teddy, float64) {
	nb := ngroups * teddyBuckets
	buckets := make([]teddyNibbles, nb)
	used := make([]bool, nb)
	cost := make([]float64, nb) // buckets[bi].estimate(), 0 while unused
	// members[bi] lists the quads in bucket bi, so that taking one out
	// rebuilds the bucket from its few members, not from every quad.
	members := make([][]int, nb)
	which := make([]int, len(quads))
	remove := func(qi int) {
		bi := which[qi]
		m := members[bi]
		for j, q := range m {
			if q == qi {
				m = append(m[:j], m[j+1:]...)
				break
			}
		}
		members[bi] = m
		buckets[bi], used[bi], cost[bi] = teddyNibbles{}, len(m) > 0, 0
		for _, q := range m {
			buckets[bi] = buckets[bi].or(quads[q])
		}
		if used[bi] {
			cost[bi] = buckets[bi].estimate()
		}
	}
	place := func(qi int) {
		best, bestDelta, bestCost := 0, 0.0, 0.0
		empty := false // every unused bucket costs the same: try one
		for bi := range buckets {
			if !used[bi] {
				if empty {
					continue
				}
				empty = true
			}
			c := buckets[bi].or(quads[qi]).estimate()
			if d := c - cost[bi]; bi == 0 || d < bestDelta {
				best, bestDelta, bestCost = bi, d, c
			}
		}
		which[qi] = best
		members[best] = append(members[best], qi)
		buckets[best], used[best], cost[best] = buckets[best].or(quads[qi]), true, bestCost
	}
	for qi := range which {
		place(qi)
	}
	for range 4 {
		moved := false
		for qi := range quads {
			from := which[qi]
			remove(qi)
			place(qi)
			moved = moved || which[qi] != from
		}
		if !moved {
			break
		}
	}
	return teddyAssigned(quads, which, ngroups)
}

// teddyAssigned lays out the tables of ngroups groups with quads[q] in
// bucket which[q], and returns them with their estimated pass rate.
func teddyAssigned(quads []teddyNibbles, which []int, ngroups int) (*teddy, float64) {
	buckets := make([]teddyNibbles, ngroups*teddyBuckets)
	used := make([]bool, len(buckets))
	for qi, bi := range which {
		buckets[bi], used[bi] = buckets[bi].or(quads[qi]), true
	}
	t, est := teddyTables(buckets, used)
	t.exact = teddyExactTables(quads, which, ngroups)
	return t, est
}

// teddyExactTables lays out the exact tables of ngroups groups, quads[q]
// in bucket which[q].
func teddyExactTables(quads []teddyNibbles, which []int, ngroups int) []teddyExact {
	ex := make([]teddyExact, ngroups)
	for qi, q := range quads {
		g, bit := &ex[which[qi]/teddyBuckets], uint8(1)<<(which[qi]%teddyBuckets)
		for k := range teddyWidth {
			if k >= len(q.quad) {
				for x := range g[k] {
					g[k][x] |= bit
				}
				continue
			}
			for _, c := range caseSpellings(q.quad[k]) {
				g[k][c&127] |= bit
			}
		}
	}
	return ex
}

// teddyTables lays out the buckets' nibble sets as the tables of their
// groups, and returns them with the estimated pass rate.
func teddyTables(buckets []teddyNibbles, used []bool) (*teddy, float64) {
	total := 0.0
	t := &teddy{groups: make([]teddyGroup, len(buckets)/teddyBuckets)}
	for bi, b := range buckets {
		if !used[bi] {
			continue
		}
		total += b.estimate()
		g := &t.groups[bi/teddyBuckets]
		for k := range teddyWidth {
			for n := range 16 {
				if b.lo[k]&(1<<n) != 0 {
					g[2*k][n] |= 1 << (bi % teddyBuckets)
				}
				if b.hi[k]&(1<<n) != 0 {
					g[2*k+1][n] |= 1 << (bi % teddyBuckets)
				}
			}
		}
	}
	return t, total
}

// at reports whether position i of src (with four bytes from i) passes: the
// reference the assembly is tested against.
func (t *teddy) at(src []byte, i int) bool {
	for gi := range t.groups {
		g := &t.groups[gi]
		m := uint8(0xff)
		for k := range teddyWidth {
			x := src[i+k]
			m &= g[2*k][x&15] & g[2*k+1][x>>4]
		}
		if m != 0 {
			return true
		}
	}
	return false
}

// teddyFindGo is what teddyFind does, a position at a time: the first
// 32-byte block at i, i+32, ... that fits in src with three bytes to spare
// and has a passing position, and the mask of its passing positions; or,
// with mask 0, the first block start that does not fit.
func teddyFindGo(t *teddy, src []byte, i int) (int, uint32) {
	for ; i+32+teddyWidth-1 <= len(src); i += 32 {
		var mask uint32
		for j := range 32 {
			if t.at(src, i+j) {
				mask |= 1 << j
			}
		}
		if mask != 0 {
			return i, mask
		}
	}
	return i, 0
}

// at64 is at for the exact tables: the reference teddyFind64 is tested
// against.
func (t *teddy) at64(src []byte, i int) bool {
	for gi := range t.exact {
		g := &t.exact[gi]
		m := uint8(0xff)
		for k := range teddyWidth {
			m &= g[k][src[i+k]&127]
		}
		if m != 0 {
			return true
		}
	}
	return false
}

// teddyFind64Go is what teddyFind64 does, a position at a time: the first
// round of two 64-byte blocks at i, i+128, ... that fits in src with three
// bytes to spare and has a position passing the exact tables, and the
// masks of its passing positions in each block (lo for at to at+63, hi
// for at+64 to at+127); where no round fits, one block alone (hi 0); or,
// with both masks 0, where it stopped, fewer than 67 bytes before the end.
func teddyFind64Go(t *teddy, src []byte, i int) (int, uint64, uint64) {
	block := func(i int) uint64 {
		var mask uint64
		for j := range 64 {
			if t.at64(src, i+j) {
				mask |= 1 << j
			}
		}
		return mask
	}
	for ; i+128+teddyWidth-1 <= len(src); i += 128 {
		if lo, hi := block(i), block(i+64); lo|hi != 0 {
			return i, lo, hi
		}
	}
	if i+64+teddyWidth-1 <= len(src) {
		if lo := block(i); lo != 0 {
			return i, lo, 0
		}
		i += 64
	}
	return i, 0, 0
}
