package record

// A filter of 4-grams per compressed stream, so that a search for a text
// the stream cannot hold decodes none of it.
//
// When gc compresses a stream it also writes grams-STREAM: a bitset with
// a bit set for every 4-gram (four bytes, ASCII letters lowered, hashed)
// of the text a search can look at in the stream: its raw bytes, and for
// each line cleaning acts on (termtext.NeedsClean) the cleaned first
// MaxLineText bytes of the line, which is exactly what a search matches
// (search cleans a line, capped at MaxLineText, and looks for its text in
// it, ASCII folded or not). Lines are split as Pieces splits them, so a
// capped stream's kept tail starts a line where a search starts one. A
// text of four bytes or more with a 4-gram whose bit is not set cannot be
// in any line: MayHold says so and the search skips the stream. A
// missing, damaged or stale filter (its checksum, or the stream size it
// was made for, does not hold) says nothing, and the stream is searched.
//
// 4-grams rather than trigrams: a text a stream does not hold usually
// still has all its trigrams somewhere in megabytes of output
// ("connection refused" in the bench's mixed corpus, which has "efu" in
// two lines), far less often all its 4-grams ("used" is in none). They
// are more (283,000 distinct in that corpus's 32 MiB, against 59,000
// trigrams), so the bitset takes three bits a gram, a quarter set.
//
// The filter costs disk: it is written only when it takes at most 1/32 of
// the stream's compressed bytes with at least two bits a gram (random
// bytes fill any bitset), so it never costs more than 3% of what
// compression gains; docs/store.md has what it takes on the bench's text.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"math"
	"math/bits"

	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/termtext"
)

const (
	gramsPfx   = "grams-"
	gramsMagic = "racgrams1\n"
	// header: magic, the stream's size (uint64), log2 of the bits
	// (uint32), crc32 of the bitset (uint32)
	gramsHeader = len(gramsMagic) + 8 + 4 + 4
	gramsMinLog = 15 // 4 KiB, one block
	gramsMaxLog = 21 // 256 KiB
	// the bitset is made at 1<<gramsBuildLog bits (512 KiB, which a
	// cache holds better than more), where few grams share a bit, so
	// that its bits set tell how many distinct grams there are; then it
	// is folded to its size
	gramsBuildLog = 22
)

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// gramHash mixes a 4-gram (its bytes lowered, big end first); its low
// bits pick its bit, so a bitset folds in half by OR-ing its halves.
func gramHash(w uint32) uint32 { return uint32((uint64(w) * 0x9E3779B97F4A7C15) >> 32) }

// isHex marks the (lowered) hex digits. 4-grams of hex digits only are
// left out of the filter, on both sides: output with hashes (git log,
// checksums, ids) holds nearly all 65,536 of them, so they would take
// most of its bits and rule nothing out.
var isHex = func() (t [256]bool) {
	for _, c := range []byte("0123456789abcdef") {
		t[c] = true
	}
	return t
}()

// gramRun walks the 4-grams of a text given in pieces.
type gramRun struct {
	w    uint32 // the last four bytes, lowered
	have int    // how many bytes walked, up to 4
	hex  int    // how many of the last bytes are hex digits
}

// next takes byte c and reports whether the 4-gram it ends, run.w, is
// one the filter holds.
func (run *gramRun) next(c byte) bool {
	l := lowerASCII(c)
	run.w = run.w<<8 | uint32(l)
	if isHex[l] {
		run.hex++
	} else {
		run.hex = 0
	}
	if run.have < 4 {
		run.have++
	}
	return run.have == 4 && run.hex < 4
}

// gramSet is a stream's 4-grams being collected.
type gramSet struct{ set []byte }

func newGramSet() *gramSet { return &gramSet{set: make([]byte, 1<<gramsBuildLog/8)} }

func (g *gramSet) feed(run *gramRun, t []byte) {
	for _, c := range t {
		if run.next(c) {
			h := gramHash(run.w) & (1<<gramsBuildLog - 1)
			g.set[h/8] |= 1 << (h % 8)
		}
	}
}

func (g *gramSet) addText(t []byte) { g.feed(&gramRun{}, t) }

// streamGrams collects the 4-grams a search can look at in the stream.
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
		var run gramRun // across reads
		for {
			s, err := br.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull && err != io.EOF {
				return nil, err
			}
			g.feed(&run, s) // the raw grams
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

// addClean adds the 4-grams of a line as a search sees it (line holds at
// most MaxLineText bytes of it), when cleaning changes it: a line it
// leaves alone is its raw bytes (but a final '\r'), already added.
func (g *gramSet) addClean(line []byte) {
	if termtext.NeedsClean(line) {
		g.addText(termtext.CleanLine(line))
	}
}

// filter folds the bitset to its size: three bits for each distinct
// gram (a quarter of them set), at least one block, and no more than
// budget bytes, as long as that leaves two bits a gram; nil when it
// does not (random bytes fill any bitset).
func (g *gramSet) filter(budget int64) (log uint, set []byte) {
	ones := 0
	for _, b := range g.set {
		ones += bits.OnesCount8(b)
	}
	m := float64(int(1) << gramsBuildLog)
	if float64(ones) >= m*0.9 {
		return 0, nil
	}
	n := -m * math.Log(1-float64(ones)/m) // distinct grams, by the bits they set
	log = uint(bits.Len(uint(3 * n)))     // 1<<log >= 3n
	log = min(max(log, gramsMinLog), gramsBuildLog)
	for log > gramsMaxLog || (int64(1)<<log/8+int64(gramsHeader) > budget && log > gramsMinLog) {
		log--
	}
	if float64(int(1)<<log) < 2*n || int64(1)<<log/8+int64(gramsHeader) > budget {
		return 0, nil
	}
	set = append([]byte(nil), g.set...)
	for k := len(set); k > 1<<log/8; k /= 2 {
		half := set[k/2 : k]
		for i := range half {
			set[i] |= half[i]
		}
	}
	return log, set[: 1<<log/8 : 1<<log/8]
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
	if len(text) < 4 || r.Footer == nil {
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
	var run gramRun
	for _, c := range text {
		if !run.next(c) {
			continue
		}
		if h := gramHash(run.w) & (1<<log - 1); set[h/8]&(1<<(h%8)) == 0 {
			return false
		}
	}
	return true
}
