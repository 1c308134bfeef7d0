package redact

import (
	"io"
	"sync"
	"testing"
)

var benchCorpus = sync.OnceValue(func() []byte { return MixedCorpus(64<<20, 1) })

// BenchmarkWriter feeds 64 MiB of mixed output through a Writer in 32 KiB
// writes, as io.Copy from a pipe would.
func BenchmarkWriter(b *testing.B) {
	data := benchCorpus()
	r, err := New(Config{Environ: []string{"GH_TOKEN=not-in-the-corpus-0123456789", "HOME=/home/dev"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name    string
		workers int
	}{{"single", 1}, {"parallel", 2}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: bc.workers})
				for p := data; len(p) > 0; {
					n := min(len(p), 32<<10)
					if _, err := w.Write(p[:n]); err != nil {
						b.Fatal(err)
					}
					p = p[n:]
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkScan measures the prefilter alone.
func BenchmarkScan(b *testing.B) {
	data := benchCorpus()
	r, _ := New(Config{})
	b.SetBytes(int64(len(data)))
	var hits []hit
	for b.Loop() {
		hits = r.ac.scan(data, hits[:0])
	}
	b.ReportMetric(float64(len(hits)), "hits")
}

func BenchmarkMixedCorpus(b *testing.B) {
	b.SetBytes(16 << 20)
	for b.Loop() {
		MixedCorpus(16<<20, 2)
	}
}
