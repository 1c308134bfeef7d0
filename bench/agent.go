package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
)

func init() {
	register("capped", benchCapped)
	register("grep", benchGrep)
	register("lines", benchLines)
	register("explain", benchExplain)
	register("identity", benchIdentity)
}

// mixedFile writes realistic mixed command output (git log -p, JSON logs,
// compiler and test output, kubectl YAML, env dumps, a few fake secrets).
func (b *bench) mixedFile(name string, size int64) string {
	p := filepath.Join(b.work, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	f, err := os.Create(p)
	check(err)
	var n int64
	for seed := int64(1); n < size; seed++ {
		chunk := redacttest.MixedCorpus(int(min(64<<20, size-n)), seed)
		if len(chunk) == 0 {
			break
		}
		m, err := f.Write(chunk)
		check(err)
		n += int64(m)
	}
	check(f.Close())
	return p
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchCapped: a capped 1 GiB recording against the uncapped path.
func benchCapped(b *bench) {
	size := int64(1) << 30
	file := b.textFile("text-1g.log", size)
	_ = b.timeCmd(b.env, "cat", file)
	capped := append(append([]string(nil), b.env...), "RAC_RECORD_MAX_BYTES=64MiB")
	uncapped := append(append([]string(nil), b.env...), "RAC_RECORD_MAX_BYTES=8GiB")
	var tc, tu []time.Duration
	for i := 0; i < *runs; i++ {
		b.resetStore()
		tc = append(tc, b.timeCmd(capped, b.rac, "run", "-q", "--no-redact", "--", "cat", file).wall)
		b.resetStore()
		tu = append(tu, b.timeCmd(uncapped, b.rac, "run", "-q", "--no-redact", "--", "cat", file).wall)
	}
	b.resetStore()
	peakC := b.peakRSS(capped, b.rac, "run", "-q", "--no-redact", "--", "cat", file)
	b.resetStore()
	c, u := median(tc), median(tu)
	fmt.Printf("capped at 64 MiB   %8.1f ms %7.0f MiB/s (peak RSS %.1f MiB)\n", ms(c), mbps(size, c), float64(peakC)/1024)
	fmt.Printf("uncapped           %8.1f ms %7.0f MiB/s\n", ms(u), mbps(size, u))
	fmt.Printf("capped throughput vs uncapped %.2fx (target >= 0.9x: %s)\n", u.Seconds()/c.Seconds(), verdict(u.Seconds()/c.Seconds() >= 0.9))
}

// sessionOf256 records 256 MiB of mixed output as several recordings of
// one session and returns the session folder.
func (b *bench) sessionOf256() string {
	file := b.mixedFile("mixed-32m.log", 32<<20)
	b.resetStore()
	env := append(append([]string(nil), b.env...), "RAC_SESSION=grepbench")
	for i := 0; i < 8; i++ {
		r := b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", file)
		_ = r
	}
	return filepath.Join(b.work, "store", "sessions", "grepbench")
}

// benchGrep: rac out grep over a 256 MiB session against LC_ALL=C grep -rF.
func benchGrep(b *bench) {
	dir := b.sessionOf256()
	env := append(append([]string(nil), b.env...), "RAC_SESSION=grepbench", "LC_ALL=C")
	for _, needle := range []string{"connection refused", "zzz-no-such-text"} {
		med := b.interleaveEnv(env, *runs,
			[]string{b.rac, "out", "grep", needle},
			[]string{"grep", "-rF", "--", needle, dir},
		)
		fmt.Printf("grep %-20q rac %7.1f ms, grep -rF %7.1f ms: rac/grep time %.2fx (target <= 1.0x: %s)\n",
			needle, ms(med[0]), ms(med[1]), med[0].Seconds()/med[1].Seconds(), verdict(med[0] <= med[1]))
	}
}

func (b *bench) interleaveEnv(env []string, rounds int, variants ...[]string) []time.Duration {
	times := make([][]time.Duration, len(variants))
	for i := 0; i < rounds; i++ {
		for v, argv := range variants {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Env = env
			start := time.Now()
			_ = cmd.Run() // grep exits 1 on no match
			times[v] = append(times[v], time.Since(start))
		}
	}
	out := make([]time.Duration, len(variants))
	for v := range variants {
		out[v] = median(times[v])
	}
	return out
}

// benchLines: --lines near the end of a 64 MiB recording, against --lines
// near its start and against sed reading the whole file.
func benchLines(b *bench) {
	file := b.textFile("text-64m.log", 64<<20)
	b.resetStore()
	env := append(append([]string(nil), b.env...), "RAC_SESSION=linesbench")
	b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", file)
	out, err := exec.Command("wc", "-l", file).Output()
	check(err)
	var total int
	_, err = fmt.Sscan(string(out), &total)
	check(err)
	end := fmt.Sprintf("%d:%d", total-50, total-10)
	med := b.interleaveEnv(env, 5**runs,
		[]string{b.rac, "out", "read", "last", "--stream", "stdout", "--lines", end},
		[]string{b.rac, "out", "read", "last", "--stream", "stdout", "--lines", "10:50"},
		[]string{"sed", "-n", fmt.Sprintf("%d,%dp", total-50, total-10), file},
	)
	fmt.Printf("--lines %s (near the end) %6.2f ms; --lines 10:50 %6.2f ms; sed -n over the file %6.2f ms\n", end, ms(med[0]), ms(med[1]), ms(med[2]))
	fmt.Printf("near-end / near-start %.2fx (position-independent: %s); near-end / sed %.3fx\n",
		med[0].Seconds()/med[1].Seconds(), verdict(med[0].Seconds()/med[1].Seconds() < 2), med[0].Seconds()/med[2].Seconds())
}

// benchExplain: explain on a 64 MiB recording, as recorded by default
// (redacted on the way in), and on one recorded with --no-redact, which
// explain redacts whole on the way out.
func benchExplain(b *bench) {
	file := b.mixedFile("mixed-64m.log", 64<<20)
	b.resetStore()
	env := append(append([]string(nil), b.env...), "RAC_SESSION=explainbench")
	b.timeCmd(env, b.rac, "run", "-q", "--", "cat", file)
	b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", file)
	med := b.interleaveEnv(env, *runs,
		[]string{b.rac, "out", "explain", "explainbench/1"},
		[]string{b.rac, "out", "explain", "explainbench/2"},
		[]string{"tail", "-n", "10", file},
		[]string{"grep", "-ciE", "error|fail|fatal", file},
	)
	fmt.Printf("explain on 64 MiB %7.1f ms (target < 500 ms: %s); recorded with --no-redact (redacted on the way out) %.1f ms; tail -10 %.1f ms; grep -ciE %.1f ms\n",
		ms(med[0]), verdict(med[0] < 500*time.Millisecond), ms(med[1]), ms(med[2]), ms(med[3]))
}

// benchIdentity: the session identity computation, as go test -bench.
func benchIdentity(b *bench) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "BenchmarkIdentify", "-benchtime", "200x", "./internal/session/")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			fmt.Println(l)
		}
	}
	fmt.Println("target: under 2 ms per Identify with a 10-deep ancestor chain (ns/op above)")
}
