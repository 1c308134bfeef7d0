package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func init() {
	register("throughput", benchThroughput)
	register("throughput/gitlog", benchGitLog)
}

// benchThroughput: rac run -- cat FILE >/dev/null against cat|tee and the
// pipe+file limit cat|dd, interleaved.
func benchThroughput(b *bench) {
	size := int64(*sizeMB) << 20
	file := b.textFile("text.log", size)
	out := filepath.Join(b.work, "tee.out")
	_ = b.timeCmd(b.env, "cat", file) // warm the page cache
	type variant struct {
		name string
		argv []string
	}
	variants := []variant{
		{"rac run -- cat (redaction on)", []string{b.rac, "run", "-q", "--", "cat", file}},
		{"rac run --no-redact -- cat", []string{b.rac, "run", "-q", "--no-redact", "--", "cat", file}},
		{"cat | tee OUT", b.sh(fmt.Sprintf("cat %s | tee %s >/dev/null", file, out))},
		{"cat | dd of=OUT bs=1M", b.sh(fmt.Sprintf("cat %s | dd of=%s bs=1M 2>/dev/null", file, out))},
	}
	if !b.supports("--no-redact") {
		variants = append(variants[:1], variants[2:]...)
		variants[0].name = "rac run -- cat"
	}
	times := make([][]time.Duration, len(variants))
	for i := 0; i < *runs; i++ {
		for v, vr := range variants {
			b.resetStore()
			_ = os.Remove(out)
			// The run before left up to 512 MiB of dirty pages and freed
			// blocks: written back now, not during this run's timing.
			syscall.Sync()
			times[v] = append(times[v], b.timeCmd(b.env, vr.argv...).wall)
		}
	}
	var peak int64
	for v := 0; v < len(variants)-2; v++ {
		b.resetStore()
		peak = max(peak, b.peakRSS(b.env, variants[v].argv...))
	}
	b.resetStore()
	_ = os.Remove(out)
	med := make([]time.Duration, len(variants))
	for v, vr := range variants {
		med[v] = median(times[v])
		fmt.Printf("%-32s %8.1f ms  %7.0f MiB/s\n", vr.name, float64(med[v].Microseconds())/1000, mbps(size, med[v]))
	}
	iTee, iDD := len(variants)-2, len(variants)-1
	for v := 0; v < iTee; v++ {
		// The recorder's own target (the core issue) is 1.5x tee; with
		// redaction on, the redaction issue's is 0.8x (the redaction
		// section measures it on mixed output). Verdicts on the ratios
		// within each round (pairedRatio); the ratio of the medians
		// above beside them.
		target := 1.5
		if strings.Contains(variants[v].name, "redaction on") {
			target = 0.8
		}
		vsTee, vsDD := pairedRatio(times[iTee], times[v]), 1/pairedRatio(times[iDD], times[v])
		fmt.Printf("%-32s throughput vs tee %.2fx (target >= %.1fx: %s), time vs dd limit %.2fx (target <= 1.3x: %s); ratios of the medians %.2fx, %.2fx\n",
			variants[v].name, vsTee, target, verdict(vsTee >= target), vsDD, verdict(vsDD <= 1.3),
			med[iTee].Seconds()/med[v].Seconds(), med[v].Seconds()/med[iDD].Seconds())
	}
	fmt.Printf("rac peak RSS (with cat): %.1f MiB (target < 32 MiB: %s)\n", float64(peak)/1024, verdict(peak < 32*1024))
}

// supports reports whether rac run knows a flag (the bench runs across versions).
func (b *bench) supports(flag string) bool {
	r := b.timeCmdQuiet(b.rac, "run", "--help")
	return contains(r, flag)
}

// benchGitLog: redaction-on rac run on git-log-shaped text, where every
// Author line names a word redaction must look at (AUTH), against cat|tee;
// the same text with Author spelt Editor, and with redaction off, beside
// it for information, all interleaved.
func benchGitLog(b *bench) {
	size := int64(*gitLogMB) << 20
	file, st := b.gitLogFile("gitlog.log", size, "Author")
	editor, _ := b.gitLogFile("gitlog-editor.log", size, "Editor")
	out := filepath.Join(b.work, "tee.out")
	fmt.Printf("git log text: %d MiB, %s\n", *gitLogMB, st)
	for _, f := range []string{file, editor} {
		_ = b.timeCmd(b.env, "cat", f) // warm the page cache
	}
	type variant struct {
		name string
		argv []string
	}
	variants := []variant{
		{"rac run -- cat (redaction on)", []string{b.rac, "run", "-q", "--", "cat", file}},
		{"  same, Author spelt Editor", []string{b.rac, "run", "-q", "--", "cat", editor}},
		{"rac run --no-redact -- cat", []string{b.rac, "run", "-q", "--no-redact", "--", "cat", file}},
		{"cat | tee OUT", b.sh(fmt.Sprintf("cat %s | tee %s >/dev/null", file, out))},
	}
	if !b.supports("--no-redact") {
		variants = append(variants[:2], variants[3:]...)
	}
	argv := make([][]string, len(variants))
	for v, vr := range variants {
		argv[v] = vr.argv
	}
	med := b.interleave(*runs, func() { b.resetStore(); _ = os.Remove(out); syscall.Sync() }, argv...)
	b.resetStore()
	_ = os.Remove(out)
	for v, vr := range variants {
		fmt.Printf("%-32s %8.1f ms  %7.0f MiB/s\n", vr.name, ms(med[v]), mbps(size, med[v]))
	}
	tee := med[len(med)-1].Seconds()
	fmt.Printf("git-log redaction-on throughput vs tee %.2fx (target >= 0.8x: %s)\n", tee/med[0].Seconds(), verdict(tee/med[0].Seconds() >= 0.8))
	fmt.Printf("for information: Author spelt Editor %.2fx tee", tee/med[1].Seconds())
	if len(variants) == 4 {
		fmt.Printf(", redaction off %.2fx tee", tee/med[2].Seconds())
	}
	fmt.Printf("; Author costs %.2fx the time of Editor\n", med[0].Seconds()/med[1].Seconds())
}
