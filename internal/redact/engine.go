package redact

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
)

// Limits of the line machinery (see the package doc).
const (
	longLineThreshold = 64 << 10 // a partial line longer than this is emitted in part
	longLineTail      = 16 << 10 // ... all but this much
	longLineMax       = 1 << 20  // never hold more than this of one line
	longLineContext   = 1 << 10  // emitted bytes kept for boundary checks
	pemBodyMax        = 1 << 20  // a PEM body longer than this is not a key
	pemPrefixMax      = 4 << 10  // a longer prefix is taken as not repeated on body lines
)

type mlMode uint8

const (
	modeIdle mlMode = iota
	modePEM
	modePEMBase64
	modeKubeYAML
	modeKubeJSON
)

// mlState is the state that crosses lines. It is a plain value so a region's
// end state can be handed from a worker to the committer.
type mlState struct {
	mode mlMode
	// PEM: bytes before the header on its line, repeated by body lines
	// unless they are only indentation; whether the marker is out; body size.
	prefix  string
	started bool
	body    int
	width   int // base64 PEM: the wrap width of the encoded key
	// Kubernetes data blocks.
	stringData  bool
	keyCol      int // column of the data: key (or of the JSON quote)
	entryIndent int // -1 until the first entry
	scalar      bool
}

type span struct {
	start, end int
	rule       int32
}

type lineAction uint8

const (
	actSpans     lineAction = iota // replace e.merged
	actBodyFirst                   // replace line[bodyStart:bodyEnd] with the private-key marker
	actBodyDrop                    // drop the line and its newline
)

// engine holds the scratch space of one redaction in progress; engines are
// pooled and never shared between goroutines.
type engine struct {
	r       *Redactor
	mini    *automaton // a short string's own automaton, when set
	miniMap []int32    // its literal numbers to the Redactor's
	hits    []hit
	spans   []span
	merged  []span
	counts  []int

	open          bool    // the line may continue past the end of the buffer
	cover         []int   // per rule: end of its last span on this line
	covered       []int32 // rules with a cover to reset
	noFooterFrom  int     // PEM: no footer at or after this index of the line
	apiVersionAt  int     // kube: index of "apiVersion" in the line, -1 none, -2 not looked
	pending       mlState
	hasPending    bool
	lastAssignEnd int
	bodyStart     int
	bodyEnd       int
}

func newEngine(r *Redactor) *engine {
	return &engine{r: r, counts: make([]int, len(r.rules)), cover: make([]int, len(r.rules))}
}

// add records a candidate span, line-relative, unless it is allow-listed.
func (e *engine) add(line []byte, start, end int, ri int32) {
	if start >= end {
		return
	}
	if len(e.r.allow) > 0 {
		if _, ok := e.r.allow[string(line[start:end])]; ok {
			return
		}
	}
	e.spans = append(e.spans, span{start: start, end: end, rule: ri})
	if end > e.cover[ri] {
		if e.cover[ri] == 0 {
			e.covered = append(e.covered, ri)
		}
		e.cover[ri] = end
	}
}

func (e *engine) setPending(st mlState) {
	e.pending = st
	e.hasPending = true
}

