package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// parseSize reads a size: plain bytes or a number with a unit (KiB, MiB,
// GiB, TiB, or KB/MB/GB/TB as powers of 1000; K/M/G/T as binary).
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.TrimSpace(t[i:])
	if num == "" {
		return 0, fmt.Errorf("invalid size %q: use bytes or a unit like 256MiB", s)
	}
	mult := map[string]float64{
		"": 1, "b": 1,
		"k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
	}[strings.ToLower(unit)]
	if mult == 0 {
		return 0, fmt.Errorf("invalid size %q: unknown unit %q (use B, KiB, MiB, GiB, TiB)", s, unit)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	return int64(f * mult), nil
}

// parseAge reads an age: a Go duration (168h, 90m) or whole days (7d).
func parseAge(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if d, ok := strings.CutSuffix(t, "d"); ok {
		n, err := strconv.ParseFloat(d, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("invalid age %q: use days like 7d or a duration like 168h", s)
		}
		return time.Duration(n * 24 * float64(time.Hour)), nil
	}
	v, err := time.ParseDuration(t)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("invalid age %q: use days like 7d or a duration like 168h", s)
	}
	return v, nil
}

// sizeSetting and ageSetting read a setting and turn a bad value into a
// usage error naming the variable or key.
func (c *config) sizeSetting(key string) (int64, error) {
	v, from := c.value(key)
	n, err := parseSize(v)
	if err != nil {
		return 0, usagef("%s: %v", from, err)
	}
	return n, nil
}

func (c *config) ageSetting(key string) (time.Duration, error) {
	v, from := c.value(key)
	d, err := parseAge(v)
	if err != nil {
		return 0, usagef("%s: %v", from, err)
	}
	return d, nil
}
