package explain

import (
	"bytes"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
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

// BenchmarkExplain64MiB explains a 64 MiB recording (make bench): about
// 100 ms (650 MB/s) on a 2-core VM, most of it the prefilter's scan.
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

var (
	mixed64Once sync.Once
	mixed64     []byte
)

// mixed64MiB is the recording make bench explains: 64 MiB of
// redacttest.MixedCorpus with seed 1 (bench/agent.go's mixedFile). About
// a third of its lines hold an anchor, so unlike bigLog it times classify
// and the store rather than the prefilter alone.
func mixed64MiB() []byte {
	mixed64Once.Do(func() { mixed64 = redacttest.MixedCorpus(64<<20, 1) })
	return mixed64
}

// BenchmarkExplainMixed64MiB explains make bench's recording as rac out
// explain does: the whole output as one stdout stream (it is within the
// default cap, so nothing is cut), the run failed. 400 k of its 1.28 M
// lines hold an anchor and 120 k reach the store: about 250 ms (270 MB/s)
// on a 2-core VM, where it took 640 ms while the store read how specific
// every line was, even one that could no longer be shown.
func BenchmarkExplainMixed64MiB(b *testing.B) {
	data := mixed64MiB()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		code := 1
		rep, err := Explain(Input{
			Meta:    Meta{Argv: []string{"cat", "mixed-64m.log"}, Status: StatusExited, ExitCode: &code},
			Streams: []Stream{{Name: "stdout", R: bytes.NewReader(data)}},
		})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Shows != ShowsCause {
			b.Fatalf("wrong report:\n%s", rep)
		}
	}
}
