package redact

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
)

var (
	benchCorpus = sync.OnceValue(func() []byte { return redacttest.MixedCorpus(64<<20, 1) })
	benchGitLog = sync.OnceValue(func() []byte { return redacttest.GitLogCorpus(64<<20, 1) })
)

// cpuTime is the CPU time of the whole process. The benchmarks report
// throughput per CPU-second next to wall-clock throughput, because on a
// shared machine the wall clock says more about the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, bytes int, start time.Duration) {
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// BenchmarkWriter feeds 64 MiB of mixed output (MixedCorpus) through a Writer
// in 32 KiB writes, as io.Copy from a pipe would: single is one goroutine,
// parallel two workers.
func BenchmarkWriter(b *testing.B) {
	data := benchCorpus()
	r, err := New(Config{Environ: []string{"GH_TOKEN=not-in-the-corpus-0123456789", "HOME=/home/dev"}})
	if err != nil {
		b.Fatal(err)
	}
	// A developer's environment: a dozen secrets of various shapes make the
	// automaton much larger (about a dozen literals each).
	env := []string{"HOME=/home/dev"}
	for i, name := range []string{"GH_TOKEN", "NPM_TOKEN", "AWS_SECRET_ACCESS_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY",
		"DB_PASSWORD", "SLACK_BOT_TOKEN", "STRIPE_SECRET", "SENTRY_AUTH_TOKEN", "VAULT_TOKEN", "CI_JOB_TOKEN", "SSH_PASSPHRASE"} {
		env = append(env, name+"="+string(redacttest.MixedCorpus(4096, int64(i))[100+i*7:140+i*7]))
	}
	rEnv, err := New(Config{Environ: env})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name    string
		workers int
		r       *Redactor
	}{{"single", 1, r}, {"parallel", 2, r}, {"single-env", 1, rEnv}} {
		r := bc.r
		b.Run(bc.name, func(b *testing.B) { benchWrites(b, r, data, bc.workers) })
	}
}

// BenchmarkWriterGitLog feeds 64 MiB of git log text (GitLogCorpus), where a
// quarter of the lines start with "Author:", through a one-worker Writer;
// replaced is the same text with "Author" spelled "Origin", which no rule
// knows, so the difference is what the Author lines cost.
func BenchmarkWriterGitLog(b *testing.B) {
	data := benchGitLog()
	r := devRedactor(b)
	for _, bc := range []struct {
		name string
		data []byte
	}{{"author", data}, {"replaced", bytes.ReplaceAll(data, []byte("Author:"), []byte("Origin:"))}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: 1})
				for p := bc.data; len(p) > 0; {
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
			reportCPU(b, len(bc.data), start)
		})
	}
}

// benchShapes are the shapes of make bench's throughput/shapes, 4 MiB
// each: plain log lines, git log text and each of MixedCorpus's shapes.
var benchShapes = sync.OnceValue(func() []struct {
	name string
	data []byte
} {
	var plain bytes.Buffer
	if err := redacttest.PlainLog(&plain, 4<<20); err != nil {
		panic(err)
	}
	out := []struct {
		name string
		data []byte
	}{{"plain", plain.Bytes()}, {"gitlog", redacttest.GitLogCorpus(4<<20, 1)}}
	for i, b := range redacttest.SplitCorpus(4 << 20) {
		name := strings.NewReplacer(" ", "", "-", "").Replace(redacttest.CorpusShapes[i].Name)
		out = append(out, struct {
			name string
			data []byte
		}{name, b})
	}
	return out
})

// BenchmarkWriterShapes feeds every shape of make bench's throughput/shapes
// through a one-worker Writer, so a profile of one shape
// (-bench 'WriterShapes/gotest' -cpuprofile) shows where its time goes.
func BenchmarkWriterShapes(b *testing.B) {
	r := devRedactor(b)
	for _, s := range benchShapes() {
		b.Run(s.name, func(b *testing.B) { benchWrites(b, r, s.data, 1) })
	}
}

