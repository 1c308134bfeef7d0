// Package search is rac's grep engine: it finds a literal text in
// recordings as a terminal shows them, in one recording (Searcher.Recording)
// or in many on every core, handed back in sequence order (Searcher.Walk).
//
// It owns what a match is: a line matches when its cleaned text (what
// 'rac out read' prints, termtext.CleanLine) holds the text, with ASCII
// case folding when asked; which raw bytes can make a cleaned line differ
// is termtext.IndexSpecial's one definition, never a copy here. It returns
// plain values (hits with line numbers, match offsets and context) and
// must never print, colour, format references for people, or import
// cobra, viper, color, ui or app: rendering is the caller's.
package search

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// Options describe a literal search.
type Options struct {
	Text       string // searched for as is: regex characters are plain text
	IgnoreCase bool   // ASCII case folding, as LC_ALL=C grep -i
	Context    int    // lines before and after each hit
	Stream     string // one stream (record.Stdout, ...); "" every stream, in metadata order
}

// Span is one match in a line's text: Text[Start:End].
type Span struct{ Start, End int }

// Line is a context line: one shown around a hit, not matching.
type Line struct {
	N    int64
	Text []byte // cleaned
	Cut  bool   // as Hit.Cut
}

// Hit is one matching line with its context. Context is merged as grep
// merges it: each line is shown once, as a hit when it matches, so a
// hit's Before holds only lines no earlier hit of the stream has shown.
type Hit struct {
	Stream  string
	N       int64  // line number in the stream, as 'rac out read --lines' takes it
	Text    []byte // cleaned as 'rac out read' prints it
	Matches []Span // every match in Text, left to right, not overlapping
	Before  []Line
	After   []Line
	// Cut: the line is the last of an incomplete recording's stream and
	// has no newline (record.Line.Cut): the recorder's kill may have cut
	// it, and it must not read as whole.
	Cut bool
}

// ErrStop, returned by a callback, ends a search early without an error.
var ErrStop = errors.New("search: stop")

// ErrEmptyText is New's answer to an empty Options.Text, which would
// match every line.
var ErrEmptyText = errors.New("empty search text")

// Searcher is a prepared search; it is safe for concurrent use.
type Searcher struct {
	o      Options
	needle []byte // lower-cased when folding
}

// New prepares a search.
func New(o Options) (*Searcher, error) {
	if o.Text == "" {
		return nil, ErrEmptyText
	}
	if o.Context < 0 {
		return nil, fmt.Errorf("context of %d lines: it takes a number from 0", o.Context)
	}
	switch o.Stream {
	case "", record.Stdout, record.Stderr, record.Combined:
	default:
		return nil, fmt.Errorf("unknown stream %q (streams are %s, %s and %s)", o.Stream, record.Stdout, record.Stderr, record.Combined)
	}
	s := &Searcher{o: o, needle: []byte(o.Text)}
	if o.IgnoreCase {
		s.needle = asciiLower(nil, s.needle)
	}
	return s, nil
}

// Match reports whether line (raw, without its newline) matches: it
// returns the cleaned text and the matches in it, nil when none.
func (s *Searcher) Match(line []byte) ([]byte, []Span) {
	clean := termtext.CleanLine(line)
	return clean, s.spans(clean, nil)
}

// spans finds the matches in clean, appending them to dst; nil when none.
func (s *Searcher) spans(clean []byte, scratch *[]byte) []Span {
	hay := clean
	if s.o.IgnoreCase {
		var buf []byte
		if scratch != nil {
			buf = *scratch
		}
		buf = asciiLower(buf, clean)
		if scratch != nil {
			*scratch = buf
		}
		hay = buf
	}
	var out []Span
	for at := 0; at <= len(hay)-len(s.needle); {
		k := bytes.Index(hay[at:], s.needle)
		if k < 0 {
			break
		}
		out = append(out, Span{at + k, at + k + len(s.needle)})
		at += k + len(s.needle)
	}
	return out
}

