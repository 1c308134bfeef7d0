package record

import (
	"bytes"
	"sync"

	"github.com/rac-cli/rac/internal/termtext"
)

// GrepOptions describe a literal search.
type GrepOptions struct {
	Text       string
	IgnoreCase bool // ASCII case folding
	Context    int  // lines before and after each hit
}

// Hit is one matching line, with its context when asked for.
type Hit struct {
	Stream string
	N      int64
	Text   []byte // cleaned as read prints it
	Before []Line
	After  []Line
}

// Grep searches every stream of the recording for o.Text as a literal
// substring, as a terminal shows the text (a match inside coloured text is
// found). Without context it searches whole blocks at memory speed and
// only looks at lines around a candidate or holding control bytes.
func (r *Recording) Grep(o GrepOptions, fn func(Hit) error) error {
	needle := []byte(o.Text)
	if o.IgnoreCase {
		needle = asciiLower(nil, needle)
	}
	for _, s := range r.Meta.Streams {
		var err error
		if o.Context > 0 {
			err = r.grepLines(s, needle, o, fn)
		} else {
			err = r.grepBlocks(s, needle, o.IgnoreCase, fn)
		}
		if err == ErrStop {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func matchLine(line, needle []byte, fold bool) ([]byte, bool) {
	clean := termtext.CleanLine(line)
	if fold {
		return clean, bytes.Contains(asciiLower(nil, clean), needle)
	}
	return clean, bytes.Contains(clean, needle)
}

// asciiLower appends b with ASCII letters lower-cased to dst: -i folds
// ASCII only, as LC_ALL=C grep -i does.
func asciiLower(dst, b []byte) []byte {
	dst = append(dst[:0], b...)
	for i, c := range dst {
		if c >= 'A' && c <= 'Z' {
			dst[i] = c + 'a' - 'A'
		}
	}
	return dst
}

// grepLines walks lines for a search with context. Context is merged as
// grep merges it: a line is shown once, as a hit when it matches, and a
// hit's Before holds only lines no earlier hit has shown.
func (r *Recording) grepLines(stream string, needle []byte, o GrepOptions, fn func(Hit) error) error {
	var ring []Line      // the last Context lines
	var pending *Hit     // a hit still collecting its After
	var shown int64 = -1 // the last line number shown (as a hit or context)
	err := r.Lines(LineOptions{Stream: stream}, func(l Line) error {
		if l.Marker {
			return nil
		}
		clean, ok := matchLine(l.Text, needle, o.IgnoreCase)
		cl := Line{Stream: l.Stream, N: l.N, Text: append([]byte(nil), clean...)}
		if pending != nil && (ok || len(pending.After) >= o.Context) {
			if err := fn(*pending); err != nil {
				return err
			}
			pending = nil
		}
		switch {
		case ok:
			h := &Hit{Stream: stream, N: l.N, Text: cl.Text}
			for _, b := range ring {
				if b.N > shown {
					h.Before = append(h.Before, b)
				}
			}
			pending, shown = h, l.N
		case pending != nil:
			pending.After = append(pending.After, cl)
			shown = l.N
		}
		ring = append(ring, cl)
		if len(ring) > o.Context {
			ring = ring[1:]
		}
		return nil
	})
	if err != nil {
		return err
	}
	if pending != nil {
		return fn(*pending)
	}
	return nil
}

// grepBlocks searches a stream block by block: a block with no candidate
// and no control bytes costs one substring scan and one newline count.
func (r *Recording) grepBlocks(stream string, needle []byte, fold bool, fn func(Hit) error) error {
	v, err := r.openView(stream)
	if err != nil {
		return err
	}
	defer v.Close()
	bp := blockPool.Get().(*[]byte)
	defer blockPool.Put(bp)
	buf := *bp
	var lower []byte
	var carry []byte // the partial last line of the previous block
	var nl int64     // newlines before the start of carry
	lineBase := func(at int64) {
		// after a cut, numbering continues from the cut's count
		if v.cut != nil && at == v.cut.KeptFrom {
			nl = v.cut.LinesBefore()
		}
	}
	consumed := int64(0)
	var find finder
	search := func(data []byte, final bool) error {
		// data holds whole lines, plus a partial last one when final
		end := len(data)
		if !final {
			end = bytes.LastIndexByte(data, '\n') + 1
		}
		chunk := data[:end]
		hay := chunk
		if fold {
			lower = asciiLower(lower, chunk)
			hay = lower
		}
		counted := 0 // chunk[:counted] has been counted into nl
		lastLine := -1
		check := func(ls, le int) error {
			if ls <= lastLine {
				return nil
			}
			lastLine = ls
			line := chunk[ls:le]
			clean, ok := matchLine(line, needle, fold)
			if !ok {
				return nil
			}
			nl += int64(bytes.Count(chunk[counted:ls], []byte{'\n'}))
			counted = ls
			return fn(Hit{Stream: stream, N: nl + 1, Text: clean})
		}
		lineAround := func(i int) (int, int) {
			ls := bytes.LastIndexByte(chunk[:i], '\n') + 1
			le := bytes.IndexByte(chunk[i:], '\n')
			if le < 0 {
				le = len(chunk)
			} else {
				le += i
			}
			return ls, le
		}
		// candidates: raw matches, and lines holding bytes that cleaning changes
		if find.needle == nil {
			find = newFinder(needle, hay)
		}
		pos := 0
		special := nextSpecial(hay, 0)
		for {
			m := -1
			if len(needle) > 0 {
				if k := find.index(hay[pos:]); k >= 0 {
					m = pos + k
				}
			}
			for special >= 0 && (m < 0 || special < m) {
				ls, le := lineAround(special)
				if err := check(ls, le); err != nil {
					return err
				}
				special = nextSpecial(hay, le+1)
				pos = max(pos, le+1)
			}
			if m < 0 || m < pos {
				if m < 0 {
					break
				}
				continue
			}
			ls, le := lineAround(m)
			if err := check(ls, le); err != nil {
				return err
			}
			pos = le + 1
			if pos >= len(hay) {
				break
			}
		}
		nl += int64(bytes.Count(chunk[counted:], []byte{'\n'}))
		carry = append(carry[:0], data[end:]...)
		return nil
	}
	for _, p := range v.parts {
		off := int64(0)
		if p.start > consumed {
			// a cut: the partial line before it is searched alone, and the
			// piece of a line the kept tail starts with is no line
			if len(carry) > 0 {
				if err := search(append([]byte(nil), carry...), true); err != nil {
					return err
				}
				carry = carry[:0]
			}
			lineBase(p.start)
			if v.cut != nil && p.start == v.cut.KeptFrom {
				if off = firstLineEnd(p.f, p.size); off > 0 {
					nl++
				}
			}
		}
		for off < p.size {
			n := copy(buf, carry)
			if n == len(buf) { // a line longer than the block
				buf = append(buf, make([]byte, len(buf))...)
				*bp = buf
			}
			k, err := p.f.ReadAt(buf[n:], off)
			if k == 0 && err != nil {
				break
			}
			off += int64(k)
			data := buf[:n+k]
			if err := search(data, false); err != nil {
				return err
			}
		}
		consumed = p.start + p.size
	}
	if len(carry) > 0 {
		return search(append([]byte(nil), carry...), true)
	}
	return nil
}

// blockPool reuses grep's read buffers across streams and recordings: a
// fresh megabyte for each costs page faults worth more than its search.
var blockPool = sync.Pool{New: func() any { b := make([]byte, 1<<20); return &b }}

// nextSpecial finds the next byte at or after i that cleaning acts on
// (ESC, CR, BS): such lines are matched as a terminal shows them.
func nextSpecial(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	best := -1
	for _, c := range []byte{0x1b, '\r', '\b'} {
		if k := bytes.IndexByte(b[i:], c); k >= 0 && (best < 0 || i+k < best) {
			best = i + k
		}
	}
	return best
}

// finder looks for a literal: a needle of a few bytes by memchr of its
// rarest byte (in the text being searched), a longer one with a Horspool
// skip table, which steps over most of the text without looking at it;
// that is what keeps a long literal search as fast as grep's.
type finder struct {
	needle []byte
	rare   int               // short needles: index of the byte searched for
	skip2  *[pairSlots]uint8 // Horspool over byte pairs: most pairs of the text are in no needle, so most steps skip n-1 bytes
}

// newFinder prepares a search for needle; sample is text like what will be
// searched, for choosing the rare byte.
func newFinder(needle, sample []byte) finder {
	f := finder{needle: needle}
	n := len(needle)
	var hist [256]int
	sample = sample[:min(len(sample), 64<<10)]
	for _, c := range sample {
		hist[c]++
	}
	rarer := func(a, b byte) bool {
		if hist[a] != hist[b] {
			return hist[a] < hist[b]
		}
		return byteRank[a] < byteRank[b]
	}
	for i, c := range needle {
		if rarer(c, needle[f.rare]) {
			f.rare = i
		}
	}
	// memchr of a byte that is rare in this text is the fastest search;
	// when every byte of the needle is common, skip with Horspool
	if n >= 4 && n <= 256 && hist[needle[f.rare]]*512 > len(sample) {
		var skip [pairSlots]uint8
		for i := range skip {
			skip[i] = uint8(n - 1)
		}
		for j := 1; j <= n-2; j++ {
			// pairs sharing a slot keep the smallest shift: still safe
			k := pairSlot(needle[j-1], needle[j])
			skip[k] = min(skip[k], uint8(n-1-j))
		}
		f.skip2 = &skip
	}
	return f
}

// index returns the first index of the needle in hay, or -1.
func (f finder) index(hay []byte) int {
	n := len(f.needle)
	switch {
	case n == 0:
		return 0
	case n == 1:
		return bytes.IndexByte(hay, f.needle[0])
	case f.skip2 != nil:
		last, prev := f.needle[n-1], f.needle[n-2]
		skip := f.skip2
		for e := n - 1; e < len(hay); {
			a, c := hay[e-1], hay[e]
			if c == last && a == prev && bytes.Equal(hay[e-n+1:e-1], f.needle[:n-2]) {
				return e - n + 1
			}
			e += int(skip[pairSlot(a, c)])
		}
		return -1
	}
	c := f.needle[f.rare]
	pos := f.rare
	for pos < len(hay) {
		i := bytes.IndexByte(hay[pos:], c)
		if i < 0 {
			return -1
		}
		start := pos + i - f.rare
		if start+n <= len(hay) && bytes.Equal(hay[start:start+n], f.needle) {
			return start
		}
		pos += i + 1
	}
	return -1
}

// pairSlots is the size of the pair skip table: small enough to stay in
// the first-level cache.
const pairSlots = 1 << 12

func pairSlot(a, b byte) uint16 { return (uint16(a)<<5 ^ uint16(b)) & (pairSlots - 1) }

// byteRank orders bytes by how common they are in command output (lower
// is rarer): letters, digits, space and common punctuation are frequent.
var byteRank = func() [256]uint8 {
	var r [256]uint8
	common := " etaoinsrlcdhupmfgybw.:/-_0123456789=,\"()[]\nvkxTSEARCINOLDPMFjqzUBGHWVKYJXQZ'{}<>;*#@$%&!?+|\\~^`\t"
	for i := range r {
		r[i] = 0 // not listed: rare
	}
	for i := 0; i < len(common); i++ {
		r[common[i]] = uint8(255 - i)
	}
	return r
}()
