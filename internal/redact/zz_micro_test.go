package redact
import "testing"
func BenchmarkMicroClassSum(b *testing.B) {
	data := benchCorpus()
	r, _ := New(Config{})
	b.SetBytes(int64(len(data)))
	var sum uint32
	for b.Loop() {
		c := &r.ac.class
		for _, x := range data { sum += uint32(c[x]) }
	}
	_ = sum
}
func BenchmarkMicroDep(b *testing.B) {
	data := benchCorpus()
	r, _ := New(Config{})
	b.SetBytes(int64(len(data)))
	var s uint32
	for b.Loop() {
		t := r.ac.trans; c := &r.ac.class
		for _, x := range data { s = t[s+uint32(c[x])] &^ outFlag }
	}
	_ = s
}
func BenchmarkMicroScanChunk(b *testing.B) {
	data := benchCorpus()
	r, _ := New(Config{})
	b.SetBytes(int64(len(data)))
	var hits []hit
	for b.Loop() {
		for p := data; len(p) > 0; { n := min(len(p), 32<<10); hits = r.ac.scan(p[:n], hits[:0]); p = p[n:] }
	}
}
