package redact

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// WriterOptions tunes a Writer; the zero value is the default.
type WriterOptions struct {
	// Workers is the number of goroutines redacting regions in parallel.
	// 0 means min(GOMAXPROCS, 4); 1 redacts on the caller's goroutine, so
	// everything up to the last newline has reached dst when Write returns.
	Workers int
	// RegionSize is the target size of the line-aligned regions handed to
	// workers (default 256 KiB). Tests make it small to cross boundaries.
	RegionSize int
}

const defaultRegionSize = 256 << 10

// Writer redacts one stream on its way to dst. Its methods must be called
// from one goroutine, except Counts, which may be called at any time.
//
// With more than one worker, redacted lines reach dst from a goroutine of the
// Writer shortly after Write returns; Flush waits for them, and until Close
// returns nothing else may write to dst without calling Flush first. An error
// of dst or of redaction is returned by the next Write, Flush or Close. Close
// must be called: it flushes the held partial line and stops the goroutines.
type Writer struct {
	r          *Redactor
	seq        *sequencer
	regionSize int
	workers    int

	carry   []byte // partial last line, at most longLineThreshold bytes
	inLong  bool   // the current line went to the long-line path
	scratch []byte // sync mode: carry + new lines
	closed  bool

	started bool
	order   chan *region // every unit, in stream order, to the committer
	jobs    chan *region // line regions, to the workers
	free    chan *region
	wg      sync.WaitGroup
}

type regionKind uint8

const (
	regLines regionKind = iota
	regLong
	regBarrier
	// regInline: a few lines the committer redacts itself, with the true
	// state, where a worker's wake-up would cost more than they do
	regInline
)

type region struct {
	kind    regionKind
	final   bool     // regLong: the line ends in this chunk
	data    []byte   // what the region redacts: buf, or a piece of a caller's buffer (own)
	buf     []byte   // the region's own copy of what it redacts
	own     *handoff // the caller's buffer data lies in (WriteOwned); nil: data is buf
	nl      int64    // regLines: the newlines of data, counted by the caller (-1: not counted)
	out     []byte
	changed bool
	dropped int // the newlines of data that out lacks (engine.dropped)
	end     mlState
	counts  []ruleCount
	err     error
	ready   chan struct{}
}

type ruleCount struct {
	rule  int32
	count int
}

// NewWriter returns a Writer redacting into dst with the default options.
func (r *Redactor) NewWriter(dst io.Writer) *Writer {
	return r.NewWriterOptions(dst, WriterOptions{})
}

// NewWriterOptions returns a Writer redacting into dst.
func (r *Redactor) NewWriterOptions(dst io.Writer, opt WriterOptions) *Writer {
	workers := opt.Workers
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), 4)
	}
	size := opt.RegionSize
	if size <= 0 {
		size = defaultRegionSize
	}
	return &Writer{
		r:          r,
		seq:        newSequencer(r, dst),
		regionSize: size,
		workers:    workers,
	}
}

var errClosed = errors.New("redact: write to closed Writer")

// Write redacts p. Complete lines go on to dst (at once with one worker,
// shortly after with more); the partial last line is held until its newline
// or Close. It returns len(p) on success and blocks while the workers are
// behind.
func (w *Writer) Write(p []byte) (int, error) {
	n, _, err := w.write(p, -1, nil)
	return n, err
}

// WriteCounted is Write for a caller that has counted the newlines in p
// (nl) already, as rac's pump has: the lines redaction leaves unchanged go
// on to a dst that takes counted writes (the store's sink) with their
// count, so that it need not count them again.
func (w *Writer) WriteCounted(p []byte, nl int64) (int, error) {
	n, _, err := w.write(p, nl, nil)
	return n, err
}

