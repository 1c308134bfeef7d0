package redact

import "math/bits"

// teddy is a vector prefilter in front of the start filter, after the Teddy
// algorithm of Hyperscan and Rust's aho-corasick: where the CPU has the
// instructions (AVX2 on amd64, see teddy_amd64.s), 32 positions at a time are
// tested against the first four bytes of every literal, and only the
// positions that pass reach the start filter's exact trigram test and the
// automaton. On git log text the scalar start filter alone cost about two
// cycles a byte, most of the redaction; teddyFind costs about a fifth of
// that, and the positions it passes (one in thirty) about as much again.
//
// The literals are spread over eight buckets, one bit each. For each of the
// first four offsets, lo[k][n] holds the buckets that have a literal whose
// byte k has low nibble n, hi[k][n] the same for the high nibble, so a byte x
// passes offset k for bucket b when bit b is set in lo[k][x&15]&hi[k][x>>4].
// A position passes when some bucket passes all four offsets. Within a
// bucket the nibbles of different literals combine freely, so more passes
// than the literals spell (never fewer: every case spelling of every byte of
// every literal is in its bucket's tables, and an offset past the end of a
// short literal accepts every byte); the buckets are filled so that the
// combinations stay few.
type teddy struct {
	// masks[2k] is lo for offset k and masks[2k+1] hi, the layout the
	// assembly loads.
	masks [8][16]uint8
}

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
}

func quadNibbles(q []byte) teddyNibbles {
	var n teddyNibbles
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
	for k := range teddyWidth {
		n.lo[k] |= m.lo[k]
		n.hi[k] |= m.hi[k]
	}
	return n
}

// estimate is the share of text positions these sets let through.
func (n teddyNibbles) estimate() float64 {
	e := 1.0
	for k := range teddyWidth {
		if n.lo[k] == 0xffff && n.hi[k] == 0xffff {
			continue
		}
		p := 0.0
		for hi := n.hi[k]; hi != 0; hi &= hi - 1 {
			row := &textFreq[bits.TrailingZeros16(hi)]
			for lo := n.lo[k]; lo != 0; lo &= lo - 1 {
				p += row[bits.TrailingZeros16(lo)]
			}
		}
		e *= p
	}
	return e
}

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

// teddyMaxQuads bounds the work of newTeddy: with more distinct literal
// starts than this the buckets are too full to pay anyway.
const teddyMaxQuads = 200

// newTeddy assigns the folded first four bytes of every literal to a bucket
// where it raises the estimated pass rate least, then moves literals between
// buckets while that lowers it. It returns nil when the prefilter would let
// too much through to pay.
func newTeddy(pats []string) *teddy {
	seen := map[string]bool{}
	var quads []teddyNibbles
	for _, p := range pats {
		q := foldString(p[:min(len(p), teddyWidth)])
		if !seen[q] {
			seen[q] = true
			quads = append(quads, quadNibbles([]byte(q)))
		}
	}
	if len(quads) > teddyMaxQuads {
		return nil
	}
	var buckets [teddyBuckets]teddyNibbles
	var used [teddyBuckets]bool
	which := make([]int, len(quads))
	refill := func(bi int) {
		buckets[bi], used[bi] = teddyNibbles{}, false
		for qi, w := range which {
			if w == bi {
				buckets[bi], used[bi] = buckets[bi].or(quads[qi]), true
			}
		}
	}
	cost := func(bi int) float64 {
		if !used[bi] {
			return 0
		}
		return buckets[bi].estimate()
	}
	place := func(qi int) {
		best, bestDelta := 0, 0.0
		for bi := range buckets {
			if d := buckets[bi].or(quads[qi]).estimate() - cost(bi); bi == 0 || d < bestDelta {
				best, bestDelta = bi, d
			}
		}
		which[qi] = best
		buckets[best], used[best] = buckets[best].or(quads[qi]), true
	}
	for qi := range which {
		which[qi] = -1
		place(qi)
	}
	for range 4 {
		moved := false
		for qi := range quads {
			from := which[qi]
			which[qi] = -1
			refill(from)
			place(qi)
			moved = moved || which[qi] != from
		}
		if !moved {
			break
		}
	}
	return teddyTables(buckets, used)
}

// teddyTables lays out the buckets' nibble sets as the tables, or returns nil
// when the buckets together let too much through.
func teddyTables(buckets [teddyBuckets]teddyNibbles, used [teddyBuckets]bool) *teddy {
	total := 0.0
	t := &teddy{}
	for bi, b := range buckets {
		if !used[bi] {
			continue
		}
		total += b.estimate()
		for k := range teddyWidth {
			for n := range 16 {
				if b.lo[k]&(1<<n) != 0 {
					t.masks[2*k][n] |= 1 << bi
				}
				if b.hi[k]&(1<<n) != 0 {
					t.masks[2*k+1][n] |= 1 << bi
				}
			}
		}
	}
	if total > teddyMaxPass {
		return nil
	}
	return t
}

// at reports whether position i of src (with four bytes from i) passes: the
// reference the assembly is tested against.
func (t *teddy) at(src []byte, i int) bool {
	m := uint8(0xff)
	for k := range teddyWidth {
		x := src[i+k]
		m &= t.masks[2*k][x&15] & t.masks[2*k+1][x>>4]
	}
	return m != 0
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
