// Package units renders sizes for people, the one way rac says them in
// every message, table and gc reason: 0 B, 512 B, 4 KiB, 1.5 KiB, 212 MiB.
// It is a domain package (gc's reasons use it) and must never print.
package units

import (
	"fmt"
	"strconv"
	"strings"
)

// Bytes renders a size in binary units with a space. A whole number of a
// unit is shown whole, one decimal below 100 of a unit (without a trailing
// ".0"), none from 100 up. The unit stops at PiB.
func Bytes(n int64) string {
	if n < 0 {
		return "-" + bytesOf(uint64(-(n+1))+1) // -n overflows for the smallest int64
	}
	return bytesOf(uint64(n))
}

func bytesOf(n uint64) string {
	units := [...]string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i, d := 0, uint64(1)
	for i < len(units)-1 && n >= d<<10 {
		d <<= 10
		i++
	}
	switch {
	case n%d == 0:
		return strconv.FormatUint(n/d, 10) + " " + units[i]
	case n/d >= 100:
		return fmt.Sprintf("%.0f %s", float64(n)/float64(d), units[i])
	}
	s := fmt.Sprintf("%.1f", float64(n)/float64(d))
	return strings.TrimSuffix(s, ".0") + " " + units[i]
}