// WriteOwned is Write for a caller that hands p over instead of lending
// it (rac's stage, whose read buffers circulate): the workers redact the
// lines of p where they lie, and the unchanged ones go to dst from there,
// where Write copies every byte into a region first. It calls done once
// nothing reads p any more, from the Writer's goroutine or before it
// returns; until then the caller must not touch p. It returns the
// newlines of p, counted as it cuts p into regions, even with an error:
// the caller's count of what it received, which it need not count again.
//
// The piece of a line held from an earlier write and the first line of p
// that completes it are copied into a region of their own, as is a p
// shorter than handoffMin (copying it costs less than the region it would
// add) and a line longer than longLineThreshold.
func (w *Writer) WriteOwned(p []byte, done func()) (int64, error) {
	h := &handoff{done: done}
	h.refs.Store(1)
	_, nl, err := w.write(p, -1, h)
	h.release()
	return nl, err
}

// handoffMin is the smallest write whose lines WriteOwned redacts where
// they lie.
const handoffMin = 64 << 10

// handoff is a caller's buffer that regions read where it lies: refs is
// the regions still reading it, and one for WriteOwned while it cuts p;
// the last to let go calls done.
type handoff struct {
	refs atomic.Int32
	done func()
}

func (h *handoff) hold() { h.refs.Add(1) }

func (h *handoff) release() {
	if h.refs.Add(-1) == 0 {
		h.done()
	}
}

// countedWriter is a dst that takes bytes with their newlines counted.
type countedWriter interface {
	WriteCounted(p []byte, nl int64) (int, error)
}

// write is Write, with nl the newlines of p or -1. With h (WriteOwned) it
// counts the newlines of p and returns them as total, and regions may
// read p where it lies.
func (w *Writer) write(p []byte, nl int64, h *handoff) (n int, total int64, err error) {
	if w.closed {
		err = errClosed
	} else {
		err = w.seq.error()
	}
	if err != nil {
		if h != nil {
			total = int64(bytes.Count(p, []byte{'\n'}))
		}
		return 0, total, err
	}
	if h != nil && len(p) < handoffMin {
		h = nil // copied as by Write; counted here, for the caller
		nl = int64(bytes.Count(p, []byte{'\n'}))
		total = nl
	}
	n = len(p)
	for len(p) > 0 {
		if w.inLong {
			var final bool
			if p, final = w.longStep(p); final {
				if nl > 0 {
					nl-- // the long line's newline
				}
				if h != nil {
					total++
				}
			}
			continue
		}
		lim := min(len(p), w.regionSize)
		if i := bytes.LastIndexByte(p[:lim], '\n'); i >= 0 {
			// nl is what is left of p's newlines: all in p[:i+1] when the
			// rest of p goes in whole (the held partial line has none);
			// a region cut from a longer p is counted here, so that the
			// last one needs no count.
			cnt := nl
			switch {
			case h != nil:
				// WriteOwned: every region is counted, once, here
				cnt = int64(bytes.Count(p[:i+1], []byte{'\n'}))
				total += cnt
			case cnt >= 0 && lim < len(p):
				cnt = int64(bytes.Count(p[:i+1], []byte{'\n'}))
				nl -= cnt
			}
			w.submitLines(p[:i+1], cnt, h)
			p = p[i+1:]
			continue
		}
		w.carry = append(w.carry, p[:lim]...)
		p = p[lim:]
		if len(w.carry) > longLineThreshold {
			w.submitLong(w.carry, false)
			w.carry = w.carry[:0]
			w.inLong = true
		}
	}
	if err := w.seq.error(); err != nil {
		return 0, total, err
	}
	return n, total, nil
}

// longStep hands the next piece of a long line from p to redaction and
// returns the rest of p; final says the line ended in the piece.
func (w *Writer) longStep(p []byte) (rest []byte, final bool) {
	end := len(p)
	if i := bytes.IndexByte(p, '\n'); i >= 0 {
		end, final = i+1, true
	}
	if end > w.regionSize {
		end, final = w.regionSize, false
	}
	w.submitLong(p[:end], final)
	if final {
		w.inLong = false
	}
	return p[end:], final
}

