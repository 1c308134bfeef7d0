// Package units renders sizes and durations for people, the one way rac
// says them in every message, table, gc reason and MCP answer: 0 B,
// 512 B, 4 KiB, 1.5 KiB, 212 MiB; 850ms, 2.3s, 3m04s, 2h05m, 3d04h.
// It is a domain package (gc's reasons use it) and must never print.
package units

import (
	"fmt"
	"strconv"
	"strings"
	"time"
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

// Duration renders how long something took, the one way rac says it in
// list, explain, the summary and the MCP tools, with two or three
// significant figures: 850ms, 1.2s, 12.3s, 3m04s, 2h05m, 3d04h.
// Each form is rounded to its last figure first, so 59.96s is 1m00s, not
// 60.0s.
func Duration(d time.Duration) string {
	if d < 0 {
		return "-" + Duration(-max(d, -1<<62))
	}
	if ms := d.Round(time.Millisecond); ms < time.Second {
		return strconv.FormatInt(int64(ms/time.Millisecond), 10) + "ms"
	}
	if t := d.Round(100 * time.Millisecond); t < time.Minute {
		return strconv.FormatFloat(t.Seconds(), 'f', 1, 64) + "s"
	}
	if s := d.Round(time.Second); s < time.Hour {
		return fmt.Sprintf("%dm%02ds", s/time.Minute, s%time.Minute/time.Second)
	}
	if m := d.Round(time.Minute); m < 24*time.Hour {
		return fmt.Sprintf("%dh%02dm", m/time.Hour, m%time.Hour/time.Minute)
	}
	h := d.Round(time.Hour)
	return fmt.Sprintf("%dd%02dh", h/(24*time.Hour), h%(24*time.Hour)/time.Hour)
}

// Ago says how long before now t was, the one way rac says it (list's
// STARTED, doctor's last gc), in its largest whole unit, rounded
// down: "just now", "12s ago", "3m ago", "2h ago", "5d ago". A t more than
// a second after now (a clock moved back) is "in the future": never a
// negative age.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < -time.Second:
		return "in the future"
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s ago"
	case d < time.Hour:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m ago"
	case d < 24*time.Hour:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h ago"
	}
	return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d ago"
}
