package explain

import "sync"

// lower folds ASCII letters; every other byte maps to itself.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// anchor is a literal that a line must contain before classify looks at it.
// The scan does not compare every anchor at every byte: it looks up each
// pair of adjacent bytes in a table and compares an anchor only where its
// trigger pair, a pair chosen to be rare in ordinary output, occurs. Rare
// triggers are what make the scan cheap. Which pair an anchor triggers on
// changes only the speed, never the line found (the first that holds any
// anchor). The pairs below were picked among their anchors' pairs by how
// seldom they occur in make bench's mixed output and in the corpus's tool
// output: common ones such as "ok", "pa" and "fo" (of "token", "path",
// "info") made 2.3 M comparisons in 64 MiB of the former, these 0.9 M.
type anchor struct {
	text    string // folded to lower case unless exact
	trigger int    // offset in text of the first byte of the trigger pair
	exact   bool   // compare case-sensitively
}

// anchors: every term and tool shape that classify recognises contains one
// of these, so a line without any can be skipped unread; that keeps a
// 64 MiB recording well under a second (the scan runs at close to 1 GB/s;
// on make bench's mixed output a third of the lines hold an anchor, and
// judging them takes most of its 0.25 s). A false hit costs one classify
// call, never a wrong answer; a missing anchor silently loses a shape, so
// add one here whenever classify learns a shape that contains none.
var anchors = []anchor{
	{"err", 1, false}, // error, ERR!, ErrImagePull (and stderr: a cheap false hit)
	{"fatal", 0, false},
	{"fail", 0, false}, // fail, failed, failure, FAIL
	{"panic", 3, false},
	{"exception", 1, false},
	{"traceback", 7, false},
	{"denied", 3, false},
	{"not found", 0, false},
	{"no such", 4, false},
	{"cannot", 3, false},
	{"can't", 2, false},
	{"could not", 2, false},
	{"couldn't", 5, false},
	{"unable", 3, false},
	{"refused", 2, false},
	{"timeout", 3, false},
	{"timed out", 1, false},
	{"conflict", 3, false},
	{"reject", 1, false},
	{"abort", 1, false},
	{"segmentation", 2, false}, // "Segmentation fault"
	{"undefined", 2, false},    // "undefined reference", an undefined step or symbol
	{"backoff", 3, false},      // CrashLoopBackOff, ImagePullBackOff
	{".go:", 2, false},         // go compiler and vet lines, t.Errorf lines, klog's file.go:NN]
	{"=== ", 0, false},         // go test -v markers: they say whose log lines follow
	{"--- ", 2, false},         // --- PASS / --- SKIP / --- FAIL
	{"\nE   ", 0, true},        // pytest's "E   " lines, at a line start only
	{"not ok", 0, false},       // TAP's failing test line
	{"***", 0, false},          // make's own messages ("*** No rule to make target")
	{"invalid", 2, false},
	{"data race", 3, false},
	{"expected:", 1, false}, // an expectation under a failed assertion
	{"\u25cf ", 1, true},    // a test runner's failure heading ("● suite › test")
	{": E", 1, true},        // a linter's error code ("E0602: Undefined variable")
	{"___", 0, true},        // pytest\'s failure sections: what they quote is code
	{"_ _ _", 0, true},
	// severity words of more log formats and test protocols
	{"[emerg", 0, false}, // nginx
	{"[alert", 0, false}, // nginx, HAProxy
	{"[crit", 0, false},
	{"\u2716", 1, true}, // ✖, a linter's or runner's error mark
	{"\u2718", 1, true}, // ✘
	{"** (", 0, false},  // Elixir's exception line
	{"unhandled", 1, false},
	// the actual value of a failed assertion, which holds no error word
	{"got:", 2, false},
	{"actual", 2, false}, // "actual: 3", and a diff's legend ("+++ actual")
	{"left:", 3, false},
	{"received", 3, false},
	{"found:", 4, false},
	{"value:", 4, false},
	// a record's message field under its heading
	{"msg\": ", 1, false},
	{"msg: ", 1, false},
	{"message: ", 6, false},
	{"message\": ", 6, false},
	{"reason: ", 5, false},
}

// prefilter finds the first line holding an anchor.
type prefilter struct {
	// at maps a pair of adjacent bytes (first byte high) to 1 + the index
	// in lists of the anchors it triggers; 0, for most pairs, means none.
	at    [1 << 16]uint8
	lists [][]anchor
}

// pf is built on first use, not at start-up.
var pfOnce = sync.OnceValue(func() *prefilter { return newPrefilter(anchors) })

func newPrefilter(as []anchor) *prefilter {
	p := &prefilter{}
	cases := func(c byte, exact bool) []byte {
		if !exact && 'a' <= c && c <= 'z' {
			return []byte{c, c - 'a' + 'A'}
		}
		return []byte{c}
	}
	for _, a := range as {
		if !a.exact {
			b := []byte(a.text)
			for i := range b {
				b[i] = lower[b[i]]
			}
			a.text = string(b)
		}
		key := uint16(a.text[a.trigger])<<8 | uint16(a.text[a.trigger+1])
		k := p.at[key]
		if k == 0 {
			p.lists = append(p.lists, nil)
			k = uint8(len(p.lists))
			for _, c := range cases(a.text[a.trigger], a.exact) {
				for _, d := range cases(a.text[a.trigger+1], a.exact) {
					p.at[uint16(c)<<8|uint16(d)] = k
				}
			}
		}
		p.lists[k-1] = append(p.lists[k-1], a)
	}
	return p
}

// index returns the offset of a byte of the first line of b that holds an
// anchor, or -1. b starts at a line start.
func (p *prefilter) index(b []byte) int {
	if len(b) >= 4 && string(b[:4]) == "E   " {
		return 0
	}
	for i := 0; i+1 < len(b); i++ {
		k := p.at[uint16(b[i])<<8|uint16(b[i+1])]
		if k == 0 {
			continue
		}
	next:
		for _, a := range p.lists[k-1] {
			start := i - a.trigger
			if start < 0 || start+len(a.text) > len(b) {
				continue
			}
			w := b[start : start+len(a.text)]
			if a.exact {
				if string(w) == a.text {
					return start + len(a.text) - 1 // inside the line the anchor ends on
				}
				continue
			}
			for j := range w {
				if lower[w[j]] != a.text[j] {
					continue next
				}
			}
			return i
		}
	}
	return -1
}