// Flush waits until everything written so far, except the held partial
// line, has been redacted and written to dst.
func (w *Writer) Flush() error {
	if w.started && !w.closed {
		reg := &region{kind: regBarrier, ready: make(chan struct{})}
		w.order <- reg
		<-reg.ready
	}
	return w.seq.error()
}

// Close redacts and writes the held partial line, waits for the workers and
// stops them. It does not close dst.
func (w *Writer) Close() error {
	if w.closed {
		return w.seq.error()
	}
	if w.inLong {
		w.submitLong(nil, true)
		w.inLong = false
	} else if len(w.carry) > 0 {
		w.submitLines(nil, 0, nil)
	}
	w.closed = true
	if w.started {
		close(w.order)
		close(w.jobs)
		w.wg.Wait()
	}
	return w.seq.error()
}

// settled reports whether everything written so far has been redacted,
// ends at a line's end, and left the multi-line state as a new Writer
// has it: the sequencer's state is the only thing one line's redaction
// hands the next (the line cache and the prefilter change speed, never
// output). Only a Writer with one worker has redacted all it was given
// when Write returns.
func (w *Writer) settled() bool {
	s := w.seq
	return w.workers <= 1 && !w.closed && len(w.carry) == 0 && !w.inLong &&
		!s.long.active && s.st == (mlState{}) && !s.failed()
}

// Counts returns the redactions made so far per rule id ("env:NAME" for
// environment values). With several workers, call Flush or Close first for
// a count that includes everything written.
func (w *Writer) Counts() map[string]int {
	return w.seq.countsCopy()
}

// submitLines hands carry+lines, whole lines, to redaction; nl is the
// newlines of lines, or -1. With h, lines lies in a buffer handed over
// (WriteOwned) and ends in a newline.
func (w *Writer) submitLines(lines []byte, nl int64, h *handoff) {
	if w.workers <= 1 {
		if len(w.carry) > 0 {
			// Complete the held line in scratch; the rest needs no copy.
			i := bytes.IndexByte(lines, '\n') + 1
			w.scratch = append(append(w.scratch[:0], w.carry...), lines[:i]...)
			w.carry = w.carry[:0]
			first := int64(-1)
			if i > 0 {
				first = 1
				if nl > 0 {
					nl--
				}
			}
			w.seq.lines(w.scratch, first)
			lines = lines[i:]
		}
		if len(lines) > 0 {
			w.seq.lines(lines, nl)
		}
		return
	}
	if h != nil {
		if len(w.carry) > 0 {
			// The held piece and the line it ends: a region of its own,
			// which the committer redacts (a read ends inside a line, so
			// every write has one).
			i := bytes.IndexByte(lines, '\n') + 1
			reg := w.newRegion(regInline)
			reg.nl = 1
			reg.buf = append(append(reg.buf[:0], w.carry...), lines[:i]...)
			reg.data = reg.buf
			w.carry = w.carry[:0]
			w.dispatch(reg)
			lines = lines[i:]
			nl--
		}
		if len(lines) > 0 {
			reg := w.newRegion(regLines)
			reg.nl = nl
			reg.data = lines
			reg.own = h
			h.hold() // before the committer can let go of it
			w.dispatch(reg)
		}
		return
	}
	reg := w.newRegion(regLines)
	reg.nl = nl
	reg.buf = append(append(reg.buf[:0], w.carry...), lines...)
	reg.data = reg.buf
	w.carry = w.carry[:0]
	w.dispatch(reg)
}

func (w *Writer) submitLong(chunk []byte, final bool) {
	if w.workers <= 1 {
		w.seq.longPart(chunk, final)
		return
	}
	reg := w.newRegion(regLong)
	reg.final = final
	reg.buf = append(reg.buf[:0], chunk...)
	reg.data = reg.buf
	w.dispatch(reg)
}