// region appends the redaction of src to out. src is a run of whole lines;
// only its last line may lack a newline, and then the stream has ended there.
// It returns out untouched and false when nothing in src changes, so the
// caller can write src itself.
func (e *engine) region(out, src []byte, st *mlState) ([]byte, bool) {
	var hits []hit
	if e.mini != nil {
		hits = e.mini.scan(src, e.hits[:0])
		for i := range hits {
			hits[i].pat = e.miniMap[hits[i].pat]
		}
	} else {
		hits = e.r.auto().scan(src, e.hits[:0])
	}
	e.hits = hits
	emit := 0
	changed := false
	hi := 0
	pos := 0
	for pos < len(src) {
		from := pos // the line's newline is the first at or after from
		if st.mode == modeIdle {
			// Lines without hits cannot change and cannot start a state;
			// nor can lines whose only hits are the auth of an Author word.
			for hi < len(hits) && hits[hi].pat == e.r.authLit && authorWord(src, int(hits[hi].end)-4) {
				hi++
			}
			if hi >= len(hits) {
				break
			}
			hs := int(hits[hi].end) - int(e.r.patLens[hits[hi].pat])
			if hs > pos {
				pos += lastNewline(src[pos:hs]) + 1
				from = hs
			}
		}
		le := bytes.IndexByte(src[from:], '\n')
		if le < 0 {
			le = len(src)
		} else {
			le += from
		}
		hj := hi
		for hj < len(hits) && int(hits[hj].end) <= le {
			hj++
		}
		act := e.analyze(src[pos:le], hits[hi:hj], pos, st, false, true)
		switch act {
		case actSpans:
			for _, sp := range e.merged {
				out = append(out, src[emit:pos+sp.start]...)
				out = append(out, e.r.markers[sp.rule]...)
				emit = pos + sp.end
				changed = true
			}
		case actBodyFirst:
			out = append(out, src[emit:pos+e.bodyStart]...)
			out = append(out, e.r.markers[e.r.privateKeyRule]...)
			emit = pos + e.bodyEnd
			changed = true
		case actBodyDrop:
			out = append(out, src[emit:pos]...)
			emit = min(le+1, len(src))
			changed = true
		}
		hi = hj
		pos = le + 1
	}
	if !changed {
		return out, false
	}
	return append(out, src[emit:]...), true
}

// analyze decides what happens to one line: line is its content without the
// newline, hits its literal hits with positions relative to base. atStart
// says line[0] is the real start of the line (false for the later pieces of
// a long line), open that more of the line may follow.
func (e *engine) analyze(line []byte, hits []hit, base int, st *mlState, open, atStart bool) lineAction {
	e.spans = e.spans[:0]
	e.merged = e.merged[:0]
	e.hasPending = false
	e.lastAssignEnd = -1
	e.open = open
	for _, ri := range e.covered {
		e.cover[ri] = 0
	}
	e.covered = e.covered[:0]
	if atStart && st.mode != modeIdle {
		if act, done := e.stateLine(line, st); done {
			return act
		}
	}
	r := e.r
	e.noFooterFrom = -1
	e.apiVersionAt = -2
	for _, h := range hits {
		he := int(h.end) - base
		hs := he - int(r.patLens[h.pat])
		for _, ri := range r.patRules[h.pat] {
			if hs < e.cover[ri] {
				// Inside a span of the same rule: a match here could only be
				// a part of it, and retrying every literal inside a long
				// span would make pathological lines quadratic.
				continue
			}
			cr := &r.rules[ri]
			if cr.shape != nil {
				matchShape(e, line, hs, he, ri, h.pat)
			} else {
				cr.match(e, line, hs, he, ri, h.pat)
			}
		}
	}
	if len(e.spans) > 0 {
		e.dropMarkerOverlaps(line)
	}
	e.merge()
	if e.hasPending && !open && st.mode == modeIdle {
		*st = e.pending
	}
	return actSpans
}

// stateLine handles a line while a multi-line state is open. done means the
// line is fully handled; otherwise normal rules run on it too.
func (e *engine) stateLine(line []byte, st *mlState) (lineAction, bool) {
	switch st.mode {
	case modePEM:
		kind, cs, ce := pemBodyLine(st, line)
		switch kind {
		case pemBody:
			st.body += ce - cs
			if st.started {
				return actBodyDrop, true
			}
			st.started = true
			e.counts[e.r.privateKeyRule]++
			e.bodyStart, e.bodyEnd = cs, ce
			return actBodyFirst, true
		case pemKeep:
			return actSpans, false
		default: // footer or not key material
			*st = mlState{}
		}
	case modePEMBase64:
		c, _, _ := trimSpaceBounds(line)
		if len(c) > 0 && len(c) <= st.width && len(line) <= longLineThreshold && isBase64Run(c) {
			if len(c) < st.width || c[len(c)-1] == '=' {
				*st = mlState{}
			}
			return actBodyDrop, true
		}
		*st = mlState{}
	case modeKubeYAML:
		e.kubeYAMLLine(line, st)
	case modeKubeJSON:
		e.kubeJSONLine(line, st)
	}
	return actSpans, false
}

