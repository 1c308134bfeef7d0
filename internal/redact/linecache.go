package redact

import (
	"bytes"
	"encoding/binary"
)

// Dense output repeats its lines: every pod of kubectl get -o yaml has the
// same "- name: DB_PASSWORD", "secretKeyRef:" and "key: password" lines, a
// diff of a Go struct the same "Token: cfg.Token," on its -, + and context
// lines, every request of curl -v the same "> User-Agent: curl/8.5.0". Each
// holds a hit that is not quiet (quiet.go), and the rules take 100 to 200
// ns to find that it holds no secret. The line cache remembers, per
// engine, lines the rules left unchanged; region passes over the same line
// when it comes again. It is exact: a line is found only by its whole
// bytes, compared, never by a hash alone; and only where its redaction is
// a function of its bytes: it starts with no multi-line state open, holds
// no ESC (those go through termLine), and its analysis opened no state
// (e.hasPending) and made no span. TestLineCacheLosesNothing and
// FuzzLineCache compare the redactor with and without it.

const (
	lineCacheSlots = 512 // direct-mapped: a line's slot is its hash's low bits
	lineCacheMax   = 61  // longer lines are not kept: they seldom repeat
	// lineCacheFrom is the smallest src for which region uses the cache:
	// a short string (String, Bytes) is redacted once, and the pooled
	// engines that do it should not each hold a cache.
	lineCacheFrom = 8 << 10
)

// lineCacheSlot is one cache line of 64 bytes. tag is the hash of the
// last line the rules left unchanged here: a line is kept the second time
// it comes in a row for its slot, so output whose lines never repeat
// (git log's subjects, JSON logs) costs no copy per line.
type lineCacheSlot struct {
	tag uint16
	n   uint8
	key [lineCacheMax]byte
}

type lineCache struct {
	slots [lineCacheSlots]lineCacheSlot
}

func newLineCache() *lineCache { return &lineCache{} }

// slot returns the slot of line, which is at most lineCacheMax bytes, and
// its tag. The hash reads the first and the last eight bytes and the
// length, a few cycles where a hash of every byte costs more than a miss
// saves: two lines that share them share a slot, and has compares the
// whole line.
func (c *lineCache) slot(line []byte) (*lineCacheSlot, uint16) {
	var h uint64
	if n := len(line); n >= 8 {
		h = binary.LittleEndian.Uint64(line)*0x9e3779b97f4a7c15 ^ binary.LittleEndian.Uint64(line[n-8:])*0xc2b2ae3d27d4eb4f
	} else {
		for _, b := range line {
			h = h<<8 | uint64(b)
		}
		h *= 0x9e3779b97f4a7c15
	}
	h ^= uint64(len(line)) * 0x165667b19e3779f9
	return &c.slots[(h>>40)%lineCacheSlots], uint16(h >> 16)
}

// has reports whether line was kept: its redaction leaves it as it is.
func (c *lineCache) has(s *lineCacheSlot, line []byte) bool {
	return int(s.n) == len(line) && len(line) > 0 && bytes.Equal(s.key[:len(line)], line)
}

// keep notes line, which the rules left unchanged from an idle state
// without opening one, in its slot: its tag the first time, its bytes when
// the tag is there already.
func (c *lineCache) keep(s *lineCacheSlot, tag uint16, line []byte) {
	if s.tag != tag {
		s.tag, s.n = tag, 0
		return
	}
	s.n = uint8(copy(s.key[:], line))
}
