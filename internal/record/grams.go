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
// The file also holds a region map: a bit for each 64 KiB (or more, see
// regionMap) of the stream's kept bytes, as the pieces give them one
// after the other, set when the region holds a byte that cleaning acts on
// (termtext.IndexSpecial, the byte after it deciding for a carriage
// return and 0xC2). A search must clean every line holding such a byte;
// where the map says a region holds none it skips the scan for them
// (Filter.Special), which on plain output was a fifth of the time to grep
// a compressed recording for a text in every frame (docs/store.md).
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
	gramsPfx = "grams-"
	// version 1: magic, the stream's size (uint64), log2 of the bits
	// (uint32), crc32 of the bitset (uint32), the bitset
	gramsMagic1  = "racgrams1\n"
	gramsHeader1 = len(gramsMagic1) + 8 + 4 + 4
	// version 2 (written since): magic, the stream's size (uint64), log2
	// of the bits (uint32), crc32 of the bitset and the region map
	// (uint32), log2 of a region's bytes (uint32), the region map's
	// length (uint32), the bitset, the region map (see regionMap)
	gramsMagic  = "racgrams2\n"
	gramsHeader = len(gramsMagic) + 8 + 4 + 4 + 4 + 4
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

// gramSet is a stream's 4-grams being collected, and its region map.
type gramSet struct {
	set     []byte
	regions regionMap
}

func newGramSet(regionLog uint) *gramSet {
	return &gramSet{set: make([]byte, 1<<gramsBuildLog/8), regions: regionMap{log: regionLog}}
}

const (
	// regionMinLog: regions of 64 KiB, so that a few lines a cleaning acts
	// on make a search clean little around them
	regionMinLog = 16
	// regionMaxBits bounds the map (8 KiB): a longer stream has larger
	// regions
	regionMaxBits = 1 << 16
)

// regionMap marks the regions of a stream's kept bytes (1<<log bytes
// each, the first at kept byte 0) that may hold a byte cleaning acts on.
type regionMap struct {
	log  uint
	bits []byte
}

func (m *regionMap) set(off int64) {
	i := off >> m.log
	for i/8 >= int64(len(m.bits)) {
		m.bits = append(m.bits, 0)
	}
	m.bits[i/8] |= 1 << (i % 8)
}

func (m *regionMap) isSet(i int64) bool {
	return i/8 >= int64(len(m.bits)) || m.bits[i/8]&(1<<(i%8)) != 0
}

// mark sets the regions of the bytes of s, which starts at kept byte off,
// that cleaning acts on. A carriage return or 0xC2 that ends s (a read
// that stopped inside a line, or the piece's end) is marked whatever
// follows it: a region is never clean by mistake.
func (m *regionMap) mark(s []byte, off int64) {
	for from := 0; from < len(s); {
		j := termtext.IndexSpecial(s[from:])
		if j < 0 {
			break
		}
		at := off + int64(from+j)
		m.set(at)
		from = int((at>>m.log+1)<<m.log - off) // the next region
	}
	if n := len(s); n > 0 && (s[n-1] == '\r' || s[n-1] == 0xc2) {
		m.set(off + int64(n-1))
	}
}

// coarsen doubles the regions until the map takes at most regionMaxBits
// bits, a region holding a marked byte when either half did.
func (m *regionMap) coarsen(size int64) {
	for size>>m.log >= regionMaxBits {
		half := make([]byte, len(m.bits)/2+1)
		for i := range len(m.bits) * 8 {
			if m.bits[i/8]&(1<<(i%8)) != 0 {
				j := i / 2
				half[j/8] |= 1 << (j % 8)
			}
		}
		m.bits, m.log = half, m.log+1
	}
	// as many bytes as the kept bytes have regions: a region past the
	// last marked one is clean
	n := int((size>>m.log)/8 + 1)
	if len(m.bits) > n {
		m.bits = m.bits[:n]
	}
	for len(m.bits) < n {
		m.bits = append(m.bits, 0)
	}
}

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
func (r *Recording) streamGrams(stream string, regionLog uint) (*gramSet, error) {
	pieces, closeFn, err := r.Pieces(stream)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	g := newGramSet(regionLog)
	var off int64 // the kept bytes walked
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
			g.regions.mark(s, off)
			off += int64(len(s))
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
func (r *Recording) writeGrams(stream string, zst int64, o CompressOptions) error {
	size, ok := r.storedBytes(stream)
	if !ok {
		return nil
	}
	rlog := uint(regionMinLog)
	if o.RegionLog > 0 {
		rlog = uint(min(o.RegionLog, 62))
	}
	g, err := r.streamGrams(stream, rlog)
	if err != nil {
		return err
	}
	budget := zst / 32
	if o.AllGrams {
		budget = 1 << 40
	}
	log, set := g.filter(budget)
	if set == nil {
		return nil
	}
	g.regions.coarsen(size)
	b := make([]byte, 0, gramsHeader+len(set)+len(g.regions.bits))
	b = append(b, gramsMagic...)
	b = binary.LittleEndian.AppendUint64(b, uint64(size))
	b = binary.LittleEndian.AppendUint32(b, uint32(log))
	b = binary.LittleEndian.AppendUint32(b, crc32.Update(crc32.ChecksumIEEE(set), crc32.IEEETable, g.regions.bits))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.regions.log))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(g.regions.bits)))
	b = append(b, set...)
	b = append(b, g.regions.bits...)
	_, err = r.replaceFile(gramsPfx+stream, func(w io.Writer) (int64, error) {
		n, err := w.Write(b)
		return int64(n), err
	})
	return err
}

