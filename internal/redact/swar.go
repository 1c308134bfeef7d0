package redact

import (
	"encoding/binary"
	"math/bits"
)

// The walks over a value's bytes that run on every assignment with a
// secret-like name (an environment dump's GH_TOKEN=ghp_...) look at eight
// bytes a step. bytesEq flags the bytes of a step that equal c, and may
// flag a byte above one of them: the lowest flagged byte is exact, and a
// step with no flag holds no c. Each walk keeps its byte-by-byte
// version beside it (lineValueEndBytes, hasBlankBytes), which the tests
// and fuzz targets compare it with.

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// load8 is the eight bytes at b[i:], little endian (i+8 <= len(b)).
func load8(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i:]) }

// bytesEq flags, in the high bit of each byte, the bytes of x that are c.
func bytesEq(x uint64, c byte) uint64 {
	y := x ^ (swarOnes * uint64(c))
	return (y - swarOnes) &^ y & swarHighs
}

// flagged is the index in its step of the lowest flagged byte of m != 0.
func flagged(m uint64) int { return bits.TrailingZeros64(m) >> 3 }
