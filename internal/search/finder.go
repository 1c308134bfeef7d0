package search

import "bytes"

// longNeedle is the needle length from which bytes.Index gives way to
// the custom finder: below it bytes.Index is several times faster than
// the pair-Horspool skip (6 bytes: 4.1 against 1.2 GB/s), at 24 they are
// even, above it the skip wins more the longer the needle (BenchmarkFinder,
// figures in bench_test.go).
const longNeedle = 24

// maxSkipNeedle is the longest needle the skip table serves: its shifts
// are bytes.
const maxSkipNeedle = 256

// finder looks for a literal, with ASCII case folding or without.
//
// A short needle is found by bytes.Index, from its rarest byte on when
// that is not its first (see suffix), or when folding by memchr of its
// rarest byte in both cases. A long one by memchr of its rarest byte when
// that byte is rare in the text, else by Horspool over byte pairs, which
// steps over most of the text without looking at it: that is what keeps a
// long literal search as fast as grep's.
type finder struct {
	needle []byte // lower-cased when folding
	fold   bool   // folding, and the needle has a letter
	// rare-byte search: the byte at needle[rare], in its two cases (the
	// same byte twice when it is no letter or when not folding)
	rare           int
	rareLo, rareUp byte
	useRare        bool
	// suffix: bytes.Index of needle[rare:], then needle[:rare] checked
	// before the hit. bytes.Index runs at memchr speed while its first
	// byte is rare, and falls back to a brute force several times slower
	// after too many false starts: "connection refused" in build and log
	// output, whose 'c' is everywhere, went from 1.9 to 6.8 GB/s
	// (BenchmarkFinderCommonFirst).
	suffix bool
	skip2  *[pairSlots]uint8 // Horspool over byte pairs: most pairs of the text are in no needle, so most steps skip n-1 bytes
}

// newFinder prepares a search for needle (lower-cased already when fold);
// sample is text like what will be searched, for choosing the rare byte.
func newFinder(needle []byte, fold bool, sample []byte) *finder {
	f := &finder{needle: needle}
	n := len(needle)
	if fold {
		for _, c := range needle {
			if c >= 'a' && c <= 'z' {
				f.fold = true
			}
		}
	}
	var hist [256]int
	sample = sample[:min(len(sample), 64<<10)]
	for _, c := range sample {
		hist[c]++
	}
	count := func(c byte) int {
		if f.fold && c >= 'a' && c <= 'z' {
			return hist[c] + hist[upper(c)]
		}
		return hist[c]
	}
	rarer := func(a, b byte) bool {
		if ca, cb := count(a), count(b); ca != cb {
			return ca < cb
		}
		return byteRank[a] < byteRank[b]
	}
	for i, c := range needle {
		if rarer(c, needle[f.rare]) {
			f.rare = i
		}
	}
	if n < longNeedle && !f.fold {
		// bytes.Index, from the rare byte when the first is commoner
		f.suffix = f.rare > 0 && rarer(needle[f.rare], needle[0])
		return f
	}
	f.rareLo, f.rareUp = needle[f.rare], needle[f.rare]
	if f.fold {
		f.rareUp = upper(f.rareLo)
	}
	// memchr of a byte that is rare in this text is the fastest search;
	// when every byte of a long needle is common, skip with Horspool
	if n < longNeedle || n > maxSkipNeedle || count(needle[f.rare])*512 <= len(sample) {
		f.useRare = true
		return f
	}
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
	return f
}

// index returns the first index of the needle in hay, or -1.
func (f *finder) index(hay []byte) int {
	switch {
	case len(f.needle) == 0:
		return 0
	case f.useRare:
		return f.indexRare(hay)
	case f.suffix:
		return f.indexSuffix(hay)
	case f.skip2 != nil && f.fold:
		return f.indexSkipFold(hay)
	case f.skip2 != nil:
		return f.indexSkip(hay)
	}
	return bytes.Index(hay, f.needle)
}

