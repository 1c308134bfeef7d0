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
	modeYAMLBlock  // a block scalar under a secret-like name (blocks.go)
	modeJSONValue  // a JSON object whose "Name" is secret-like
	modeTFResource // a Terraform random_password resource
)

// mlState is the state that crosses lines. It is a plain value so a region's
// end state can be handed from a worker to the committer.
type mlState struct {
	mode mlMode
	// PEM: bytes before the header on its line, repeated by body lines
	// unless they are only indentation; whether the marker is out; body size.
	prefix  string
	started bool
	body    int  // also: YAML block scalar bytes
	width   int  // base64 PEM: the wrap width of the encoded key
	quote   byte // PEM in string literals: the quote around each body line
	lines   int  // PuTTY: body lines still to come (0: no count); blocks.go: lines seen
	sgrOpen bool // PEM: a colour may be on after the last line written
	// Kubernetes data blocks.
	stringData  bool
	keyCol      int // column of the data: key (or of the JSON quote)
	entryIndent int // -1 until the first entry
	scalar      bool
	// blocks.go: the rule whose marker the values get (keyCol is the
	// column of the name, or of the resource keyword).
	rule int32
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
	// actBodyLong: a body line longer than longLineThreshold. Its key
	// material [bodyStart, bodyEnd) becomes the marker on the first body
	// line and goes without one on later lines; the rest of the line is
	// redacted as a piece of its own (e.merged) and the newline stays, as
	// the long-line path, which cannot take back what it emitted, must do.
	actBodyLong
	actWait // the long-line path must hold more before it can decide
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
	// counted: a count changed since counts were last taken (addCounts,
	// a region's counts), so taking them can skip the walk over every rule
	counted bool

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
	bodyMarker    bool // actBodyLong: the key material becomes the marker
	// pemOpenAt is where a PEM header starts whose key may follow on later
	// lines, when the line is still open: the long-line path keeps it.
	pemOpenAt int

	// Lines holding ESC are analyzed through their terminal view (ansi.go).
	tv      termView
	vhits   []hit  // hits in a view or control-string payload
	pspans  []span // payload spans, raw offsets
	rspans  []span // spans of the last analyzeRaw, raw offsets; rule -1: no marker
	lineOut []byte

	names nameCache
	lines *lineCache // nil until region first uses it

	// dropped is the newlines the last region dropped with a key's body
	// lines: its output holds the newlines of its input less these, so a
	// changed region's output is written with a count (changedNL), and
	// the store does not count every byte again.
	dropped int
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
//
//nolint:funlen // the per-line loop of every write, one pass over hits and lines; split with assign's and assignSeparated's (emitLine, assignOperator, assignColumn: still over 60) it measured slower on 10 of 11 BenchmarkWriter/WriterShapes cases, median of 7 alternating runs +1% to +12% ns/op (gotestv +10%, JSONlogs +4%)
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
	var lc *lineCache
	if e.mini == nil && len(src) >= lineCacheFrom && !e.r.noLineCache {
		if e.lines == nil {
			e.lines = newLineCache()
		}
		lc = e.lines
	}
	emit := 0
	changed := false
	hi := 0
	pos := 0
	e.dropped = 0
	// A line holding ESC is redacted through its terminal view, whether or
	// not its raw bytes hold a hit: a colour code can split a literal. Text
	// without ESC pays one IndexByte per region for this.
	escAt := len(src)
	if i := bytes.IndexByte(src, escByte); i >= 0 {
		escAt = i
	}
	for pos < len(src) {
		from := pos // the line's newline is the first at or after from
		if escAt < pos {
			escAt = nextESC(src, pos)
		}
		if st.mode == modeIdle {
			// Lines without hits cannot change and cannot start a state;
			// nor can lines whose only hits are quiet (quietRun).
			hi += e.quietRun(src, hits[hi:])
			next := escAt
			if hi < len(hits) {
				next = min(next, int(hits[hi].end)-int(e.r.patLens[hits[hi].pat]))
			}
			if next >= len(src) {
				break
			}
			if next > pos {
				// The line of the next hit starts after the last newline
				// before it. Where hits are dense, pos is that line's
				// start already: over a long stretch, one vector search
				// forward that finds no newline says so, where the walk
				// back from the hit would cross all of it (a JSON log
				// line's 200 bytes before its first hit, a twelfth of its
				// redaction); over a short one the walk back is cheaper.
				if next-pos < lineStartSearch {
					pos += lastNewline(src[pos:next]) + 1
				} else if i := bytes.IndexByte(src[pos:next], '\n'); i >= 0 {
					p := pos + i + 1
					pos = p + lastNewline(src[p:next]) + 1
				}
				from = next
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
		if escAt < le {
			if res, ok, drop := e.termLine(src[pos:le], st); ok {
				out = append(out, src[emit:pos]...)
				out = append(out, res...)
				emit = le
				if drop && le < len(src) {
					emit = le + 1
					e.dropped++
				}
				changed = true
			}
			hi = hj
			pos = le + 1
			continue
		}
		var slot *lineCacheSlot
		var tag uint16
		if lc != nil && st.mode == modeIdle && le-pos <= lineCacheMax {
			if slot, tag = lc.slot(src[pos:le]); lc.has(slot, src[pos:le]) {
				hi = hj
				pos = le + 1
				continue
			}
		}
		act := e.analyze(src[pos:le], hits[hi:hj], pos, st, false, true)
		if slot != nil && act == actSpans && len(e.merged) == 0 && !e.hasPending {
			lc.keep(slot, tag, src[pos:le])
		}
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
			emit = le
			if le < len(src) {
				emit = le + 1
				e.dropped++
			}
			changed = true
		case actBodyLong:
			e.pspans = e.pspans[:0]
			e.rawSpans(act, nil, nil)
			out = append(out, src[emit:pos]...)
			out = e.emitRange(out, src[pos:le], 0, le-pos, nil)
			emit = le
			changed = true
		}
		hi = hj
		pos = le + 1
	}
	if cap(e.tv.at) > viewKeep {
		e.tv = termView{} // one huge coloured line must not pin its view
	}
	if !changed {
		return out, false
	}
	return append(out, src[emit:]...), true
}

// lineStartSearch is the stretch before a hit from which region looks
// for the hit's line start forward first.
const lineStartSearch = 64

// viewKeep bounds the view buffers an engine keeps between regions.
const viewKeep = 1 << 20

// nextESC is the index of the first ESC in src at or after pos, or len(src).
func nextESC(src []byte, pos int) int {
	if i := bytes.IndexByte(src[pos:], escByte); i >= 0 {
		return pos + i
	}
	return len(src)
}

// termLine redacts one whole line that holds ESC. It returns the redacted
// line (valid until the next call), whether it differs from line, and
// whether the line's newline goes too (a dropped key body line).
func (e *engine) termLine(line []byte, st *mlState) ([]byte, bool, bool) {
	sgrOpen := st.sgrOpen
	act, v := e.analyzeRaw(line, st, false, true)
	if st.mode == modePEM {
		st.sgrOpen = v.sgrOpenAfter(sgrOpen)
	}
	out := e.lineOut[:0]
	if act == actBodyDrop {
		if v.droppable(sgrOpen) {
			st.sgrOpen = sgrOpen
		} else {
			for _, s := range v.seqs {
				out = e.copyRaw(out, line, s.start, s.end)
			}
		}
		e.lineOut = out
		return out, true, true
	}
	if len(e.rspans) == 0 && len(e.pspans) == 0 {
		return nil, false, false
	}
	out = e.emitRange(out, line, 0, len(line), v)
	e.lineOut = out
	return out, true, false
}

// analyzeRaw analyzes line, through its terminal view when it holds ESC
// (v, else nil), and leaves the spans to replace in e.rspans and the
// control-string payload spans in e.pspans, both in raw offsets.
func (e *engine) analyzeRaw(line []byte, st *mlState, open, atStart bool) (lineAction, *termView) {
	e.pspans = e.pspans[:0]
	var v *termView
	text := line
	if bytes.IndexByte(line, escByte) >= 0 {
		v = &e.tv
		v.build(line, open)
		e.payloadSpans(line, v)
		text = v.text
	}
	hits := e.r.auto().scan(text, e.vhits[:0])
	e.vhits = hits
	act := e.analyze(text, hits, 0, st, open, atStart)
	e.rawSpans(act, v, line)
	return act, v
}

// payloadSpans redacts the payload of every control string of line as a
// line of its own. The spans are counted when they are written (copyRaw).
func (e *engine) payloadSpans(line []byte, v *termView) {
	for _, s := range v.seqs {
		if s.kind != seqString || s.pe <= s.ps {
			continue
		}
		p := line[s.ps:s.pe]
		hits := e.r.auto().scan(p, e.vhits[:0])
		e.vhits = hits
		if len(hits) == 0 {
			continue
		}
		var pst mlState // a title or a link starts no multi-line state
		e.analyze(p, hits, 0, &pst, false, true)
		for _, sp := range e.merged {
			e.uncount(sp)
			e.pspans = append(e.pspans, span{start: s.ps + sp.start, end: s.ps + sp.end, rule: sp.rule})
		}
	}
}

// rawSpans turns the result of analyze into e.rspans, mapped through v
// when there is one.
func (e *engine) rawSpans(act lineAction, v *termView, line []byte) {
	e.rspans = e.rspans[:0]
	switch act {
	case actBodyFirst:
		e.addRawSpan(v, line, e.bodyStart, e.bodyEnd, e.r.privateKeyRule)
	case actBodyLong:
		rule := int32(-1)
		if e.bodyMarker {
			rule = e.r.privateKeyRule
		}
		e.addRawSpan(v, line, e.bodyStart, e.bodyEnd, rule)
		fallthrough
	case actSpans:
		for _, sp := range e.merged {
			e.addRawSpan(v, line, sp.start, sp.end, sp.rule)
		}
	}
}

func (e *engine) addRawSpan(v *termView, line []byte, s, t int, rule int32) {
	if v != nil {
		s, t = int(v.at[s]), v.rawEnd(line, t)
	}
	e.rspans = append(e.rspans, span{start: s, end: t, rule: rule})
}

// emitRange appends line[from:to] to out with the spans of e.rspans
// replaced: a span's printable bytes become its marker, written where the
// first of them was, and the escape sequences inside it are kept, so a
// colour that starts or ends inside a secret still does.
func (e *engine) emitRange(out, line []byte, from, to int, v *termView) []byte {
	emit := from
	for _, sp := range e.rspans {
		if sp.end <= from || sp.start >= to {
			continue
		}
		s := max(sp.start, emit)
		out = e.copyRaw(out, line, emit, s)
		if sp.rule >= 0 {
			out = append(out, e.r.markers[sp.rule]...)
		}
		if v != nil {
			for k := v.seqFrom(s); k < len(v.seqs) && v.seqs[k].start < sp.end; k++ {
				if q := v.seqs[k]; q.start >= s && q.end <= sp.end {
					out = e.copyRaw(out, line, q.start, q.end)
				}
			}
		}
		emit = max(emit, sp.end)
	}
	return e.copyRaw(out, line, emit, to)
}

// copyRaw appends line[a:b] with the payload spans inside it replaced.
func (e *engine) copyRaw(out, line []byte, a, b int) []byte {
	if a >= b {
		return out
	}
	for _, p := range e.pspans {
		if p.start < a || p.end > b {
			continue
		}
		out = append(out, line[a:p.start]...)
		out = append(out, e.r.markers[p.rule]...)
		e.counts[p.rule]++
		e.counted = true
		a = p.end
	}
	return append(out, line[a:b]...)
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
	e.pemOpenAt = -1
	for _, ri := range e.covered {
		e.cover[ri] = 0
	}
	e.covered = e.covered[:0]
	if atStart && st.mode != modeIdle {
		if act, done := e.stateLine(line, st); done {
			if act == actBodyLong && e.bodyEnd < len(line) {
				// What follows the key material is a piece of its own.
				e.runRules(line[e.bodyEnd:], hits, base+e.bodyEnd)
				for i := range e.merged {
					e.merged[i].start += e.bodyEnd
					e.merged[i].end += e.bodyEnd
				}
			}
			return act
		}
	}
	e.runRules(line, hits, base)
	if e.hasPending && !open && st.mode == modeIdle {
		*st = e.pending
	}
	return actSpans
}

// runRules verifies the hits of line and merges their spans into e.merged.
// A hit that starts before line (a piece of a longer line) is skipped.
func (e *engine) runRules(line []byte, hits []hit, base int) {
	r := e.r
	e.noFooterFrom = -1
	e.apiVersionAt = -2
	for _, h := range hits {
		he := int(h.end) - base
		hs := he - int(r.patLens[h.pat])
		if hs < 0 {
			continue
		}
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
}

// notePEMOpen records a PEM header on a line that is still open.
func (e *engine) notePEMOpen(hs int) {
	if e.pemOpenAt < 0 || hs < e.pemOpenAt {
		e.pemOpenAt = hs
	}
}

// stateLine handles a line while a multi-line state is open. done means the
// line is fully handled; otherwise normal rules run on it too.
func (e *engine) stateLine(line []byte, st *mlState) (lineAction, bool) {
	switch st.mode {
	case modePEM:
		kind, cs, ce := pemBodyLine(st, line, e.open)
		switch kind {
		case pemBody:
			st.body += ce - cs
			act := actBodyDrop
			if !st.started {
				st.started = true
				e.counts[e.r.privateKeyRule]++
				e.counted = true
				e.bodyStart, e.bodyEnd = cs, ce
				act = actBodyFirst
			}
			pemLineDone(st)
			return act, true
		case pemLongBody:
			e.bodyMarker = !st.started
			if !st.started {
				st.started = true
				e.counts[e.r.privateKeyRule]++
				e.counted = true
			}
			st.body += ce - cs
			e.bodyStart, e.bodyEnd = cs, ce
			if !e.open {
				// The long-line path does this when the line ends.
				pemLongLineDone(st)
			}
			return actBodyLong, true
		case pemWait:
			return actWait, true
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
	case modeYAMLBlock:
		return e.yamlBlockLine(line, st)
	case modeJSONValue:
		e.jsonValueLine(line, st)
	case modeTFResource:
		e.tfResourceLine(line, st)
	}
	return actSpans, false
}

// pemLineDone counts a body line against a PuTTY key's line count.
func pemLineDone(st *mlState) {
	if st.lines > 0 {
		st.lines--
		if st.lines == 0 {
			*st = mlState{}
		}
	}
}

// pemLongLineDone ends a long body line: past pemBodyMax the block is over
// (its key material was redacted all the same).
func pemLongLineDone(st *mlState) {
	if st.body > pemBodyMax {
		*st = mlState{}
		return
	}
	pemLineDone(st)
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
	e.counted = e.counted || len(e.merged) > 0
}

// uncount undoes merge's count of a span the long-line path does not emit
// (yet): it is counted when it is.
func (e *engine) uncount(s span) { e.counts[s.rule]--; e.counted = true }

type pemLineKind uint8

const (
	pemEnd pemLineKind = iota
	pemBody
	pemKeep
	pemLongBody // key material that runs past longLineThreshold
	pemWait     // an open line too short to tell
)

// pemBodyLine classifies a line inside a PEM block and returns the bounds of
// its key material. open says the line is a held piece of a long line whose
// end has not come yet.
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
// In a string-literal block (the header was "-----BEGIN ...-----\n" in
// source code) a body line is one literal per line instead: see
// pemLiteralLine.
//
// A line longer than longLineThreshold is decided on its first
// longLineThreshold bytes, which is all the long-line path may hold before
// it has to emit: it is key material when the base64 run that reaches that
// far starts where a body line's would. The run is the key material,
// however long; what follows it is redacted as a piece of its own. So a
// long line never turns block detection off, and the pipe and the long-line
// path agree on it.
//
// Anything else ends the block, so a key cut short does not swallow the
// output that follows it.
func pemBodyLine(st *mlState, line []byte, open bool) (pemLineKind, int, int) {
	const lim = longLineThreshold
	if open && len(line) <= lim {
		return pemWait, 0, 0
	}
	if bytes.Contains(line[:min(len(line), lim)], []byte("-----END")) {
		return pemEnd, 0, 0
	}
	long := len(line) > lim
	var bs, ce int
	switch {
	case long:
		if !b64Pem[line[lim-1]] {
			return pemEnd, 0, 0
		}
		bs, ce = lim-1, lim
		for bs > 0 && b64Pem[line[bs-1]] {
			bs--
		}
		for ce < len(line) && b64Pem[line[ce]] {
			ce++
		}
		if st.quote != 0 {
			if q := pemLiteralOpen(st, line); q >= 0 && q+1 == bs {
				return pemLongBody, bs, ce
			}
			return pemEnd, 0, 0
		}
	case st.quote != 0:
		return pemLiteralLine(st, line)
	default:
		ce = pemTail(line)
		bs = ce
		for bs > 0 && b64Pem[line[bs-1]] {
			bs--
		}
	}
	cs, content := pemMaterialStart(st, line, bs)
	if long {
		if cs >= 0 && cs < ce {
			return pemLongBody, cs, ce
		}
		return pemEnd, 0, 0
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

// pemMaterialStart returns where the key material of a body line starts
// (-1 when the line is not one) and where its content starts after the
// header's prefix and blanks. bs is where the line's last base64 run
// starts: the material starts there, or at the content when that is
// inside the run.
func pemMaterialStart(st *mlState, line []byte, bs int) (cs, content int) {
	cs = -1
	content = pemSkipBlank(line, 0)
	if st.prefix == "" {
		if content == bs {
			cs = bs
		}
		return cs, content
	}
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
	return cs, content
}

// pemLiteralLine classifies a line of a key written as string literals, one
// per line: "MIIEow...\n" +, "MIIE..." \ or "MIIE...", after the start of
// the header's prefix (or none) and blanks. The key material is the base64
// between the quotes.
func pemLiteralLine(st *mlState, line []byte) (pemLineKind, int, int) {
	if q := pemLiteralOpen(st, line); q >= 0 {
		cs := q + 1
		ce := runOf(line, cs, &b64Pem)
		if ce > cs && literalClose(line, ce, st.quote) && st.body+ce-cs <= pemBodyMax {
			return pemBody, cs, ce
		}
		if !st.started && (literalClose(line, cs, st.quote) || isPEMHeaderField(line[cs:])) {
			return pemKeep, 0, 0 // "\n" or "Proc-Type: 4,ENCRYPTED\n"
		}
	}
	if c, _, _ := trimSpaceBounds(line); !st.started && len(c) == 0 {
		return pemKeep, 0, 0
	}
	return pemEnd, 0, 0
}

// pemLiteralOpen returns the index of the opening quote of a literal body
// line, or -1.
func pemLiteralOpen(st *mlState, line []byte) int {
	a, _ := pemPrefixWalk(line, st.prefix)
	k := pemSkipBlank(line, a)
	if k < len(line) && line[k] == st.quote {
		return k
	}
	if k = pemSkipBlank(line, 0); k < len(line) && line[k] == st.quote {
		return k
	}
	return -1
}

// literalClose accepts, from j, \n or \r escapes (escaped any number of
// times), the closing quote q and literalEnd.
func literalClose(line []byte, j int, q byte) bool {
	for j < len(line) && line[j] == '\\' {
		k := j + 1
		for k < len(line) && line[k] == '\\' {
			k++
		}
		if k >= len(line) || (line[k] != 'n' && line[k] != 'r') {
			break
		}
		j = k + 1
	}
	return j < len(line) && line[j] == q && literalEnd(line, j+1)
}

// literalEnd accepts what may follow a string literal that a multi-line
// one continues: blanks, then at most one of + (Go, Java, JavaScript), .
// (PHP), a comma (an array of lines) or a backslash (a C macro), then
// blanks.
func literalEnd(line []byte, j int) bool {
	j = pemSkipBlank(line, j)
	if j < len(line) && (line[j] == '+' || line[j] == '.' || line[j] == ',' || line[j] == '\\') {
		j = pemSkipBlank(line, j+1)
	}
	return j == len(line)
}

// ppkRule is the PuTTY private-key rule: "Private-Lines: N" starts the body
// state for the N base64 lines that follow (Public-Lines: and the MAC stay).
func ppkRule() rule {
	return rule{id: "private-key", prio: prioPrivateKey, literals: []string{"private-lines:"}, match: matchPPKPrivateLines}
}

// matchPPKPrivateLines starts the body state of a PuTTY key (.ppk) at its
// "Private-Lines: N" line. Whatever precedes it is a prefix the body lines
// may repeat, as with a PEM header.
func matchPPKPrivateLines(e *engine, line []byte, hs, he int, _, _ int32) {
	if !hasAt(line, hs, "Private-Lines:") {
		return
	}
	k := pemSkipBlank(line, he)
	n, d := 0, k
	for d < len(line) && isDigit(line[d]) && d-k < 6 {
		n = n*10 + int(line[d]-'0')
		d++
	}
	if d == k || n == 0 || pemSkipBlank(line, d) != len(line) {
		return
	}
	if e.open {
		e.notePEMOpen(hs)
		return
	}
	e.setPending(mlState{mode: modePEM, prefix: pemStatePrefix(line[:hs]), lines: n})
}

// pemStatePrefix is what body lines may repeat of the bytes before a
// header: nothing when they are only indentation or too long to keep.
func pemStatePrefix(prefix []byte) string {
	if len(bytes.TrimLeft(prefix, " \t")) == 0 || len(prefix) > pemPrefixMax {
		return ""
	}
	return string(prefix)
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