// Recording searches the recording, calling fn with each hit in order:
// stream by stream, line by line. The hit's slices are never reused. An
// error from fn ends the search and is returned (ErrStop: nil returned).
func (s *Searcher) Recording(rec *record.Recording, fn func(Hit) error) error {
	err := s.search(rec, nil, fn)
	if errors.Is(err, ErrStop) {
		return nil
	}
	return err
}

// errStopped ends a search the walk no longer wants.
var errStopped = errors.New("search: stopped")

// search is Recording with a stop channel: once it is closed, the search
// ends with errStopped at its next block or hit.
func (s *Searcher) search(rec *record.Recording, stop <-chan struct{}, fn func(Hit) error) error {
	st := &state{s: s, stop: stop, fn: fn}
	for _, stream := range rec.Streams() {
		if s.o.Stream != "" && stream != s.o.Stream {
			continue
		}
		f := rec.Filter(stream)
		if !f.MayHold(s.needle) {
			continue // its 4-gram filter rules the text out: no line holds it
		}
		st.filter = f
		var err error
		if s.o.Context > 0 {
			err = st.lines(rec, stream)
		} else {
			err = st.blocks(rec, stream)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// state is one recording's search: its scratch space and the arena the
// hits' text is copied into.
type state struct {
	s     *Searcher
	stop  <-chan struct{}
	fn    func(Hit) error
	arena []byte
	fold  []byte // scratch for a folded line
	// maxLine is the most of one line searched (0: record.MaxLineText,
	// what 'rac out read' shows of a line; tests make it small)
	maxLine int
	long    []byte // a block grown for a long line (grow)
	// filter is the stream's (nil: none), which says where its kept
	// bytes hold no byte cleaning acts on; off is the kept byte (over
	// the stream's pieces, one after the other) the block being searched
	// starts at
	filter *record.Filter
	off    int64
	// openEnd: the piece being searched ends where an incomplete
	// recording's stream does, so a last line without its newline is cut
	openEnd bool
	final   bool // the chunk being searched ends the piece
}

func (st *state) lineCap() int {
	if st.maxLine > 0 {
		return st.maxLine
	}
	return record.MaxLineText
}

func (st *state) stopped() bool {
	select {
	case <-st.stop:
		return true
	default:
		return false
	}
}

// keep copies b into the arena: hits outlive the read buffers, and one
// arena for a recording's hits is one allocation for many lines.
func (st *state) keep(b []byte) []byte {
	if len(st.arena)+len(b) > cap(st.arena) {
		// earlier hits keep pointing into the old arena, which stays
		st.arena = make([]byte, 0, max(64<<10, len(b)))
	}
	at := len(st.arena)
	st.arena = append(st.arena, b...)
	return st.arena[at:len(st.arena):len(st.arena)]
}

// match cleans line and returns its kept text and matches when it matches.
func (st *state) match(line []byte) ([]byte, []Span, bool) {
	clean := termtext.CleanLine(line)
	spans := st.s.spans(clean, &st.fold)
	if spans == nil {
		return nil, nil, false
	}
	return st.keep(clean), spans, true
}

func (st *state) emit(h Hit) error {
	if st.stopped() {
		return errStopped
	}
	return st.fn(h)
}

// lines walks a stream line by line, for a search with context, with the
// line numbers and cuts 'rac out read' shows (a cut's marker is no line).
func (st *state) lines(rec *record.Recording, stream string) error {
	ctx := st.s.o.Context
	// ring holds the last ctx lines in buffers of its own, reused: only
	// lines that are shown go to the arena, so a hit pins no run of
	// unshown lines
	ring := make([]Line, ctx)
	head, filled := 0, 0 // ring[head] is the oldest of filled lines
	var pending *Hit     // a hit still collecting its After
	var shown int64 = -1 // the last line number shown (as a hit or context)
	n := 0
	err := rec.Lines(record.LineOptions{Stream: stream}, func(l record.Line) error {
		if l.Marker {
			return nil
		}
		if n++; n%4096 == 0 && st.stopped() {
			return errStopped
		}
		clean := termtext.CleanLine(l.Text)
		spans := st.s.spans(clean, &st.fold)
		if pending != nil && (spans != nil || len(pending.After) >= ctx) {
			if err := st.emit(*pending); err != nil {
				return err
			}
			pending = nil
		}
		switch {
		case spans != nil:
			h := &Hit{Stream: stream, N: l.N, Text: st.keep(clean), Matches: spans, Cut: l.Cut}
			for i := range filled {
				if b := ring[(head+i)%ctx]; b.N > shown {
					h.Before = append(h.Before, Line{N: b.N, Text: st.keep(b.Text)})
				}
			}
			pending, shown = h, l.N
		case pending != nil:
			pending.After = append(pending.After, Line{N: l.N, Text: st.keep(clean), Cut: l.Cut})
			shown = l.N
		}
		slot := (head + filled) % ctx
		if filled == ctx {
			slot, head = head, (head+1)%ctx
		} else {
			filled++
		}
		ring[slot] = Line{N: l.N, Text: append(ring[slot].Text[:0], clean...)}
		return nil
	})
	if err != nil {
		return err
	}
	if pending != nil {
		return st.emit(*pending)
	}
	return nil
}

// blockPool reuses read buffers across streams and recordings: a fresh
// megabyte for each costs page faults worth more than its search.
var blockPool = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// blocks searches a stream block by block, piece by piece (the pieces of a
// capped recording are split at its cut, each starting at a whole line):
// a block with no candidate costs one substring scan, one scan for bytes
// cleaning acts on, and one newline count.
func (st *state) blocks(rec *record.Recording, stream string) error {
	pieces, closeFn, err := rec.Pieces(stream)
	if err != nil {
		return err
	}
	defer closeFn()
	var bp *[]byte // a compressed piece needs no block: only raw ones get one
	defer func() {
		if bp != nil {
			blockPool.Put(bp)
		}
	}()
	st.off = 0
	for i, p := range pieces {
		// only the end of the last piece is where a recorder's kill cut
		// (a capped head ends at its cut marker)
		st.openEnd = rec.Status == record.StatusIncomplete && i == len(pieces)-1
		if p.Frames != nil {
			err = st.framed(p, stream)
		} else {
			if bp == nil {
				bp = blockPool.Get().(*[]byte)
			}
			err = st.piece(p, stream, bp)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (st *state) piece(p record.Piece, stream string, bp *[]byte) error {
	buf := *bp
	nl := p.FirstLine - 1 // newlines before buf[0]
	carry := 0            // buf[:carry] is the partial last line of the previous block
	var find *finder
	for {
		if st.stopped() {
			return errStopped
		}
		if carry == len(buf) { // a line longer than the block
			if carry >= st.lineCap() {
				var final bool
				var err error
				if carry, final, err = st.longLine(p.R, buf, stream, find, &nl); err != nil || final {
					return err
				}
				continue
			}
			buf = st.grow(buf)
		}
		k, err := io.ReadFull(p.R, buf[carry:])
		final := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !final {
			return err
		}
		data := buf[:carry+k]
		end := len(data)
		if !final {
			end = bytes.LastIndexByte(data, '\n') + 1
		}
		if find == nil {
			find = newFinder(st.s.needle, st.s.o.IgnoreCase, data)
		}
		st.final = final
		err = st.chunk(data[:end], stream, find, &nl)
		st.final = false
		if err != nil {
			return err
		}
		if final {
			st.off += int64(len(data))
			return nil
		}
		carry = copy(buf, data[end:])
		st.off += int64(end)
	}
}

// framed is piece for a compressed piece, searched in its decoded frames
// (record.Piece.Frames) where they are: the whole lines of a frame in
// place, and only a line that frames split is copied, into a buffer of
// its own (grown as such lines need, at most to the line cap),
// to be searched whole. A line past the line cap is searched in its
// first lineCap bytes and the rest skipped, as longLine does; lines are
// searched in place only in a frame no longer than the cap (always, but
// with a test's small cap), so none of them passes it. The hits are
// piece's, to the cut flag.
func (st *state) framed(p record.Piece, stream string) error {
	fr := &framer{st: st, stream: stream, lineCap: st.lineCap(), at: st.off, nl: p.FirstLine - 1}
	err := p.Frames(func(b []byte) error {
		if st.stopped() {
			return errStopped
		}
		if fr.find == nil {
			fr.find = newFinder(st.s.needle, st.s.o.IgnoreCase, b)
		}
		for len(b) > 0 {
			var err error
			if b, err = fr.next(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && len(fr.carry) > 0 {
		// the piece's last line, without its newline
		st.final = true
		err = fr.search(fr.carry, fr.lineAt)
		st.final = false
	}
	st.off = fr.at
	return err
}

// framer is framed's state between frames.
type framer struct {
	st       *state
	stream   string
	find     *finder
	lineCap  int
	carry    []byte // a line begun in an earlier frame
	lineAt   int64  // the kept byte carry starts at
	at       int64  // the kept byte the frame's bytes left start at
	skipping bool   // in a line past the cap, its rest not searched
	nl       int64  // as chunk's
}

func (fr *framer) search(chunk []byte, off int64) error {
	fr.st.off = off
	return fr.st.chunk(chunk, fr.stream, fr.find, &fr.nl)
}

// next takes what it can of b (a frame's bytes, or what is left of
// them) and returns the rest.
func (fr *framer) next(b []byte) ([]byte, error) {
	if fr.skipping {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			fr.at += int64(len(b))
			return nil, nil
		}
		fr.nl++
		fr.at += int64(i + 1)
		fr.skipping = false
		return b[i+1:], nil
	}
	if len(fr.carry) == 0 && len(b) <= fr.lineCap {
		// the whole lines, in place
		if last := bytes.LastIndexByte(b, '\n'); last >= 0 {
			err := fr.search(b[:last+1], fr.at)
			fr.at += int64(last + 1)
			return b[last+1:], err
		}
	}
	// one line, begun in carry or at b's start, copied
	if len(fr.carry) == 0 {
		fr.lineAt = fr.at
	}
	i := bytes.IndexByte(b, '\n')
	content := i
	if i < 0 {
		content = len(b)
	}
	if len(fr.carry)+content >= fr.lineCap {
		// as piece: a line that fills the cap is searched in its first
		// lineCap bytes (the same hit), and one that ends the piece
		// there is not cut
		k := fr.lineCap - len(fr.carry)
		fr.carry = append(fr.carry, b[:k]...)
		err := fr.search(fr.carry, fr.lineAt)
		fr.carry, fr.skipping = fr.carry[:0], true
		fr.at += int64(k)
		return b[k:], err
	}
	if i < 0 {
		fr.carry = append(fr.carry, b...)
		fr.at += int64(len(b))
		return nil, nil
	}
	fr.carry = append(fr.carry, b[:i+1]...)
	err := fr.search(fr.carry, fr.lineAt)
	fr.carry = fr.carry[:0]
	fr.at += int64(i + 1)
	return b[i+1:], err
}

// grow doubles a full block, up to the line cap (the pooled block is
// never longer). The grown block is the search's own, reused by its
// later pieces and never handed back to the pool: the pool keeps blocks
// of one size, and no long line pins its memory past this recording.
func (st *state) grow(buf []byte) []byte {
	n := min(2*len(buf), max(st.lineCap(), len(buf)))
	if cap(st.long) < n {
		st.long = make([]byte, n)
	}
	big := st.long[:n]
	copy(big, buf)
	return big
}

// longLine handles a line longer than the line cap, whose start fills
// buf: it searches the line's first lineCap bytes, what 'rac out read'
// shows of it, and reads past the rest in blocks of buf's size, so memory
// stays O(cap) and time O(bytes) whatever the line's length. It returns
// the bytes after the line's newline, moved to buf's start (their count),
// or final when the piece ends inside the line. nl counts as in chunk.
func (st *state) longLine(r io.Reader, buf []byte, stream string, find *finder, nl *int64) (int, bool, error) {
	if err := st.chunk(buf[:st.lineCap()], stream, find, nl); err != nil {
		return 0, false, err
	}
	st.off += int64(len(buf))
	for {
		if st.stopped() {
			return 0, false, errStopped
		}
		k, err := io.ReadFull(r, buf)
		final := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !final {
			return 0, false, err
		}
		if i := bytes.IndexByte(buf[:k], '\n'); i >= 0 {
			*nl++
			st.off += int64(i + 1)
			// at the piece's end the next read gives EOF and searches these
			return copy(buf, buf[i+1:k]), false, nil
		}
		st.off += int64(k)
		if final {
			return 0, true, nil
		}
	}
}

// chunk searches whole lines (the last may lack its newline). Candidates
// are the raw matches and the lines holding a byte cleaning acts on; each
// is matched on its cleaned text. nl counts the newlines before chunk on
// entry and before its end on return.
func (st *state) chunk(chunk []byte, stream string, find *finder, nl *int64) error {
	counted := 0                      // chunk[:counted] is counted into nl
	m, sp := -2, -2                   // the next raw match, the next special byte: -2 not known, -1 none left
	for pos := 0; pos < len(chunk); { // pos is always a line start
		if m != -1 && m < pos {
			if m = find.index(chunk[pos:]); m >= 0 {
				m += pos
			}
		}
		if sp != -1 && sp < pos {
			sp = st.indexSpecial(chunk, pos)
		}
		c := m
		if c < 0 || (sp >= 0 && sp < c) {
			c = sp
		}
		if c < 0 {
			break
		}
		ls := bytes.LastIndexByte(chunk[:c], '\n') + 1
		le := bytes.IndexByte(chunk[c:], '\n')
		if le < 0 {
			le = len(chunk)
		} else {
			le += c
		}
		pos = le + 1
		text, spans, ok := st.match(chunk[ls:le])
		if !ok {
			continue
		}
		*nl += int64(bytes.Count(chunk[counted:ls], []byte{'\n'}))
		counted = ls
		cut := st.openEnd && st.final && le == len(chunk) // no newline: the stream's last line
		if err := st.emit(Hit{Stream: stream, N: *nl + 1, Text: text, Matches: spans, Cut: cut}); err != nil {
			return err
		}
	}
	*nl += int64(bytes.Count(chunk[counted:], []byte{'\n'}))
	return nil
}

// indexSpecial is termtext.IndexSpecial(chunk[pos:]) + pos (or -1), chunk
// starting at kept byte st.off, scanning only the runs of bytes the
// stream's filter says may hold a byte cleaning acts on. Each run is
// scanned with the byte after it, so a carriage return or 0xC2 ending it
// is judged as in chunk; a byte found past the run is in bytes that hold
// none, so it is not one.
func (st *state) indexSpecial(chunk []byte, pos int) int {
	for pos < len(chunk) {
		start, end := st.filter.Special(st.off + int64(pos))
		if start < 0 || start-st.off >= int64(len(chunk)) {
			return -1
		}
		from, to := int(start-st.off), len(chunk)
		if end-st.off < int64(len(chunk)) {
			to = int(end - st.off)
		}
		if j := termtext.IndexSpecial(chunk[from:min(to+1, len(chunk))]); j >= 0 && from+j < to {
			return from + j
		}
		pos = to
	}
	return -1
}
