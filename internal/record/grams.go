package record

// A trigram filter per compressed stream, so that a search for a text the
// stream cannot hold decodes none of it.
//
// When gc compresses a stream it also writes grams-STREAM: a bitset with
// one bit set for every trigram (three bytes, ASCII letters lowered) of
// the text a search can look at in the stream: its raw bytes, and for each
// line cleaning acts on (termtext.NeedsClean) the cleaned first
// MaxLineText bytes of the line, which is exactly what a search matches
// (search cleans a line, capped at MaxLineText, and looks for its text in
// it, ASCII folded or not). Lines are split as Pieces splits them, so a
// capped stream's kept tail starts a line where a search starts one. A
// text of three bytes or more whose trigrams are not all set cannot be in
// any line: MayHold says so and the search skips the stream. A missing,
// damaged or stale filter (its checksum, or the stream size it was made
// for, does not hold) says nothing, and the stream is searched.
//
// The filter costs disk: it is written only when it takes at most 1/32 of
// the stream's compressed bytes and would be at most half full (random
// bytes fill any bitset), so it never costs more than 3% of what
// compression gains, and on the bench's text 0.1% to 1.2%.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math/bits"

	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/termtext"
)

const (
	gramsPfx   = "grams-"
	gramsMagic = "racgrams1\n"
	// header: magic, the stream's size (uint64), log2 of the bits
	// (uint32), crc32 of the bitset (uint32)
	gramsHeader  = len(gramsMagic) + 8 + 4 + 4
	gramsMinLog  = 15 // 4 KiB, one block
	gramsMaxLog  = 20 // 128 KiB
	gramsPerGram = 8  // bits per distinct trigram: 12% of the bits set
)

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// gramBit is the bit of the trigram abc in a bitset of 1<<log bits.
func gramBit(a, b, c byte, log uint) uint32 {
	k := uint32(lowerASCII(a))<<16 | uint32(lowerASCII(b))<<8 | uint32(lowerASCII(c))
	return (k * 0x9E3779B1) >> (32 - log)
}

// gramSet collects the distinct trigrams of a stream exactly (a bit for
// each of the 1<<24), to size the filter before it is made.
type gramSet struct {
	seen []uint64
	n    int
}

func newGramSet() *gramSet { return &gramSet{seen: make([]uint64, 1<<24/64)} }

func (g *gramSet) add(a, b, c byte) {
	k := uint32(lowerASCII(a))<<16 | uint32(lowerASCII(b))<<8 | uint32(lowerASCII(c))
	if w, m := k/64, uint64(1)<<(k%64); g.seen[w]&m == 0 {
		g.seen[w] |= m
		g.n++
	}
}

func (g *gramSet) addText(t []byte) {
	for i := 0; i+3 <= len(t); i++ {
		g.add(t[i], t[i+1], t[i+2])
	}
}

// streamGrams collects the trigrams a search can look at in the stream.
func (r *Recording) streamGrams(stream string) (*gramSet, error) {
	pieces, closeFn, err := r.Pieces(stream)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	g := newGramSet()
	for _, p := range pieces {
		br := bufio.NewReaderSize(p.R, 1<<20)
		var long []byte // a line longer than the reader's buffer, up to MaxLineText
		inLong := false
		var a, b byte // the two bytes before the slice read
		have := 0     // how many of a, b are bytes of this piece
		for {
			s, err := br.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
				return nil, err
			}
			// raw trigrams, across reads
			for _, c := range s {
				if have == 2 {
					g.add(a, b, c)
				} else {
					have++
				}
				a, b = b, c
			}
			end := len(s) > 0 && s[len(s)-1] == '\n'
			line := s
			if end {
				line = s[:len(s)-1]
			}
			if err == bufio.ErrBufferFull || inLong {
				if room := MaxLineText - len(long); room > 0 {
					long = append(long, line[:min(len(line), room)]...)
				}
				inLong = true
				if end || err == io.EOF {
					g.addClean(long)
					long, inLong = long[:0], false
				}
			} else if len(line) > 0 {
				g.addClean(line)
			}
			if err == io.EOF {
				break
			}
		}
	}
	return g, nil
}

