package redact

import (
	"encoding/binary"
	"math/bits"
	"sync"
	"sync/atomic"
)

// automaton is an Aho-Corasick automaton over ASCII-case-folded bytes,
// compiled to a dense DFA over byte classes: the bytes that occur in no
// literal share one class, so a row is a few dozen entries, not 256. One scan
// reports every occurrence of every literal, overlapping ones included,
// which is what the union-of-rules semantics needs (a leftmost-first or
// earliest-ending search would hide a literal inside another).
//
// Stepping the DFA costs one dependent load per byte, which on the machines
// rac runs on is the whole budget. So while the automaton is at depth one or
// less, scan skips every position whose first three bytes start no literal
// (see startFilter; every literal is at least two bytes long), and steps the
// DFA only from the positions that remain, until it is shallow again. A
// skipped position starts no occurrence, and when the automaton is shallow
// no occurrence that started earlier is still open, so nothing is missed.
// Command output has a literal trigram at about one position in forty.
// Where the CPU has AVX2, teddy tests 32 positions at a time first, and the
// start filter only looks at the positions it lets through (teddy.go).
type automaton struct {
	class  [256]uint8
	stride uint32
	// recip is ceil(2^32/stride): for a multiple s of stride below 2^30,
	// s*recip>>32 is s/stride exactly, without a division.
	recip  uint64
	filter *startFilter // nil: step the DFA on every byte
	// teddy is built once the automaton has scanned teddyAfter bytes (nil
	// before, or where it does not pay: the start filter tests every
	// position itself). Building it costs about 3 ms (placing some 270
	// literal starts into buckets), which a command that prints a line,
	// git status at a prompt, would pay for nothing: below a few hundred
	// KiB the start filter alone is as fast. It is built on a goroutine of
	// its own (building), so that the writer's workers go on scanning with
	// the start filter meanwhile instead of one building and the other
	// waiting for it.
	teddy     atomic.Pointer[teddy]
	teddyOnce sync.Once
	teddyPats []string // kept for the build; nil without AVX2 or a filter
	scanned   atomic.Int64
	building  atomic.Bool // the build has been started
	// trans[s+c] is the next state, premultiplied by stride, with outFlag set
	// when that state ends at least one literal and shallowFlag when it has
	// depth one or less.
	trans  []uint32
	outIdx []uint32 // per state number: outs[outIdx[n]:outIdx[n+1]]
	// one is, per state number, the literal it ends when it ends exactly
	// one (most states that end any), else -1: appendOuts then appends
	// it without the walk over outs.
	one  []int32
	outs []int32 // literal indexes
	lens []int32 // literal lengths
}

// startFilter says whether a literal may start at a position, from a few
// independent table loads and no multiplication (the byte-class tables of
// the DFA would need two per position). pair maps the position's first two
// raw bytes (little endian, every case spelling) to a row, 0 when no literal
// starts with them; a row is the set of third-byte classes that complete a
// literal start, and third maps a raw byte to its class as a one-bit mask.
// Class 0 is every byte that is the third of no literal; a two-byte literal
// accepts any third byte (its row has every bit).
//
// Rows and classes are numbered modulo their capacity, so a literal set with
// more than 255 starting pairs or 63 third bytes shares rows or classes: the
// filter then lets more positions through, never fewer. It costs 68 KiB, so
// only the automaton over every literal has one; the small ones built for
// short strings step the DFA on every byte.
type startFilter struct {
	pair  [1 << 16]uint8
	rows  [256]uint64
	third [256]uint64
}

func newStartFilter(pats []string) *startFilter {
	f := &startFilter{}
	var cls [256]uint8
	ncls, nrows := 0, 0
	for _, p := range pats {
		c0, c1 := foldByte(p[0]), foldByte(p[1])
		key := uint16(c0) | uint16(c1)<<8
		row := f.pair[key]
		if row == 0 {
			row = uint8(1 + nrows%255)
			nrows++
			for _, b0 := range caseSpellings(c0) {
				for _, b1 := range caseSpellings(c1) {
					f.pair[uint16(b0)|uint16(b1)<<8] = row
				}
			}
		}
		if len(p) == 2 {
			f.rows[row] = ^uint64(0)
			continue
		}
		c2 := foldByte(p[2])
		if cls[c2] == 0 {
			cls[c2] = uint8(1 + ncls%63)
			ncls++
		}
		f.rows[row] |= 1 << cls[c2]
	}
	for b := range f.third {
		f.third[b] = 1 << cls[foldByte(byte(b))]
	}
	return f
}