func (w *Writer) newRegion(kind regionKind) *region {
	var reg *region
	select {
	case reg = <-w.free:
	default:
		reg = &region{}
	}
	reg.kind = kind
	reg.final = false
	reg.changed = false
	reg.err = nil
	reg.end = mlState{}
	reg.counts = reg.counts[:0]
	reg.ready = make(chan struct{})
	return reg
}

// dispatch queues a unit in stream order; the send blocks when the
// committer is maxInFlight units behind, which is the backpressure.
func (w *Writer) dispatch(reg *region) {
	if !w.started {
		w.start()
	}
	w.order <- reg
	if reg.kind == regLines {
		w.jobs <- reg
	}
}

func (w *Writer) start() {
	w.started = true
	inFlight := 2*w.workers + 2
	w.order = make(chan *region, inFlight)
	w.jobs = make(chan *region, inFlight)
	w.free = make(chan *region, inFlight+2)
	w.wg.Add(w.workers + 1)
	for range w.workers {
		go w.work()
	}
	go w.commit()
}

// work redacts line regions speculatively, as if no multi-line state were
// open at their start; the committer checks that assumption.
func (w *Writer) work() {
	defer w.wg.Done()
	e := newEngine(w.r)
	for reg := range w.jobs {
		w.redactRegion(e, reg)
	}
}

func (w *Writer) redactRegion(e *engine, reg *region) {
	defer close(reg.ready)
	defer func() {
		if p := recover(); p != nil {
			reg.err = fmt.Errorf("%w: %v", ErrRedactorFailed, p)
			clear(e.counts)
		}
	}()
	if w.r.testHook != nil {
		w.r.testHook(reg.data)
	}
	var st mlState
	reg.out, reg.changed = e.region(reg.out[:0], reg.data, &st)
	reg.end, reg.dropped = st, e.dropped
	if !e.counted {
		return
	}
	e.counted = false
	for i, c := range e.counts {
		if c != 0 {
			reg.counts = append(reg.counts, ruleCount{int32(i), c})
			e.counts[i] = 0
		}
	}
}

// commit writes units to dst in stream order.
func (w *Writer) commit() {
	defer w.wg.Done()
	s := w.seq
	for reg := range w.order {
		switch reg.kind {
		case regBarrier:
			close(reg.ready)
			continue
		case regLines:
			<-reg.ready
			s.accept(reg)
		case regLong:
			s.longPart(reg.data, reg.final)
		case regInline:
			s.lines(reg.data, reg.nl)
		}
		reg.data = nil
		if reg.own != nil {
			// Written: nothing reads the caller's buffer through reg now.
			reg.own.release()
			reg.own = nil
		}
		if cap(reg.buf) > 4*w.regionSize {
			reg.buf = nil
		}
		if cap(reg.out) > 4*w.regionSize {
			reg.out = nil
		}
		select {
		case w.free <- reg:
		default:
		}
	}
}

// sequencer owns everything that depends on stream order: the multi-line
// state, the long-line buffer, dst, the counts and the sticky error.
type sequencer struct {
	r    *Redactor
	dst  io.Writer
	e    *engine
	st   mlState
	long longLine
	out  []byte

	wrote bool
	last  byte

	mu     sync.Mutex
	counts map[string]int
	err    error
}

type longLine struct {
	active  bool
	buf     []byte
	ctx     int  // buf[:ctx] was emitted already and is kept as left context
	atStart bool // buf[0] is the first byte of the line
	tried   int  // len(buf) at the last attempt to emit
	cont    bool // dropping the rest of a span forced out at longLineMax
	after   mlState
	// body: the line is a private key's body line (actBodyLong); its state
	// is settled when it ends. b64: its base64 run reached the end of what
	// is held, and the rest of the run goes as it comes.
	body, b64 bool
	// pemForced: a header whose key may follow on the next lines was
	// emitted by force at longLineMax, with only blanks after it so far.
	pemForced bool
}

func newSequencer(r *Redactor, dst io.Writer) *sequencer {
	return &sequencer{r: r, dst: dst, e: newEngine(r), counts: map[string]int{}}
}

