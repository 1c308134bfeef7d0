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

// anchors are the literals, compared without regard to ASCII case, that a
// line must contain before anything more expensive looks at it. Every term
// and tool shape that classify recognises contains one of them, so a line
// without any can be skipped unread: that is what keeps a 64 MiB recording
// well under a second. A false hit costs one classify call, never a wrong
// answer; a missing anchor silently loses a shape, so add one here whenever
// classify learns a shape that contains none of these.
var anchors = []string{
	"err", // error, ERR!, ErrImagePull, stderr (a false hit, cheap)
	"fatal",
	"fail", // fail, failed, failure, FAIL
	"panic",
	"exception",
	"traceback",
	"denied",
	"not found",
	"no such",
	"cannot",
	"can't",
	"can not",
	"could not",
	"couldn't",
	"unable",
	"refused",
	"timeout",
	"timed out",
	"conflict",
	"reject",
	"abort",
	"segmentation fault",
	"undefined reference",
	"backoff", // CrashLoopBackOff, ImagePullBackOff
	".go:",    // go compiler and vet lines, t.Errorf lines, klog's file.go:NN]
	"=== ",    // go test -v markers, which say whose log lines follow
	"--- ",    // --- PASS / --- SKIP / --- FAIL
	"e   ",    // pytest's "E   " lines
	"left:",   // assert_eq! details under a Rust panic
	"right:",
	"***", // make's own messages ("*** No rule to make target")
}

// prefilter finds the first anchor in a byte slice.
type prefilter struct {
	// first maps a byte to 1 + the index in rest of the anchors starting
	// with that byte (folded); 0 means no anchor starts with it.
	first [256]uint8
	rest  [][]string // folded anchors without their first byte
}

var pf = newPrefilter(anchors)

func newPrefilter(words []string) *prefilter {
	p := &prefilter{}
	for _, w := range words {
		c := lower[w[0]]
		if p.first[c] == 0 {
			p.rest = append(p.rest, nil)
			k := uint8(len(p.rest))
			p.first[c] = k
			if 'a' <= c && c <= 'z' {
				p.first[c-'a'+'A'] = k
			}
		}
		k := p.first[c] - 1
		folded := make([]byte, len(w)-1)
		for i := 1; i < len(w); i++ {
			folded[i-1] = lower[w[i]]
		}
		p.rest[k] = append(p.rest[k], string(folded))
	}
	return p
}

// index returns the offset of the first anchor in b, or -1.
func (p *prefilter) index(b []byte) int {
	for i := 0; i < len(b); i++ {
		k := p.first[b[i]]
		if k == 0 {
			continue
		}
		tail := b[i+1:]
	next:
		for _, a := range p.rest[k-1] {
			if len(tail) < len(a) {
				continue
			}
			for j := 0; j < len(a); j++ {
				if lower[tail[j]] != a[j] {
					continue next
				}
			}
			return i
		}
	}
	return -1
}