// caseSpellings returns the raw bytes that fold to the folded byte c.
func caseSpellings(c byte) []byte {
	if c >= 'a' && c <= 'z' {
		return []byte{c, c - ('a' - 'A')}
	}
	return []byte{c}
}

const (
	outFlag     = 1 << 31
	shallowFlag = 1 << 30
	stateMask   = shallowFlag - 1
)

type hit struct {
	end int32 // index just past the literal
	pat int32
}

func foldByte(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b + ('a' - 'A')
	}
	return b
}

// newAutomaton compiles pats; withFilter adds the start filter, worth its
// build only for long inputs.
func newAutomaton(pats []string, withFilter bool) *automaton {
	a := &automaton{lens: make([]int32, len(pats))}
	ncls := a.foldClasses(pats)
	t := a.buildTrie(pats, ncls)
	t.linkFailures()
	a.pack(t)
	if withFilter {
		a.filter = newStartFilter(pats)
		if haveTeddy() {
			a.teddyPats = pats
		}
	}
	return a
}

// foldClasses gives each byte of pats, folded to lower case, its class
// (upper case shares its lower-case letter's) and returns the class count;
// every other byte is class 0.
func (a *automaton) foldClasses(pats []string) int {
	ncls := 1
	for _, p := range pats {
		for i := 0; i < len(p); i++ {
			f := foldByte(p[i])
			if a.class[f] == 0 {
				a.class[f] = uint8(ncls)
				ncls++
			}
		}
	}
	for b := 'A'; b <= 'Z'; b++ {
		a.class[b] = a.class[b+('a'-'A')]
	}
	return ncls
}

// acTrie is the automaton while it is built, in flat arrays: one
// allocation for all transitions instead of one a node (rac builds this
// on every start). next[s*ncls+c] is -1 for no edge until linkFailures.
type acTrie struct {
	ncls  int
	next  []int32
	depth []int32
	out   [][]int32
}

func (t *acTrie) addNode(d int32) int32 {
	n := int32(len(t.depth))
	for range t.ncls {
		t.next = append(t.next, -1)
	}
	t.depth = append(t.depth, d)
	t.out = append(t.out, nil)
	return n
}

// buildTrie adds each pattern's path of classes and records its length.
func (a *automaton) buildTrie(pats []string, ncls int) *acTrie {
	total := 1
	for _, p := range pats {
		total += len(p)
	}
	t := &acTrie{
		ncls:  ncls,
		next:  make([]int32, 0, total*ncls),
		depth: make([]int32, 0, total),
		out:   make([][]int32, 0, total),
	}
	t.addNode(0)
	for pi, p := range pats {
		if len(p) < 2 {
			panic("redact: literal shorter than two bytes: " + p)
		}
		a.lens[pi] = int32(len(p))
		s := int32(0)
		for i := 0; i < len(p); i++ {
			c := int32(a.class[p[i]])
			if t.next[s*int32(ncls)+c] < 0 {
				nn := t.addNode(t.depth[s] + 1)
				t.next[s*int32(ncls)+c] = nn
			}
			s = t.next[s*int32(ncls)+c]
		}
		t.out[s] = append(t.out[s], int32(pi))
	}
	return t
}

// linkFailures completes the DFA in breadth-first order: a missing edge
// takes its failure state's edge, and a state inherits its failure
// state's outputs.
func (t *acTrie) linkFailures() {
	ncls, next, out := t.ncls, t.next, t.out
	nnodes := len(t.depth)
	fail := make([]int32, nnodes)
	queue := make([]int32, 0, nnodes)
	for c := 0; c < ncls; c++ {
		if n := next[c]; n >= 0 {
			fail[n] = 0
			queue = append(queue, n)
		} else {
			next[c] = 0
		}
	}
	for qi := 0; qi < len(queue); qi++ {
		s := queue[qi]
		if len(out[fail[s]]) > 0 {
			out[s] = append(out[s], out[fail[s]]...)
		}
		row, frow := next[int(s)*ncls:int(s+1)*ncls], next[int(fail[s])*ncls:int(fail[s]+1)*ncls]
		for c := 0; c < ncls; c++ {
			n := row[c]
			if n < 0 {
				row[c] = frow[c]
				continue
			}
			fail[n] = frow[c]
			queue = append(queue, n)
		}
	}
}