func (s *sequencer) error() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *sequencer) failed() bool { return s.error() != nil }

func (s *sequencer) countsCopy() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]int, len(s.counts))
	for k, v := range s.counts {
		m[k] = v
	}
	return m
}

func (s *sequencer) addCounts(e *engine) {
	if !e.counted {
		return // nothing redacted since the last call: no walk over every rule
	}
	e.counted = false
	s.mu.Lock()
	for i, c := range e.counts {
		if c != 0 {
			s.counts[s.r.rules[i].id] += c
			e.counts[i] = 0
		}
	}
	s.mu.Unlock()
}

// fail stops the stream: one marker line, then nothing more reaches dst.
func (s *sequencer) fail(err error) {
	s.mu.Lock()
	already := s.err != nil
	if !already {
		s.err = err
	}
	s.mu.Unlock()
	if already {
		return
	}
	marker := "[REDACTED:redactor-failed]\n"
	if s.wrote && s.last != '\n' {
		marker = "\n" + marker
	}
	_, _ = io.WriteString(s.dst, marker)
}

func (s *sequencer) write(p []byte) { s.writeCounted(p, -1) }

// writeCounted writes p, which holds nl newlines (-1: not counted), with
// its count where dst takes one.
func (s *sequencer) writeCounted(p []byte, nl int64) {
	if len(p) == 0 {
		return
	}
	var n int
	var err error
	if cw, ok := s.dst.(countedWriter); ok && nl >= 0 {
		n, err = cw.WriteCounted(p, nl)
	} else {
		n, err = s.dst.Write(p)
	}
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if n > 0 {
		s.wrote = true
		s.last = p[n-1]
	}
	if err != nil {
		s.mu.Lock()
		if s.err == nil {
			s.err = err
		}
		s.mu.Unlock()
	}
}

// guard turns a panic in redaction into a failed stream.
func (s *sequencer) guard() {
	if p := recover(); p != nil {
		clear(s.e.counts)
		s.fail(fmt.Errorf("%w: %v", ErrRedactorFailed, p))
	}
}

// lines redacts whole lines with the true state and writes them; nl is
// the newlines of src, or -1.
func (s *sequencer) lines(src []byte, nl int64) {
	if s.failed() {
		return
	}
	defer s.guard()
	if s.r.testHook != nil {
		s.r.testHook(src)
	}
	out, changed := s.e.region(s.out[:0], src, &s.st)
	s.out = out
	s.addCounts(s.e)
	if changed {
		s.writeCounted(out, s.r.changedNL(nl, s.e.dropped))
	} else {
		s.writeCounted(src, nl)
	}
}

// accept takes a worker's speculative result when the stream really was
// outside any multi-line state at the region's start, and redoes the region
// otherwise.
func (s *sequencer) accept(reg *region) {
	if s.failed() {
		return
	}
	if reg.err != nil {
		s.fail(reg.err)
		return
	}
	if s.st.mode != modeIdle {
		s.lines(reg.data, reg.nl)
		return
	}
	s.st = reg.end
	s.mu.Lock()
	for _, c := range reg.counts {
		s.counts[s.r.rules[c.rule].id] += c.count
	}
	s.mu.Unlock()
	if reg.changed {
		s.writeCounted(reg.out, s.r.changedNL(reg.nl, reg.dropped))
	} else {
		s.writeCounted(reg.data, reg.nl)
	}
}

// longPart takes the next piece of a line longer than longLineThreshold.
func (s *sequencer) longPart(chunk []byte, final bool) {
	if s.failed() {
		return
	}
	defer s.guard()
	L := &s.long
	if !L.active {
		*L = longLine{active: true, atStart: true, buf: L.buf[:0]}
	}
	if L.cont {
		i := 0
		for i < len(chunk) && nonSpace[chunk[i]] {
			i++
		}
		if i < len(chunk) {
			L.cont = false
		}
		chunk = chunk[i:]
	}
	L.buf = append(L.buf, chunk...)
	if final {
		s.finishLong()
		return
	}
	if len(L.buf)-L.tried < longLineThreshold && len(L.buf)-L.ctx <= longLineMax {
		return
	}
	if s.r.testHook != nil {
		s.r.testHook(L.buf)
	}
	s.emitLong()
}