var markerPrefix = []byte("[REDACTED:")

// dropMarkerOverlaps removes candidate spans that touch a marker already in
// the line, so redacting rac's own output again changes nothing. Only a
// well-formed marker counts: "[REDACTED:" alone must not shield what follows.
func (e *engine) dropMarkerOverlaps(line []byte) {
	for i := 0; ; {
		at := bytes.Index(line[i:], markerPrefix)
		if at < 0 {
			return
		}
		ms := i + at
		id := ms + len(markerPrefix)
		k := id
		// a marker's id is at most maxMarkerID bytes (a rule name, or
		// env: and a variable's name)
		for k < len(line) && k-id < maxMarkerID && markerIDSet[line[k]] {
			k++
		}
		i = k
		if k >= len(line) || line[k] != ']' {
			continue
		}
		me := k + 1
		kept := e.spans[:0]
		for _, s := range e.spans {
			if s.end <= ms || s.start >= me {
				kept = append(kept, s)
			}
		}
		e.spans = kept
	}
}

var markerIDSet = mkset("A-Za-z0-9:._-")

// maxMarkerID bounds the id of a marker dropMarkerOverlaps honours; the
// table's reference expression says the same ({0,99}).
const maxMarkerID = 99

// merge sorts the candidate spans and replaces overlapping ones by their
// union, named after the highest-priority rule among them.
func (e *engine) merge() {
	sp := e.spans
	if len(sp) == 0 {
		return
	}
	if len(sp) > 1 {
		slices.SortFunc(sp, func(a, b span) int { return a.start - b.start })
	}
	rules := e.r.rules
	cur := sp[0]
	for _, s := range sp[1:] {
		if s.start < cur.end {
			if s.end > cur.end {
				cur.end = s.end
			}
			if rules[s.rule].prio > rules[cur.rule].prio {
				cur.rule = s.rule
			}
			continue
		}
		e.merged = append(e.merged, cur)
		cur = s
	}
	e.merged = append(e.merged, cur)
	for _, s := range e.merged {
		e.counts[s.rule]++
	}
}

// uncount undoes merge's count of a span the long-line path does not emit
// (yet): it is counted when it is.
func (e *engine) uncount(s span) { e.counts[s.rule]-- }

type pemLineKind uint8

const (
	pemEnd pemLineKind = iota
	pemBody
	pemKeep
)

// pemBodyLine classifies a line inside a PEM block and returns the bounds of
// its key material.
//
// A body line is key material (base64) that ends the line, before blanks,
// colour codes, a closing quote or comma, or a backslash. What comes before
// it must be one of:
//
//   - the header's prefix, repeated: a diff's +, a comment's #, a colour
//     code, a grep file name, or a log prefix whose digits (timestamps,
//     pids) differ from line to line, which pemPrefixWalk allows;
//   - the start of that prefix, or nothing, then blanks or colour codes:
//     export KEY=" or key: before the header only, indented continuation
//     lines, a grep of a dotenv file (.env:KEY= before the header, .env:
//     before the body).
//
// Anything else ends the block, so a key cut short does not swallow the
// output that follows it.
func pemBodyLine(st *mlState, line []byte) (pemLineKind, int, int) {
	if len(line) > longLineThreshold || bytes.Contains(line, []byte("-----END")) {
		return pemEnd, 0, 0
	}
	ce := pemTail(line)
	bs := ce
	for bs > 0 && b64Pem[line[bs-1]] {
		bs--
	}
	cs := -1 // where the key material starts, when this is a body line
	content := pemSkipBlank(line, 0)
	if st.prefix == "" {
		if content == bs {
			cs = bs
		}
	} else {
		a, full := pemPrefixWalk(line, st.prefix)
		if full {
			content = pemSkipBlank(line, a)
			if content >= bs {
				cs = content
			}
		}
		if cs < 0 && pemSkipBlank(line, min(a, bs)) == bs {
			cs = bs
		}
	}
	if cs >= 0 && cs < ce && st.body+ce-cs <= pemBodyMax {
		return pemBody, cs, ce
	}
	if !st.started {
		// Blank lines and RFC 1421 header fields may precede the body.
		c, _, _ := trimSpaceBounds(line[min(content, len(line)):])
		if len(c) == 0 || isPEMHeaderField(c) {
			return pemKeep, 0, 0
		}
	}
	return pemEnd, 0, 0
}