// BenchmarkWriterLines feeds 1 MiB of one line, again and again, through
// a one-worker Writer and reports the CPU time a line takes: the cost of
// each kind of line the shapes are made of, the lines a rule rejects
// (PASS: in go test -v) and the ones it redacts.
func BenchmarkWriterLines(b *testing.B) {
	r := devRedactor(b)
	r.auto().buildTeddy()
	for _, tc := range []struct{ name, line string }{
		{"plain", "HOME=/home/dev\n"},
		{"nohit", "ok  \tgithub.com/acme/app/internal/x\t0.44s\n"},
		{"gotest-pass", "--- PASS: TestsessionID (0.08s)\n"},
		{"gotest-run", "=== RUN   TesttokenSource\n"},
		{"env-name", "TOKENIZERS_PARALLELISM=false\n"},
		{"env-pwd", "PWD=/home/dev/src/app\n"},
		{"env-gh-token", "GH_TOKEN=gh" + "p_abcdefghijABCDEFGHIJ0123456789abcdef\n"},
		{"env-aws-secret", "AWS_SECRET_ACCESS_KEY=abcdefghijABCDEFGHIJ0123456789abcdef/+ab\n"},
		{"go-struct", "+\tToken: cfg.Token,\n"},
		{"kube-secret-ref", "          secretKeyRef:\n"},
		{"curl-auth", "> Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345\n"},
		{"git-remote", "origin\thttps://x-access-token:gh" + "s_abcdefghijklmnopqrstuvwxyz0123456789@github.com/acme/app.git (fetch)\n"},
	} {
		data := bytes.Repeat([]byte(tc.line), (1<<20)/len(tc.line))
		lines := bytes.Count(data, []byte("\n"))
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			start := cpuTime()
			for b.Loop() {
				w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: 1})
				if _, err := w.Write(data); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N)/float64(lines), "cpu-ns/line")
		})
	}
}

// BenchmarkString is the one-shot path used for argv, summaries and explain
// lines.
func BenchmarkString(b *testing.B) {
	r, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	arg := "curl -sS -H 'Accept: application/json' https://api.example.com/v1/items?page=2"
	b.SetBytes(int64(len(arg)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(arg)
	}
}

// BenchmarkScan measures the prefilter alone.
func BenchmarkScan(b *testing.B) {
	data := benchCorpus()
	r, err := New(Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	var hits []hit
	start := cpuTime()
	for b.Loop() {
		for p := data; len(p) > 0; {
			n := min(len(p), 256<<10)
			hits = r.auto().scan(p[:n], hits[:0])
			p = p[n:]
		}
	}
	reportCPU(b, len(data), start)
}

// BenchmarkScanShapes measures the prefilter and the automaton alone on
// every shape of BenchmarkWriterShapes, its vector prefilter built first
// (teddyFind64 where the CPU has AVX-512 VBMI, else teddyFind), 256 KiB of
// whole lines at a time; min-MB/s is reportMinThroughput's.
func BenchmarkScanShapes(b *testing.B) {
	r := devRedactor(b)
	r.auto().buildTeddy()
	for _, s := range benchShapes() {
		b.Run(s.name, func(b *testing.B) {
			var hits []hit
			start := cpuTime()
			reportMinThroughput(b, lineParts(s.data, 256<<10), func(_ int, p []byte) {
				hits = r.auto().scan(p, hits[:0])
			})
			reportCPU(b, len(s.data), start)
		})
	}
}

func BenchmarkMixedCorpus(b *testing.B) {
	b.SetBytes(16 << 20)
	for b.Loop() {
		redacttest.MixedCorpus(16<<20, 2)
	}
}

// benchWrites times data through a Writer of r with workers, in 32 KiB
// writes (as io.Copy from a pipe would), and reports CPU throughput too.
func benchWrites(b *testing.B, r *Redactor, data []byte, workers int) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		w := r.NewWriterOptions(io.Discard, WriterOptions{Workers: workers})
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
	reportCPU(b, len(data), start)
}

// devRedactor is the redactor the benchmarks measure: the default rules,
// with a developer's HOME in the environment.
func devRedactor(tb testing.TB) *Redactor {
	tb.Helper()
	r, err := New(Config{Environ: []string{"HOME=/home/dev"}})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}