// Filter is what a compressed stream's grams file says of it: which texts
// no line of it holds (MayHold), and where it holds no byte cleaning acts
// on (Special). The nil Filter, for a stream without one, says nothing.
type Filter struct {
	log     uint
	set     []byte
	regions *regionMap // nil in a version 1 file
}

// Filter reads the stream's filter: nil when it has none (the stream is
// raw, or small, or was compressed before filters were) or one that does
// not hold (damaged, or made for another size of the stream).
func (r *Recording) Filter(stream string) *Filter {
	if r.Footer == nil {
		return nil
	}
	size, ok := r.storedBytes(stream)
	if !ok {
		return nil
	}
	maxRegions := int64(regionMaxBits/8 + 1)
	b, err := store.ReadSmallFile(r.dir, gramsPfx+stream, int64(gramsHeader)+1<<gramsMaxLog/8+maxRegions)
	if err != nil {
		return nil // none, or unreadable: search
	}
	v2 := bytes.HasPrefix(b, []byte(gramsMagic))
	if !v2 && !bytes.HasPrefix(b, []byte(gramsMagic1)) || v2 && len(b) < gramsHeader || len(b) < gramsHeader1 {
		return nil
	}
	h := b[len(gramsMagic):] // both magics are as long
	f := &Filter{log: uint(binary.LittleEndian.Uint32(h[8:]))}
	body := b[gramsHeader1:]
	if v2 {
		rlog, rlen := uint(binary.LittleEndian.Uint32(h[16:])), int64(binary.LittleEndian.Uint32(h[20:]))
		body = b[gramsHeader:]
		if rlog > 62 || rlen != (size>>rlog)/8+1 || rlen > maxRegions || int64(len(body)) < rlen {
			return nil
		}
		f.regions = &regionMap{log: rlog, bits: body[int64(len(body))-rlen:]}
		f.set = body[:int64(len(body))-rlen]
	} else {
		f.set = body
	}
	if int64(binary.LittleEndian.Uint64(h)) != size || f.log < gramsMinLog || f.log > gramsMaxLog ||
		len(f.set) != 1<<f.log/8 || crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(h[12:]) {
		return nil
	}
	return f
}

// MayHold reports whether a line of the stream may hold text (ASCII case
// folded or not): false only when the stream's filter rules it out. It
// says true when it cannot tell: text under four bytes, or no filter
// (see Recording.Filter).
func (r *Recording) MayHold(stream string, text []byte) bool {
	return r.Filter(stream).MayHold(text)
}

// MayHold is Recording.MayHold with the filter read.
func (f *Filter) MayHold(text []byte) bool {
	if f == nil || len(text) < 4 {
		return true
	}
	var run gramRun
	for _, c := range text {
		if !run.next(c) {
			continue
		}
		if h := gramHash(run.w) & (1<<f.log - 1); f.set[h/8]&(1<<(h%8)) == 0 {
			return false
		}
	}
	return true
}

// Special returns the first run of the stream's kept bytes (counted
// over its pieces one after the other, as Pieces gives them) at or after
// kept byte off that may hold a byte cleaning acts on, as [start, end):
// the bytes from off to start and from end to the next run hold none
// (termtext.IndexSpecial finds nothing there, whatever line or block they
// are searched in). start is -1 when none is left before the end of the
// stream. The nil Filter, or a
// version 1 one, cannot tell: everything from off may.
func (f *Filter) Special(off int64) (start, end int64) {
	if f == nil || f.regions == nil {
		return off, math.MaxInt64
	}
	m := f.regions
	i := off >> m.log
	n := int64(len(m.bits)) * 8
	for i < n && !m.isSet(i) {
		// a byte of the map at a time while it is all clear
		if i%8 == 0 && m.bits[i/8] == 0 {
			i += 8
			continue
		}
		i++
	}
	if i >= n {
		// past the map (the stream holds more than the size it was made
		// for, which Filter refuses): cannot tell
		if off < n<<m.log {
			return -1, -1
		}
		return off, math.MaxInt64
	}
	j := i + 1
	for j < n && m.isSet(j) {
		j++
	}
	if j >= n {
		return max(off, i<<m.log), math.MaxInt64
	}
	return max(off, i<<m.log), j << m.log
}
