package explain

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
// The scan does not look at every byte of every anchor: it waits for the
// anchor's trigger, its rarest byte in ordinary output, and only then
// compares the rest. Picking rare triggers is what makes the scan cheap.
type anchor struct {
	text    string // folded to lower case unless exact
	trigger int    // offset in text of the byte the scan waits for
	exact   bool   // compare case-sensitively
}

// anchors: every term and tool shape that classify recognises contains one
// of these, so a line without any can be skipped unread; that keeps a
// 64 MiB recording well under a second. A false hit costs one classify
// call, never a wrong answer; a missing anchor silently loses a shape, so
// add one here whenever classify learns a shape that contains none.
var anchors = []anchor{
	{"err", 1, false}, // error, ERR!, ErrImagePull (and stderr: a cheap false hit)
	{"fatal", 0, false},
	{"fail", 0, false}, // fail, failed, failure, FAIL
	{"panic", 0, false},
	{"exception", 1, false},
	{"traceback", 8, false},
	{"denied", 0, false},
	{"not found", 4, false},
	{"no such", 4, false},
	{"cannot", 0, false},
	{"can't", 3, false},
	{"can not", 0, false},
	{"could not", 0, false},
	{"couldn't", 5, false},
	{"unable", 3, false},
	{"refused", 2, false},
	{"timeout", 2, false},
	{"timed out", 2, false},
	{"conflict", 3, false},
	{"reject", 2, false},
	{"abort", 1, false},
	{"segmentation fault", 3, false},
	{"undefined reference", 5, false},
	{"backoff", 3, false}, // CrashLoopBackOff, ImagePullBackOff
	{".go:", 1, false},    // go compiler and vet lines, t.Errorf lines, klog's file.go:NN]
	{"=== ", 0, false},    // go test -v markers: they say whose log lines follow
	{"--- ", 0, false},    // --- PASS / --- SKIP / --- FAIL
	{"\nE   ", 0, true},   // pytest's "E   " lines, at a line start only
	{"left:", 2, false},   // assert_eq! details under a Rust panic
	{"right:", 2, false},
	{"***", 0, false}, // make's own messages ("*** No rule to make target")
}

// prefilter finds the first line holding an anchor.
type prefilter struct {
	// at maps a byte to 1 + the index in lists of the anchors it triggers;
	// 0 means it triggers none, which is the case for most bytes.
	at    [256]uint8
	lists [][]anchor
}

var pf = newPrefilter(anchors)

func newPrefilter(as []anchor) *prefilter {
	p := &prefilter{}
	for _, a := range as {
		if !a.exact {
			b := []byte(a.text)
			for i := range b {
				b[i] = lower[b[i]]
			}
			a.text = string(b)
		}
		c := a.text[a.trigger]
		if p.at[c] == 0 {
			p.lists = append(p.lists, nil)
			k := uint8(len(p.lists))
			p.at[c] = k
			if !a.exact && 'a' <= c && c <= 'z' {
				p.at[c-'a'+'A'] = k
			}
		}
		k := p.at[c] - 1
		p.lists[k] = append(p.lists[k], a)
	}
	return p
}

// index returns the offset of a byte of the first line of b that holds an
// anchor, or -1. b starts at a line start.
func (p *prefilter) index(b []byte) int {
	if len(b) >= 4 && string(b[:4]) == "E   " {
		return 0
	}
	for i := 0; i < len(b); i++ {
		k := p.at[b[i]]
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
					if a.text[0] == '\n' {
						return start + 1
					}
					return start
				}
				continue
			}
			for j := a.trigger + 1; j < len(w); j++ {
				if lower[w[j]] != a.text[j] {
					continue next
				}
			}
			for j := 0; j < a.trigger; j++ {
				if lower[w[j]] != a.text[j] {
					continue next
				}
			}
			return i
		}
	}
	return -1
}
