package units

import (
	"math"
	"testing"
	"time"

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

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"},
		{400 * time.Microsecond, "0ms"},
		{850 * time.Millisecond, "850ms"},
		{999 * time.Millisecond, "999ms"},
		{999700 * time.Microsecond, "1.0s"},
		{1200 * time.Millisecond, "1.2s"},
		{2310 * time.Millisecond, "2.3s"},
		{12340 * time.Millisecond, "12.3s"},
		{59960 * time.Millisecond, "1m00s"},
		{3*time.Minute + 4*time.Second, "3m04s"},
		{3*time.Minute + 4600*time.Millisecond, "3m05s"},
		{59*time.Minute + 59*time.Second + 600*time.Millisecond, "1h00m"},
		{2*time.Hour + 5*time.Minute, "2h05m"},
		{2*time.Hour + 5*time.Minute + 31*time.Second, "2h06m"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "1d00h"},
		{76 * time.Hour, "3d04h"},
		{-1500 * time.Millisecond, "-1.5s"},
		{math.MinInt64, "-53376d00h"}, // clamped at 2^62ns: no overflow
	} {
		assert.Equal(t, tc.want, Duration(tc.d), "%v", tc.d)
	}
}

func TestAgo(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "just now"},
		{999 * time.Millisecond, "just now"},
		{-500 * time.Millisecond, "just now"},
		{-time.Hour, "in the future"},
		{12 * time.Second, "12s ago"},
		{59*time.Second + 999*time.Millisecond, "59s ago"},
		{3*time.Minute + 59*time.Second, "3m ago"},
		{2*time.Hour + 59*time.Minute, "2h ago"},
		{23 * time.Hour, "23h ago"},
		{24 * time.Hour, "1d ago"},
		{5*24*time.Hour + 23*time.Hour, "5d ago"},
		{400 * 24 * time.Hour, "400d ago"},
	} {
		assert.Equal(t, tc.want, Ago(now.Add(-tc.d), now), "%v", tc.d)
	}
}