// emitLong writes all but the last longLineTail bytes of the held line,
// moving the cut before any secret that crosses it, before a PEM header
// whose key may follow, and off any escape sequence. At line start it waits
// for a secret that crosses the cut to end (line-level rules need the line
// start), and past longLineMax it emits everything, redacted.
func (s *sequencer) emitLong() {
	L := &s.long
	e := s.e
	if L.b64 && !s.skipLongB64(true) {
		return
	}
	buf := L.buf
	st := mlState{}
	if L.atStart {
		st = s.st
	}
	act, v := e.analyzeRaw(buf, &st, true, L.atStart)
	s.checkPEMForced(v, buf)
	switch act {
	case actWait:
		if len(buf)-L.ctx <= longLineMax {
			L.tried = len(buf)
			return
		}
		// Still undecided at the bound: not key material.
		st = mlState{}
		_, v = e.analyzeRaw(buf, &st, true, true)
	case actBodyLong:
		s.emitLongBody(st, v)
		return
	}
	cut, moved := longCut(e, len(buf), v)
	forced := false
	if cut <= L.ctx || (moved && L.atStart) {
		if len(buf)-L.ctx <= longLineMax {
			e.uncountOutside(0, 0)
			L.tried = len(buf)
			return
		}
		cut, forced = len(buf), true
		if o := v.openStart(); o > L.ctx {
			cut = o // a sequence not finished yet is held, not split
		}
		if e.pemOpenAt >= 0 {
			L.pemForced = true
		}
	}
	e.uncountOutside(L.ctx, cut)
	cont := e.spanRunsOn(cut, len(buf))
	out := e.emitRange(s.out[:0], buf, L.ctx, cut, v)
	s.out = out
	s.addCounts(e)
	s.write(out)
	if L.atStart {
		L.after = st
		L.atStart = false
	}
	if forced {
		L.cont = cont
		L.buf = L.buf[:copy(L.buf, buf[cut:])]
		L.ctx = 0
	} else {
		ks := min(v.boundaryAfter(cut-min(cut, longLineContext)), cut)
		L.buf = L.buf[:copy(L.buf, buf[ks:])]
		L.ctx = cut - ks
	}
	L.tried = len(L.buf)
}

// spanRunsOn says whether a secret of e.rspans starts before cut and runs
// to the end of the n bytes held: the line's next bytes continue it.
func (e *engine) spanRunsOn(cut, n int) bool {
	for _, sp := range e.rspans {
		if sp.start < cut && sp.end >= n {
			return true
		}
	}
	return false
}

// longCut returns where emitLong cuts a held line of n bytes: longLineTail
// bytes before its end, off any escape sequence, moved (moved is then true)
// before a PEM header whose key may follow and before any secret of
// e.rspans that crosses it.
func longCut(e *engine, n int, v *termView) (cut int, moved bool) {
	cut = v.boundary(n - longLineTail)
	if e.pemOpenAt >= 0 {
		h := e.pemOpenAt
		if v != nil {
			h = int(v.at[h])
		}
		if h < cut {
			cut, moved = h, true
		}
	}
	for i := len(e.rspans) - 1; i >= 0; i-- {
		if sp := e.rspans[i]; sp.start < cut && sp.end > cut {
			cut, moved = sp.start, true
		}
	}
	return cut, moved
}

// uncountOutside undoes the count of the spans of e.rspans that emitRange
// leaves out for [from, to): they were emitted before, or will be.
func (e *engine) uncountOutside(from, to int) {
	for _, sp := range e.rspans {
		if sp.rule >= 0 && (sp.end <= from || sp.start >= to) {
			e.uncount(sp)
		}
	}
}

