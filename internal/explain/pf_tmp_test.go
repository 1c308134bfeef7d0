package explain

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

func benchLog(size int) []byte {
	r := rand.New(rand.NewSource(1))
	words := []string{"request", "user", "served", "cache", "hit", "miss", "GET", "POST", "/api/v1/items", "took", "latency", "bytes", "handler", "session", "started", "worker", "queue", "depth", "connection", "pool", "open", "closed", "ok", "status", "200", "the", "of", "and", "to", "with"}
	var b bytes.Buffer
	i := 0
	for b.Len() < size {
		i++
		fmt.Fprintf(&b, "2024-05-01T12:%02d:%02d.%03dZ INFO ", i/60%60, i%60, i%1000)
		for j := 0; j < 8+r.Intn(6); j++ {
			b.WriteString(words[r.Intn(len(words))])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "id=%x\n", r.Int63())
	}
	return b.Bytes()
}

func BenchmarkPrefilter(b *testing.B) {
	data := benchLog(64 << 20)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if pf.index(data) >= 0 {
			b.Fatal("hit")
		}
	}
}

func BenchmarkLoopOnly(b *testing.B) {
	data := benchLog(64 << 20)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		for _, c := range data {
			if pf.at[uint16(c)] != 0 {
				n++
			}
		}
	}
	b.Logf("hits %d of %d", n/b.N, len(data))
}
