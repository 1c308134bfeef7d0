package redact

import (
	"bytes"
	"math"
	"testing"
	"time"
)

// reportMinThroughput runs fn on each of parts (and its index) in every iteration of b and
// reports, besides ns/op, min-MB/s: the size of parts over the sum of each
// part's fastest time in any iteration. On a shared machine a neighbour
// slows some iterations of a part, not all of them, so the minimum moves
// by a fraction of what the mean does: at load average 4 on the 2-core
// development machine, under 1% from one run to the next, against up to
// 20% for MB/cpu-s. It is the figure to compare a small step by.
func reportMinThroughput(b *testing.B, parts [][]byte, fn func(i int, p []byte)) {
	total := 0
	mins := make([]time.Duration, len(parts))
	for i, p := range parts {
		total += len(p)
		mins[i] = math.MaxInt64
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		for i, p := range parts {
			start := time.Now()
			fn(i, p)
			if d := time.Since(start); d < mins[i] {
				mins[i] = d
			}
		}
	}
	var sum time.Duration
	for _, d := range mins {
		sum += d
	}
	b.ReportMetric(float64(total)/1e6/sum.Seconds(), "min-MB/s")
}

// lineParts cuts data into pieces of whole lines of at most size bytes (a
// longer line is a piece of its own).
func lineParts(data []byte, size int) [][]byte {
	var parts [][]byte
	for len(data) > 0 {
		n := min(len(data), size)
		if n < len(data) {
			if i := bytes.LastIndexByte(data[:n], '\n'); i >= 0 {
				n = i + 1
			} else if i := bytes.IndexByte(data[n:], '\n'); i >= 0 {
				n += i + 1
			} else {
				n = len(data)
			}
		}
		parts = append(parts, data[:n])
		data = data[n:]
	}
	return parts
}

// BenchmarkRegionShapes redacts every shape of BenchmarkWriterShapes with
// one engine, a region of up to 128 KiB of whole lines at a time, as a
// worker of the Writer does, without the Writer around it (no copies into
// regions, no goroutines, no ordering): the scan, the quiet checks and the
// rules, with the vector prefilter built first and the engine's line cache
// warm after the first iteration. Its min-MB/s (reportMinThroughput) is the
// figure to compare a change to the redaction itself by.
func BenchmarkRegionShapes(b *testing.B) {
	r := devRedactor(b)
	r.auto().buildTeddy()
	for _, s := range benchShapes() {
		b.Run(s.name, func(b *testing.B) {
			e := newEngine(r)
			var out []byte
			var st mlState
			parts := lineParts(s.data, 128<<10)
			reportMinThroughput(b, parts, func(i int, p []byte) {
				if i == 0 {
					st = mlState{} // every iteration starts the stream anew
				}
				out, _ = e.region(out[:0], p, &st)
			})
		})
	}
}