// pemPrefixWalk matches line against prefix, the bytes before the header on
// its line, where a run of digits in prefix (except a final one, which could
// run into key material) matches any run of digits. It returns how much of
// line matched and whether all of prefix did.
func pemPrefixWalk(line []byte, prefix string) (int, bool) {
	i, j := 0, 0
	for j < len(prefix) {
		if isDigit(prefix[j]) {
			je := j
			for je < len(prefix) && isDigit(prefix[je]) {
				je++
			}
			if je < len(prefix) {
				ie := i
				for ie < len(line) && isDigit(line[ie]) {
					ie++
				}
				if ie == i {
					return i, false
				}
				i, j = ie, je
				continue
			}
		}
		if i >= len(line) || line[i] != prefix[j] {
			return i, false
		}
		i++
		j++
	}
	return i, true
}

// pemSkipBlank steps over blanks and colour codes from k.
func pemSkipBlank(line []byte, k int) int {
	for k < len(line) {
		if isBlank(line[k]) {
			k++
		} else if n := sgrLen(line, k); n > 0 {
			k += n
		} else {
			break
		}
	}
	return k
}

// pemTail returns where the trailer of a PEM line starts: blanks, colour
// codes, closing quotes, commas and backslashes at its end.
func pemTail(line []byte) int {
	j := len(line)
	for j > 0 {
		switch c := line[j-1]; {
		case isBlank(c) || c == '"' || c == '\'' || c == ',' || c == '\\':
			j--
		case c == 'm':
			// A colour code \x1b[...m; m alone is base64.
			k := j - 1
			for k > 0 && (line[k-1] == ';' || isDigit(line[k-1])) {
				k--
			}
			if k < 2 || line[k-1] != '[' || line[k-2] != 0x1b {
				return j
			}
			j = k - 2
		default:
			return j
		}
	}
	return j
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// isPEMHeaderField matches RFC 1421 / OpenPGP armor headers such as
// "Proc-Type: 4,ENCRYPTED" or "Version: GnuPG v2".
func isPEMHeaderField(c []byte) bool {
	i := 0
	for i < len(c) && (isAlnum(c[i]) || c[i] == '-') {
		i++
	}
	return i > 0 && i+1 < len(c) && c[i] == ':' && c[i+1] == ' '
}

func isBase64Run(c []byte) bool {
	for _, b := range c {
		if !b64Pem[b] {
			return false
		}
	}
	return true
}

// trimSpaceBounds trims ASCII blanks (space, tab, CR) and returns the rest
// with the number of bytes trimmed at each end.
func trimSpaceBounds(c []byte) ([]byte, int, int) {
	s := 0
	for s < len(c) && isBlank(c[s]) {
		s++
	}
	t := len(c)
	for t > s && isBlank(c[t-1]) {
		t--
	}
	return c[s:t], s, len(c) - t
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' || b == '\r' }

// lastNewline is bytes.LastIndexByte(b, '\n'), eight bytes at a time: the
// standard one goes byte by byte on every architecture, and region calls it
// for every line with a hit.
func lastNewline(b []byte) int {
	const (
		ones = 0x0101010101010101
		low7 = 0x7f7f7f7f7f7f7f7f
	)
	i := len(b)
	for ; i >= 8; i -= 8 {
		w := binary.LittleEndian.Uint64(b[i-8:]) ^ '\n'*ones
		// The high bit of each byte of z is set where w has a zero byte,
		// exactly: no carry crosses bytes, so the last one can be trusted.
		if z := ^((w&low7 + low7) | w | low7); z != 0 {
			return i - 1 - bits.LeadingZeros64(z)/8
		}
	}
	for i--; i >= 0; i-- {
		if b[i] == '\n' {
			break
		}
	}
	return i
}
