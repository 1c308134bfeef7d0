package explain

import (
	"bytes"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"
)

// bigLog is a service log of about size bytes: INFO lines with timestamps,
// ids and paths, one in 20 holding a word the prefilter stops at without
// it being an error ("retry_errors=0", "/api/errors", "stderr"), a WARN
// line with a term every 5,000 lines, and one ERROR line in the middle.
func bigLog(size int) []byte {
	r := rand.New(rand.NewSource(1))
	words := []string{"request", "user", "served", "cache", "hit", "miss", "GET", "POST", "/api/v1/items",
		"took", "latency", "bytes", "handler", "session", "started", "worker", "queue", "depth", "connection",
		"pool", "open", "closed", "ok", "status", "200", "the", "of", "and", "to", "with"}
	falseHits := []string{"retry_errors=0", "GET /api/errors", "stderr", "panicked=false", "errors: 0"}
	var b bytes.Buffer
	b.Grow(size + 256)
	t := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := 0; b.Len() < size; i++ {
		t = t.Add(time.Millisecond)
		b.WriteString(t.Format("2006-01-02T15:04:05.000Z"))
		switch {
		case b.Len() >= size/2 && b.Len() < size/2+200:
			b.WriteString(" ERROR db: connection to postgres://orders-db:5432 refused\n")
			continue
		case i%5000 == 4999:
			b.WriteString(" WARN slow request, timeout in 200ms\n")
			continue
		}
		b.WriteString(" INFO ")
		for j := 0; j < 8+r.Intn(6); j++ {
			b.WriteString(words[r.Intn(len(words))])
			b.WriteByte(' ')
		}
		if i%20 == 7 {
			b.WriteString(falseHits[i/20%len(falseHits)])
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "id=%016x\n", r.Uint64())
	}
	return b.Bytes()
}

var (
	bench64Once sync.Once
	bench64     []byte
)

func log64MiB() []byte {
	bench64Once.Do(func() { bench64 = bigLog(64 << 20) })
	return bench64
}

func explainLog(tb testing.TB, data []byte) *Report {
	code := 1
	rep, err := Explain(Input{
		Meta:    Meta{Argv: []string{"server"}, Status: StatusExited, ExitCode: &code},
		Streams: []Stream{{Name: "stdout", R: bytes.NewReader(nil)}, {Name: "stderr", R: bytes.NewReader(data)}},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// BenchmarkExplain64MiB explains a 64 MiB recording (make bench).
func BenchmarkExplain64MiB(b *testing.B) {
	data := log64MiB()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep := explainLog(b, data)
		if rep.Shows != ShowsCause || rep.Lines[0].Kind != kindLog {
			b.Fatalf("wrong report:\n%s", rep)
		}
	}
}
