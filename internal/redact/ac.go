package redact

// automaton is an Aho-Corasick automaton over ASCII-case-folded bytes,
// compiled to a dense DFA over byte classes: the bytes that occur in no
// literal share one class, so a row is a few dozen entries, not 256. One scan
// reports every occurrence of every literal, overlapping ones included,
// which is what the union-of-rules semantics needs (a leftmost-first or
// earliest-ending search would hide a literal inside another).
//
// Stepping the DFA costs one dependent load per byte, which on the machines
// rac runs on is the whole budget. So while the automaton is at depth one or
// less, scan skips, with independent loads, every position whose first three
// (folded) bytes start no literal; every literal is at least two bytes long,
// and a two-byte literal marks all its three-byte extensions. A skipped
// position starts no occurrence, and when the automaton is shallow no
// occurrence that started earlier is still open, so nothing is missed.
// Command output has a literal trigram at about one position in forty.
type automaton struct {
	class   [256]uint8
	stride  uint32
	bigram  []bool   // [class(b0)*stride+class(b1)]: some literal starts with b0 b1
	trigram []uint64 // bit (class(b0)*stride+class(b1))*stride+class(b2): some literal starts with b0 b1 b2
	// trans[s+c] is the next state, premultiplied by stride, with outFlag set
	// when that state ends at least one literal and shallowFlag when it has
	// depth one or less.
	trans  []uint32
	outIdx []uint32 // per state number: outs[outIdx[n]:outIdx[n+1]]
	outs   []int32  // literal indexes
	lens   []int32  // literal lengths
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

func newAutomaton(pats []string) *automaton {
	a := &automaton{lens: make([]int32, len(pats))}
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
	// Trie, in flat arrays: one allocation for all transitions instead of
	// one a node (rac builds this on every start).
	total := 1
	for _, p := range pats {
		total += len(p)
	}
	next := make([]int32, 0, total*ncls)
	depth := make([]int32, 0, total)
	out := make([][]int32, 0, total)
	addNode := func(d int32) int32 {
		n := int32(len(depth))
		for range ncls {
			next = append(next, -1)
		}
		depth = append(depth, d)
		out = append(out, nil)
		return n
	}
	addNode(0)
	a.bigram = make([]bool, ncls*ncls)
	a.trigram = make([]uint64, (ncls*ncls*ncls+63)/64)
	for pi, p := range pats {
		if len(p) < 2 {
			panic("redact: literal shorter than two bytes: " + p)
		}
		c0, c1 := int(a.class[p[0]]), int(a.class[p[1]])
		a.bigram[c0*ncls+c1] = true
		for c2 := 0; c2 < ncls; c2++ {
			// A two-byte literal starts wherever its two bytes are.
			if len(p) == 2 || int(a.class[p[2]]) == c2 {
				idx := (c0*ncls+c1)*ncls + c2
				a.trigram[idx>>6] |= 1 << (idx & 63)
			}
		}
		a.lens[pi] = int32(len(p))
		s := int32(0)
		for i := 0; i < len(p); i++ {
			c := int32(a.class[p[i]])
			if next[s*int32(ncls)+c] < 0 {
				nn := addNode(depth[s] + 1)
				next[s*int32(ncls)+c] = nn
			}
			s = next[s*int32(ncls)+c]
		}
		out[s] = append(out[s], int32(pi))
	}
	nnodes := len(depth)
	// Failure links, completing the DFA in breadth-first order.
	fail := make([]int32, nnodes)
	queue := make([]int32, 0, nnodes)
	for c := 0; c < ncls; c++ {
		if t := next[c]; t >= 0 {
			fail[t] = 0
			queue = append(queue, t)
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
			t := row[c]
			if t < 0 {
				row[c] = frow[c]
				continue
			}
			fail[t] = frow[c]
			queue = append(queue, t)
		}
	}
	a.stride = uint32(ncls)
	a.trans = make([]uint32, nnodes*ncls)
	a.outIdx = make([]uint32, nnodes+1)
	for s := 0; s < nnodes; s++ {
		a.outIdx[s] = uint32(len(a.outs))
		a.outs = append(a.outs, out[s]...)
	}
	a.outIdx[nnodes] = uint32(len(a.outs))
	for i, t := range next {
		v := uint32(t) * a.stride
		if len(out[t]) > 0 {
			v |= outFlag
		}
		if depth[t] <= 1 {
			v |= shallowFlag
		}
		a.trans[i] = v
	}
	return a
}

// scan appends every literal occurrence in src to hits, ordered by end.
func (a *automaton) scan(src []byte, hits []hit) []hit {
	trans := a.trans
	class := &a.class
	tri := a.trigram
	stride := a.stride
	n := len(src)
	i := 0
	for {
		// Skip positions where no literal starts: by trigram, or by bigram
		// for the last two bytes.
		for {
			if i+2 >= n {
				if i+1 >= n || !a.bigram[uint32(class[src[i]])*stride+uint32(class[src[i+1]])] {
					return hits
				}
				break
			}
			c1 := uint32(class[src[i+1]])
			p01 := uint32(class[src[i]])*stride + c1
			for {
				c2 := uint32(class[src[i+2]])
				idx := p01*stride + c2
				if tri[idx>>6]&(1<<(idx&63)) != 0 {
					goto found
				}
				p01 = c1*stride + c2
				c1 = c2
				i++
				if i+2 >= n {
					break
				}
			}
		}
	found:
		// Run the automaton from the root until it is shallow again.
		s := trans[class[src[i]]] & stateMask
		for i++; i < n; i++ {
			t := trans[s+uint32(class[src[i]])]
			s = t & stateMask
			if t&(outFlag|shallowFlag) != 0 {
				if t&outFlag != 0 {
					st := s / stride
					for _, p := range a.outs[a.outIdx[st]:a.outIdx[st+1]] {
						hits = append(hits, hit{end: int32(i + 1), pat: p})
					}
				}
				if t&shallowFlag != 0 {
					break
				}
			}
		}
	}
}