// indexSuffix finds needle[rare:] and checks the bytes before it. The
// first hit that checks is the first match: a match at s has its suffix
// at s+rare, and an earlier suffix that checked would be an earlier match.
//
// The rare byte was chosen on a sample, the first block of a stream; when
// the text further on has the suffix far more often than the needle (the
// sample misled), every false start costs a call, so after more false
// starts than the text read allows (bytes.Index's own rule: 4 plus one
// per 16 bytes) it hands the rest to plain bytes.Index.
func (f *finder) indexSuffix(hay []byte) int {
	pre, suf := f.needle[:f.rare], f.needle[f.rare:]
	// the byte before the suffix is checked inline first: most false
	// starts end there without a call (a suffix of one common byte, 'd'
	// of "connection closed" in the bench's log lines, stops every 60
	// bytes; 10% less CPU for the search there)
	before := pre[len(pre)-1]
	misses := 0
	for pos := f.rare; pos < len(hay); {
		var k int
		if len(suf) == 1 {
			k = bytes.IndexByte(hay[pos:], suf[0])
		} else {
			k = bytes.Index(hay[pos:], suf)
		}
		if k < 0 {
			return -1
		}
		i := pos + k
		if hay[i-1] == before && bytes.Equal(hay[i-f.rare:i], pre) {
			return i - f.rare
		}
		pos = i + 1
		if misses++; misses > 4+pos>>4 {
			if j := bytes.Index(hay[pos-f.rare:], f.needle); j >= 0 {
				return pos - f.rare + j
			}
			return -1
		}
	}
	return -1
}

func (f *finder) indexSkip(hay []byte) int {
	n := len(f.needle)
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

// indexSkipFold is indexSkip with the text lower-cased as it is read.
func (f *finder) indexSkipFold(hay []byte) int {
	n := len(f.needle)
	last, prev := f.needle[n-1], f.needle[n-2]
	skip := f.skip2
	for e := n - 1; e < len(hay); {
		a, c := lower[hay[e-1]], lower[hay[e]]
		if c == last && a == prev && equalFold(hay[e-n+1:e-1], f.needle[:n-2]) {
			return e - n + 1
		}
		e += int(skip[pairSlot(a, c)])
	}
	return -1
}

// indexRare finds the needle by memchr of its rarest byte, in either case
// when folding, remembering the next position of each case so the text is
// scanned once per case, not once per candidate.
func (f *finder) indexRare(hay []byte) int {
	n := len(f.needle)
	nextLo, nextUp := -2, -2 // -2: not looked for yet; -1: none left
	if f.rareLo == f.rareUp {
		nextUp = -1
	}
	find := func(next int, c byte, pos int) int {
		if next == -1 || next >= pos {
			return next
		}
		if k := bytes.IndexByte(hay[pos:], c); k >= 0 {
			return pos + k
		}
		return -1
	}
	for pos := f.rare; pos < len(hay); {
		nextLo = find(nextLo, f.rareLo, pos)
		nextUp = find(nextUp, f.rareUp, pos)
		i := nextLo
		if i < 0 || (nextUp >= 0 && nextUp < i) {
			i = nextUp
		}
		if i < 0 {
			return -1
		}
		start := i - f.rare
		if start+n <= len(hay) && f.equal(hay[start:start+n]) {
			return start
		}
		pos = i + 1
	}
	return -1
}

func (f *finder) equal(text []byte) bool {
	if f.fold {
		return equalFold(text, f.needle)
	}
	return bytes.Equal(text, f.needle)
}

// equalFold reports whether text equals needle (lower-case) with ASCII
// letters of text folded.
func equalFold(text, needle []byte) bool {
	for i, c := range needle {
		if lower[text[i]] != c {
			return false
		}
	}
	return true
}

// lower maps a byte to its ASCII lower case: -i folds ASCII only, as
// LC_ALL=C grep -i does.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// asciiLower appends b with ASCII letters lower-cased to dst[:0].
func asciiLower(dst, b []byte) []byte {
	dst = append(dst[:0], b...)
	for i, c := range dst {
		dst[i] = lower[c]
	}
	return dst
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
	for i := 0; i < len(common); i++ {
		r[common[i]] = uint8(255 - i)
	}
	return r
}()