// emitLongBody writes the start of a long key body line: what precedes its
// base64 run and, on the first body line, the marker. The rest of the line
// is a piece of its own, redacted as it comes.
func (s *sequencer) emitLongBody(st mlState, v *termView) {
	L := &s.long
	e := s.e
	buf := L.buf
	for _, sp := range e.rspans[1:] {
		if sp.rule >= 0 {
			e.uncount(sp) // found again when the rest is redacted
		}
	}
	body := e.rspans[0]
	e.rspans = e.rspans[:1]
	textLen := len(buf)
	if v != nil {
		textLen = len(v.text)
	}
	out := e.emitRange(s.out[:0], buf, 0, body.end, v)
	s.out = out
	s.addCounts(e)
	s.write(out)
	L.after = st
	L.atStart = false
	L.body = true
	L.b64 = e.bodyEnd == textLen
	L.buf = L.buf[:copy(L.buf, buf[body.end:])]
	L.ctx = 0
	L.tried = 0
}

// skipLongB64 drops the base64 that continues a long key body line, keeping
// the escape sequences inside it. It reports whether the run has ended,
// leaving what follows it held as a piece of its own.
func (s *sequencer) skipLongB64(open bool) bool {
	L := &s.long
	e := s.e
	buf := L.buf
	var v *termView
	text := buf
	e.pspans = e.pspans[:0]
	if bytes.IndexByte(buf, escByte) >= 0 {
		v = &e.tv
		v.build(buf, open)
		e.payloadSpans(buf, v)
		text = v.text
	}
	n := runOf(text, 0, &b64Pem)
	L.after.body += n
	end := n
	if v != nil {
		end = v.rawEnd(buf, n)
		if o := v.openStart(); o >= 0 && o < end {
			end = o // a sequence not finished yet stays held
		}
		out := s.out[:0]
		for _, q := range v.seqs {
			if q.end <= end {
				out = e.copyRaw(out, buf, q.start, q.end)
			}
		}
		s.out = out
		s.addCounts(e)
		s.write(out)
	}
	L.buf = L.buf[:copy(L.buf, buf[end:])]
	L.ctx = 0
	L.tried = 0
	if open && n == len(text) {
		return false
	}
	L.b64 = false
	return true
}

// checkPEMForced forgets a header emitted by force once anything but
// blanks follows it.
func (s *sequencer) checkPEMForced(v *termView, buf []byte) {
	if !s.long.pemForced {
		return
	}
	text := buf
	if v != nil {
		text = v.text
	}
	if pemSkip(text, 0) < len(text) {
		s.long.pemForced = false
	}
}

// finishLong redacts and writes the rest of a long line once its end is
// known, and settles the state the next line starts in.
func (s *sequencer) finishLong() {
	L := &s.long
	L.active = false
	if L.b64 {
		s.skipLongB64(false)
	}
	buf := L.buf
	if cap(L.buf) > 2*longLineMax {
		L.buf = nil
	}
	if L.atStart {
		s.lines(buf, -1)
		return
	}
	content := buf
	if n := len(content); n > 0 && content[n-1] == '\n' {
		content = content[:n-1]
	}
	e := s.e
	var st mlState
	_, v := e.analyzeRaw(content, &st, false, false)
	s.checkPEMForced(v, content)
	e.uncountOutside(L.ctx, len(buf))
	out := e.emitRange(s.out[:0], buf, L.ctx, len(buf), v)
	s.out = out
	s.addCounts(e)
	s.write(out)
	s.st = L.after
	if L.body && s.st.mode == modePEM {
		pemLongLineDone(&s.st)
	}
	if s.st.mode == modeIdle {
		// A header ending the line starts a key on the next lines as on a
		// short line. Its prefix is over 64 KiB: not one body lines repeat.
		switch {
		case st.mode == modePEM:
			st.prefix = ""
			s.st = st
		case L.pemForced:
			s.st = mlState{mode: modePEM}
		}
	}
}
