package redact

import (
	"bytes"
	"testing"
)

// swarLines are lines whose bytes around each step boundary are the ones
// the eight-byte walks look for, the ones next to them, and others.
func swarLines() [][]byte {
	var lines [][]byte
	parts := []string{"#", "/", "//", " #", " //", "\t#", "\r//", " /x", "a#", " ", "\t", "\r", "\n", "\x00", "\x01", "\"", ".", "0", "\x80", "\xff", "x"}
	for n := 0; n <= 17; n++ {
		for _, p := range parts {
			for _, q := range parts {
				b := append(bytes.Repeat([]byte{'k'}, n), p...)
				b = append(b, bytes.Repeat([]byte{'v'}, 17-n)...)
				lines = append(lines, append(b, q...))
			}
		}
	}
	return append(lines, []byte("AWS_SECRET_ACCESS_KEY=abc/def+ghi # a comment"), []byte("GH_TOKEN=ghp_x // y"))
}

// TestSwarWalksMatchBytes compares lineValueEnd and hasBlank with their
// byte-by-byte versions from every start in every swarLines line.
func TestSwarWalksMatchBytes(t *testing.T) {
	for _, line := range swarLines() {
		for vs := 0; vs <= len(line); vs++ {
			if got, want := lineValueEnd(line, vs), lineValueEndBytes(line, vs); got != want {
				t.Fatalf("lineValueEnd(%q, %d) = %d, want %d", line, vs, got, want)
			}
			if got, want := hasBlank(line[vs:]), hasBlankBytes(line[vs:]); got != want {
				t.Fatalf("hasBlank(%q) = %v, want %v", line[vs:], got, want)
			}
		}
	}
}

// FuzzSwarWalks compares lineValueEnd and hasBlank with their
// byte-by-byte versions on any bytes.
func FuzzSwarWalks(f *testing.F) {
	for _, line := range swarLines()[:40] {
		f.Add(line, 3)
	}
	f.Fuzz(func(t *testing.T, line []byte, vs int) {
		if vs < 0 || vs > len(line) {
			return
		}
		if got, want := lineValueEnd(line, vs), lineValueEndBytes(line, vs); got != want {
			t.Fatalf("lineValueEnd(%q, %d) = %d, want %d", line, vs, got, want)
		}
		if got, want := hasBlank(line[vs:]), hasBlankBytes(line[vs:]); got != want {
			t.Fatalf("hasBlank(%q) = %v, want %v", line[vs:], got, want)
		}
	})
}
