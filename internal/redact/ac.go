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
	// Trie.
	type node struct {
		next  []int32
		out   []int32
		depth int
	}
	newNode := func() node {
		n := node{next: make([]int32, ncls)}
		for i := range n.next {
			n.next[i] = -1
		}
		return n
	}
	nodes := []node{newNode()}
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
			c := a.class[p[i]]
			if nodes[s].next[c] < 0 {
				nn := newNode()
				nn.depth = nodes[s].depth + 1
				nodes = append(nodes, nn)
				nodes[s].next[c] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[c]
		}
		nodes[s].out = append(nodes[s].out, int32(pi))
	}
	// Failure links, completing the DFA in breadth-first order.
	fail := make([]int32, len(nodes))
	queue := make([]int32, 0, len(nodes))
	for c := 0; c < ncls; c++ {
		if t := nodes[0].next[c]; t >= 0 {
			fail[t] = 0
			queue = append(queue, t)
		} else {
			nodes[0].next[c] = 0
		}
	}
	for qi := 0; qi < len(queue); qi++ {
		s := queue[qi]
		nodes[s].out = append(nodes[s].out, nodes[fail[s]].out...)
		for c := 0; c < ncls; c++ {
			t := nodes[s].next[c]
			if t < 0 {
				nodes[s].next[c] = nodes[fail[s]].next[c]
				continue
			}
			fail[t] = nodes[fail[s]].next[c]
			queue = append(queue, t)
		}
	}
	a.stride = uint32(ncls)
	a.trans = make([]uint32, len(nodes)*ncls)
	a.outIdx = make([]uint32, len(nodes)+1)
	for s := range nodes {
		a.outIdx[s] = uint32(len(a.outs))
		a.outs = append(a.outs, nodes[s].out...)
	}
	a.outIdx[len(nodes)] = uint32(len(a.outs))
	for s := range nodes {
		for c := 0; c < ncls; c++ {
			t := nodes[s].next[c]
			v := uint32(t) * a.stride
			if len(nodes[t].out) > 0 {
				v |= outFlag
			}
			if nodes[t].depth <= 1 {
				v |= shallowFlag
			}
			a.trans[s*ncls+c] = v
		}
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