// addClean adds the trigrams of a line as a search sees it (line holds at
// most MaxLineText bytes of it), when cleaning changes it: a line it
// leaves alone is its raw bytes (but a final '\r'), already added.
func (g *gramSet) addClean(line []byte) {
	if termtext.NeedsClean(line) {
		g.addText(termtext.CleanLine(line))
	}
}

// filter makes the bitset, or nil when it would hold too little to pay
// (more than half its bits set, or more than budget bytes).
func (g *gramSet) filter(budget int64) (log uint, set []byte) {
	log = uint(bits.Len(uint(max(1, g.n*gramsPerGram-1))))
	log = max(log, gramsMinLog)
	if log > gramsMaxLog || int64(1)<<log/8+int64(gramsHeader) > budget {
		return 0, nil
	}
	set = make([]byte, 1<<log/8)
	for w, word := range g.seen {
		for word != 0 {
			k := uint32(w*64 + bits.TrailingZeros64(word))
			word &= word - 1
			bit := gramBit(byte(k>>16), byte(k>>8), byte(k), log)
			set[bit/8] |= 1 << (bit % 8)
		}
	}
	return log, set
}

// writeGrams writes the stream's filter when it pays for zst compressed
// bytes (see filter); always, for tests that make tiny streams.
func (r *Recording) writeGrams(stream string, zst int64, always bool) error {
	size, ok := r.storedBytes(stream)
	if !ok {
		return nil
	}
	g, err := r.streamGrams(stream)
	if err != nil {
		return err
	}
	budget := zst / 32
	if always {
		budget = 1 << 40
	}
	log, set := g.filter(budget)
	if set == nil {
		return nil
	}
	b := make([]byte, 0, gramsHeader+len(set))
	b = append(b, gramsMagic...)
	b = binary.LittleEndian.AppendUint64(b, uint64(size))
	b = binary.LittleEndian.AppendUint32(b, uint32(log))
	b = binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(set))
	b = append(b, set...)
	_, err = r.replaceFile(gramsPfx+stream, func(w io.Writer) (int64, error) {
		n, err := w.Write(b)
		return int64(n), err
	})
	return err
}

// MayHold reports whether a line of the stream may hold text (ASCII case
// folded or not): false only when the stream's filter rules it out. It
// says true when it cannot tell: text under three bytes, no filter (the
// stream is raw, or small, or was compressed before filters were), or a
// filter that does not hold.
func (r *Recording) MayHold(stream string, text []byte) bool {
	if len(text) < 3 || r.Footer == nil {
		return true
	}
	size, ok := r.storedBytes(stream)
	if !ok {
		return true
	}
	b, err := store.ReadSmallFile(r.dir, gramsPfx+stream, int64(gramsHeader)+1<<gramsMaxLog/8)
	if err != nil {
		return true // none, or unreadable: search
	}
	if len(b) < gramsHeader || !bytes.HasPrefix(b, []byte(gramsMagic)) {
		return true
	}
	h := b[len(gramsMagic):]
	log := uint(binary.LittleEndian.Uint32(h[8:]))
	set := b[gramsHeader:]
	if int64(binary.LittleEndian.Uint64(h)) != size || log < gramsMinLog || log > gramsMaxLog ||
		len(set) != 1<<log/8 || crc32.ChecksumIEEE(set) != binary.LittleEndian.Uint32(h[12:]) {
		return true
	}
	for i := 0; i+3 <= len(text); i++ {
		bit := gramBit(text[i], text[i+1], text[i+2], log)
		if set[bit/8]&(1<<(bit%8)) == 0 {
			return false
		}
	}
	return true
}
