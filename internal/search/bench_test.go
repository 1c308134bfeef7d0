package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/rac-cli/rac/internal/termtext"
)

// logText is 4 MiB of build-log-like lines: common letters, digits and
// punctuation, the text a search mostly scans without finding anything.
func logText() []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"compiling", "request", "status=200", "path=/api/v1/items", "ok", "test", "server:", "INFO", "WARN", "dur=12ms", "id=4711", "github.com/rac-cli/rac/internal/record", "--- PASS:", "TestLinesMergedAndNumbered", "(0.00s)", "the", "of", "and", "connection", "accepted", "from", "10.0.0.1:443"}
	var b bytes.Buffer
	for b.Len() < 4<<20 {
		fmt.Fprintf(&b, "2026-05-01T12:%02d:%02d.%03dZ", rng.IntN(60), rng.IntN(60), rng.IntN(1000))
		for range 4 + rng.IntN(8) {
			b.WriteByte(' ')
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// absent needles of growing length, made of the text's common bytes.
const needleSource = "patz=/api/v1/items request failed: connection refused by 10.0.0.9 after 30s"

// BenchmarkFinder compares bytes.Index with the pair-Horspool skip on
// needles that are not in the text (a whole scan), and the folded finders.
// Measured on the development machine (2 cores, go1.26, GB/s, bytes.Index
// against skip; a noisy VM, so read the ratios):
//
//	len  4: 3.9 vs 0.8   len 12: 4.2 vs 2.4   len 24: 4.3 vs 4.3   len 48: 3.6 vs 7.6
//	len  6: 4.1 vs 1.2   len 16: 4.3 vs 3.2   len 32: 4.0 vs 4.5   len 64: 4.1 vs 10.2
//
// and for a needle starting with a common byte ("the ..."), where
// bytes.Index falls back to its brute force: len 24: 1.7 vs 4.1, len 32:
// 1.7 vs 5.8, len 48: 1.6 vs 8.4. Hence longNeedle = 24. Folded, short:
// memchr of the rare byte in both cases 4.6-5.3 GB/s against 1.4 for
// lowering the text and bytes.Index.
func BenchmarkFinder(b *testing.B) {
	hay := logText()
	for _, n := range []int{4, 5, 6, 8, 10, 12, 16, 24, 32, 48, 64} {
		needle := []byte(needleSource[:n])
		if bytes.Contains(hay, needle) {
			b.Fatalf("needle %q is in the text", needle)
		}
		var skip [pairSlots]uint8
		for i := range skip {
			skip[i] = uint8(n - 1)
		}
		for j := 1; j <= n-2; j++ {
			k := pairSlot(needle[j-1], needle[j])
			skip[k] = min(skip[k], uint8(n-1-j))
		}
		f := &finder{needle: needle, skip2: &skip}
		b.Run(fmt.Sprintf("len=%d/bytes.Index", n), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				bytes.Index(hay, needle)
			}
		})
		b.Run(fmt.Sprintf("len=%d/skip", n), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				f.indexSkip(hay)
			}
		})
		fold := bytes.ToLower(needle)
		rf := newFinder(fold, true, hay)
		rf.skip2, rf.useRare = nil, true
		b.Run(fmt.Sprintf("len=%d/fold-rare", n), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				rf.index(hay)
			}
		})
		var low []byte
		b.Run(fmt.Sprintf("len=%d/fold-lower+Index", n), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				low = asciiLower(low, hay)
				bytes.Index(low, fold)
			}
		})
		sf := &finder{needle: fold, fold: true, skip2: &skip}
		b.Run(fmt.Sprintf("len=%d/fold-skip", n), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				sf.index(hay)
			}
		})
	}
}

// BenchmarkFinderCommonFirst: short needles whose first byte is common in
// the text and whose later bytes are rarer, as newFinder sees them: the
// suffix search against plain bytes.Index. Measured (GB/s, same machine
// as above): "connection refused" 1.9 vs 6.8, "the needle" 1.3 vs 3.9,
// "status=500" 1.5 vs 3.5 (bytes.Index, then the suffix search).
func BenchmarkFinderCommonFirst(b *testing.B) {
	hay := logText()
	for _, nd := range []string{"connection refused", "the needle", "status=500"} {
		needle := []byte(nd)
		if bytes.Contains(hay, needle) {
			b.Fatalf("needle %q is in the text", needle)
		}
		f := newFinder(needle, false, hay)
		if !f.suffix {
			b.Fatalf("needle %q: newFinder chose no suffix search", needle)
		}
		b.Run(fmt.Sprintf("%q/bytes.Index", nd), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				bytes.Index(hay, needle)
			}
		})
		b.Run(fmt.Sprintf("%q/suffix", nd), func(b *testing.B) {
			b.SetBytes(int64(len(hay)))
			for b.Loop() {
				f.index(hay)
			}
		})
	}
}

// BenchmarkIndexSpecial is the cost of finding the lines cleaning acts on
// in text that has none (the common case), against the three memchr scans
// the engine used before (which missed BEL and the other controls).
func BenchmarkIndexSpecial(b *testing.B) {
	hay := logText()
	b.Run("IndexSpecial", func(b *testing.B) {
		b.SetBytes(int64(len(hay)))
		for b.Loop() {
			termtext.IndexSpecial(hay)
		}
	})
	b.Run("three-IndexByte", func(b *testing.B) {
		b.SetBytes(int64(len(hay)))
		for b.Loop() {
			for _, c := range []byte{0x1b, '\r', '\b'} {
				bytes.IndexByte(hay, c)
			}
		}
	})
}

// BenchmarkRecording is a whole search of a 16 MiB recording with no hit:
// the block engine's speed (finder, special-byte scan, newline count).
func BenchmarkRecording(b *testing.B) {
	sd := newSession(b, "s")
	text := logText()
	var ws []write
	for range 4 {
		ws = append(ws, out(string(text)))
	}
	rec := open(b, sd, makeRecording(b, sd, 0, 0, ws...))
	for _, o := range []Options{
		{Text: "panic:"}, {Text: "fatal"}, {Text: "FATAL", IgnoreCase: true},
		{Text: "connection refused by 10.0.0.9 after 30s"}, {Text: "Connection Refused By 10.0.0.9 after 30s", IgnoreCase: true},
	} {
		s, err := New(o)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%q/fold=%v", o.Text, o.IgnoreCase), func(b *testing.B) {
			b.SetBytes(int64(4 * len(text)))
			for b.Loop() {
				if err := s.Recording(rec, func(Hit) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
