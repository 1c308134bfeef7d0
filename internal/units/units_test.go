package units

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 512: "512 B", 1024: "1 KiB", 1536: "1.5 KiB", 4096: "4 KiB",
		3000: "2.9 KiB", 212 << 20: "212 MiB", 150<<20 + 1: "150 MiB", -2048: "-2 KiB",
		math.MinInt64: "-8192 PiB",
	} {
		assert.Equal(t, want, Bytes(n), n)
	}
}