// pack lays the completed DFA out for the scanners: transitions
// pre-multiplied by the stride with the output and shallow flags in their
// low bits, outputs in one slice indexed by state.
func (a *automaton) pack(t *acTrie) {
	ncls, nnodes := t.ncls, len(t.depth)
	a.stride = uint32(ncls)
	a.recip = (1<<32 + uint64(ncls) - 1) / uint64(ncls)
	a.trans = make([]uint32, nnodes*ncls)
	a.outIdx = make([]uint32, nnodes+1)
	a.one = make([]int32, nnodes)
	for s := 0; s < nnodes; s++ {
		a.outIdx[s] = uint32(len(a.outs))
		a.outs = append(a.outs, t.out[s]...)
		a.one[s] = -1
		if len(t.out[s]) == 1 {
			a.one[s] = t.out[s][0]
		}
	}
	a.outIdx[nnodes] = uint32(len(a.outs))
	for i, n := range t.next {
		v := uint32(n) * a.stride
		if len(t.out[n]) > 0 {
			v |= outFlag
		}
		if t.depth[n] <= 1 {
			v |= shallowFlag
		}
		a.trans[i] = v
	}
}

// scan appends every literal occurrence in src to hits, ordered by end.
func (a *automaton) scan(src []byte, hits []hit) []hit {
	i := 0
	if a.filter != nil {
		i, hits = a.scanFiltered(src, hits)
	}
	// The last few bytes (or all of them, without a filter): step the DFA
	// on every byte, from the root.
	trans := a.trans
	s := uint32(0)
	for ; i < len(src); i++ {
		t := trans[s+uint32(a.class[src[i]])]
		s = t & stateMask
		if t&outFlag != 0 {
			hits = a.appendOuts(hits, s, i+1)
		}
	}
	return hits
}

// scanFiltered scans src, skipping positions the start filter rules out,
// until fewer than six bytes are left. It returns where it stopped; the
// automaton is at its root there.
func (a *automaton) scanFiltered(src []byte, hits []hit) (int, []hit) {
	if t := a.teddy.Load(); t != nil {
		return a.scanTeddy(t, src, hits)
	}
	if a.teddyPats != nil && a.scanned.Add(int64(len(src))) >= teddyAfter && a.building.CompareAndSwap(false, true) {
		go a.buildTeddy()
	}
	trans := a.trans
	class := &a.class
	n := len(src)
	i := 0
	for {
		var ok bool
		if i, ok = a.filter.next(src, i); !ok {
			return i, hits
		}
		// Run the automaton from the root until it is shallow again.
		s := trans[class[src[i]]] & stateMask
		for i++; ; i++ {
			if i >= n {
				return n, hits
			}
			t := trans[s+uint32(class[src[i]])]
			s = t & stateMask
			if t&(outFlag|shallowFlag) != 0 {
				if t&outFlag != 0 {
					hits = a.appendOuts(hits, s, i+1)
				}
				if t&shallowFlag != 0 {
					break
				}
			}
		}
	}
}

// teddyAfter is how many bytes an automaton scans with the start filter
// alone before it builds its teddy prefilter.
const teddyAfter = 256 << 10

// buildTeddy builds the teddy prefilter now (once; a call while another
// builds it waits for that build); it reports whether
// there is one (none without AVX2, or where it does not pay).
func (a *automaton) buildTeddy() bool {
	if a.teddyPats != nil {
		a.teddyOnce.Do(func() { a.teddy.Store(newTeddy(a.teddyPats)) })
	}
	return a.teddy.Load() != nil
}

// scanTeddy is scanFiltered with the teddy prefilter in front of the start
// filter: teddyFind hands over blocks of 32 positions (teddyFind64, where
// the CPU has AVX-512 VBMI, blocks of 64 through the exact tables) with the
// ones that may start a literal marked, the start filter's exact test drops
// most of those, and the automaton runs from the rest until it is shallow
// again, as in scanFiltered. It stops, with the automaton at its root,
// where fewer than 35 (67) bytes are left.
func (a *automaton) scanTeddy(t *teddy, src []byte, hits []hit) (int, []hit) {
	wide := t.exact != nil && haveTeddy64()
	i := 0 // positions before i are done, and the automaton is at its root
	for {
		var at int
		var lo, hi uint64
		if wide {
			at, lo, hi = teddyFind64(t, src, i)
		} else {
			var m32 uint32
			at, m32 = teddyFind(t, src, i)
			lo = uint64(m32)
		}
		if lo|hi == 0 {
			return at, hits
		}
		var done bool
		if i, hits, done = a.scanMask(src, at, lo, i, hits); done {
			return len(src), hits
		}
		if i, hits, done = a.scanMask(src, at+64, hi, i, hits); done {
			return len(src), hits
		}
		// Past the block (a 32-byte one of teddyFind's), or the pair of
		// blocks, whether or not the second had a passing position: it was
		// looked at whenever the pair fits in src (a lone 64-byte block,
		// near the end, is followed by the next from its end). Looking at
		// a second block that passed nothing again, in the next pair, cost
		// a block in six to eight of the vector work on the shapes of
		// BenchmarkScanShapes (4% on go test -v, 17% on git log).
		switch {
		case !wide:
			i = max(i, at+32)
		case hi != 0 || at+128+teddyWidth-1 <= len(src):
			i = max(i, at+128)
		default:
			i = max(i, at+64)
		}
	}
}

// scanMask runs the automaton from the positions of mask (bit j: base+j)
// that pass the start filter, each until it is shallow again, skipping the
// positions before i, which a run from an earlier one covered. It returns
// where the last run stopped (or i), and done when one reached the end of
// src.
func (a *automaton) scanMask(src []byte, base int, mask uint64, i int, hits []hit) (int, []hit, bool) {
	trans := a.trans
	class := &a.class
	f := a.filter
	n := len(src)
	for ; mask != 0; mask &= mask - 1 {
		q := base + bits.TrailingZeros64(mask)
		if q < i || !f.at(src, q) {
			continue
		}
		s := trans[class[src[q]]] & stateMask
		for q++; ; q++ {
			if q >= n {
				return n, hits, true
			}
			t := trans[s+uint32(class[src[q]])]
			s = t & stateMask
			if t&(outFlag|shallowFlag) != 0 {
				if t&outFlag != 0 {
					hits = a.appendOuts(hits, s, q+1)
				}
				if t&shallowFlag != 0 {
					break
				}
			}
		}
		i = q
	}
	return i, hits, false
}

// at is the filter's test of one position, which has three bytes from i.
func (f *startFilter) at(src []byte, i int) bool {
	return f.rows[f.pair[binary.LittleEndian.Uint16(src[i:])]]&f.third[src[i+2]] != 0
}

// next returns the first position at or after i where a literal may start,
// and true; or false and where it stopped, fewer than six bytes before the
// end of src. It is a function of its own so that its loop keeps everything
// in registers.
func (f *startFilter) next(src []byte, i int) (int, bool) {
	pair, rows, third := &f.pair, &f.rows, &f.third
	p := src[i:]
	for ; len(p) >= 6; p = p[4:] {
		// Four positions a round, from six bytes: a round that finds
		// nothing costs twenty independent loads and one untaken branch.
		v := rows[pair[binary.LittleEndian.Uint16(p[0:])]] & third[p[2]]
		v |= rows[pair[binary.LittleEndian.Uint16(p[1:])]] & third[p[3]]
		v |= rows[pair[binary.LittleEndian.Uint16(p[2:])]] & third[p[4]]
		v |= rows[pair[binary.LittleEndian.Uint16(p[3:])]] & third[p[5]]
		if v != 0 {
			// One of the four passes; find the first.
			for rows[pair[binary.LittleEndian.Uint16(p[0:])]]&third[p[2]] == 0 {
				p = p[1:]
			}
			return len(src) - len(p), true
		}
	}
	return len(src) - len(p), false
}

// appendOuts appends a hit ending at end for every literal state s ends.
func (a *automaton) appendOuts(hits []hit, s uint32, end int) []hit {
	st := uint32(uint64(s) * a.recip >> 32)
	if p := a.one[st]; p >= 0 {
		return append(hits, hit{end: int32(end), pat: p})
	}
	for _, p := range a.outs[a.outIdx[st]:a.outIdx[st+1]] {
		hits = append(hits, hit{end: int32(end), pat: p})
	}
	return hits
}
