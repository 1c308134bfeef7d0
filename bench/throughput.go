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
// pipe+file limit cat|dd, interleaved; the baseline rac's same runs in the
// same rounds when there is one.
func benchThroughput(b *bench) {
	size := int64(*sizeMB) << 20
	file := b.textFile("text.log", size)
	out := filepath.Join(b.work, "tee.out")
	_ = b.timeCmd(b.env, "cat", file) // warm the page cache
	type variant struct {
		name string
		argv []string
		base int // the index of the baseline's same run, or 0
	}
	var variants []variant
	for _, redact := range []bool{true, false} {
		name, args := "rac run -- cat (redaction on)", []string{"run", "-q", "--", "cat", file}
		if !redact {
			name, args = "rac run --no-redact -- cat", []string{"run", "-q", "--no-redact", "--", "cat", file}
			if !b.supports(b.rac, "--no-redact") {
				variants[0].name = "rac run -- cat"
				break
			}
		}
		variants = append(variants, variant{name: name, argv: append([]string{b.rac}, args...)})
		if b.base != "" && (redact || b.supports(b.base, "--no-redact")) {
			variants[len(variants)-1].base = len(variants)
			variants = append(variants, variant{name: "  baseline", argv: append([]string{b.base}, args...)})
		}
	}
	variants = append(variants,
		variant{name: "cat | tee OUT", argv: b.sh(fmt.Sprintf("cat %s | tee %s >/dev/null", file, out))},
		variant{name: "cat | dd of=OUT bs=1M", argv: b.sh(fmt.Sprintf("cat %s | dd of=%s bs=1M 2>/dev/null", file, out))},
	)
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
	var peak, peakBase int64
	for _, vr := range variants {
		switch vr.argv[0] {
		case b.rac:
			b.resetStore()
			peak = max(peak, b.peakRSS(b.env, vr.argv...))
		case b.base:
			b.resetStore()
			peakBase = max(peakBase, b.peakRSS(b.env, vr.argv...))
		}
	}
	b.resetStore()
	_ = os.Remove(out)
	med := make([]time.Duration, len(variants))
	for v, vr := range variants {
		med[v] = median(times[v])
		fmt.Printf("%-32s %8.1f ms  %7.0f MiB/s\n", vr.name, float64(med[v].Microseconds())/1000, mbps(size, med[v]))
	}
	iTee, iDD := len(variants)-2, len(variants)-1
	for v, vr := range variants[:iTee] {
		if vr.argv[0] != b.rac {
			continue
		}
		// The recorder's own target (the core issue) is 1.5x tee; with
		// redaction on, the redaction issue's is 0.8x (throughput/shapes
		// measures it on every shape of text). Verdicts on the ratios
		// within each round (pairedRatio); the ratio of the medians
		// above beside them.
		target := 1.5
		if strings.Contains(vr.name, "redaction on") {
			target = 0.8
		}
		vsTee, vsDD := pairedRatio(times[iTee], times[v]), 1/pairedRatio(times[iDD], times[v])
		fmt.Printf("%-32s throughput vs tee %.2fx (target >= %.1fx: %s), time vs dd limit %.2fx (target <= 1.3x: %s); ratios of the medians %.2fx, %.2fx",
			vr.name, vsTee, target, verdict(vsTee >= target), vsDD, verdict(vsDD <= 1.3),
			med[iTee].Seconds()/med[v].Seconds(), med[v].Seconds()/med[iDD].Seconds())
		if vr.base != 0 {
			fmt.Printf("; baseline %.2fx tee, %.2fx dd", pairedRatio(times[iTee], times[vr.base]), 1/pairedRatio(times[iDD], times[vr.base]))
		}
		fmt.Println()
	}
	fmt.Printf("rac peak RSS (with cat): %.1f MiB (target < 32 MiB: %s)", float64(peak)/1024, verdict(peak < 32*1024))
	if peakBase != 0 {
		fmt.Printf("; baseline %.1f MiB", float64(peakBase)/1024)
	}
	fmt.Println()
}

// supports reports whether a rac's run knows a flag (the bench runs across versions).
func (b *bench) supports(rac, flag string) bool {
	r := b.timeCmdQuiet(rac, "run", "--help")
	return contains(r, flag)
}

// benchGitLog: redaction-on rac run on git-log-shaped text, where every
// Author line names a word redaction must look at (AUTH), against cat|tee;
// the same text with Author spelt Editor, and with redaction off, beside
// it for information, and the baseline rac on the Author text when there
// is one, all in rounds that rotate which goes first.
func benchGitLog(b *bench) {
	size := int64(min(*gitLogMB, *sizeMB)) << 20
	file, st := b.gitLogFile("gitlog.log", size, "Author")
	editor, _ := b.gitLogFile("gitlog-editor.log", size, "Editor")
	out := filepath.Join(b.work, "tee.out")
	fmt.Printf("git log text: %d MiB, %s\n", size>>20, st)
	for _, f := range []string{file, editor} {
		_ = b.timeCmd(b.env, "cat", f) // warm the page cache
	}
	author := &measured{argv: []string{b.rac, "run", "-q", "--", "cat", file}}
	edit := &measured{argv: []string{b.rac, "run", "-q", "--", "cat", editor}}
	tee := &measured{argv: b.sh(fmt.Sprintf("cat %s | tee %s >/dev/null", file, out))}
	var off, base *measured
	names := map[*measured]string{author: "rac run -- cat (redaction on)", edit: "  same, Author spelt Editor", tee: "cat | tee OUT"}
	vs := []*measured{author, edit}
	if b.supports(b.rac, "--no-redact") {
		off = &measured{argv: []string{b.rac, "run", "-q", "--no-redact", "--", "cat", file}}
		names[off] = "rac run --no-redact -- cat"
		vs = append(vs, off)
	}
	if b.base != "" {
		base = &measured{argv: []string{b.base, "run", "-q", "--", "cat", file}}
		names[base] = "baseline, redaction on"
		vs = append(vs, base)
	}
	vs = append(vs, tee)
	b.rounds(vs, "", func() { b.resetStore(); _ = os.Remove(out); syscall.Sync() })
	b.resetStore()
	_ = os.Remove(out)
	for _, v := range vs {
		fmt.Printf("%-32s %8.1f ms  %7.0f MiB/s\n", names[v], ms(median(v.t)), mbps(size, median(v.t)))
	}
	r := pairedRatio(tee.t, author.t)
	fmt.Printf("git-log redaction-on throughput vs tee %.2fx (target >= 0.8x: %s; ratio of the medians %.2fx)",
		r, verdict(r >= 0.8), median(tee.t).Seconds()/median(author.t).Seconds())
	if base != nil {
		fmt.Printf("; baseline %.2fx", pairedRatio(tee.t, base.t))
	}
	fmt.Println()
	fmt.Printf("for information: Author spelt Editor %.2fx tee", pairedRatio(tee.t, edit.t))
	if off != nil {
		fmt.Printf(", redaction off %.2fx tee", pairedRatio(tee.t, off.t))
	}
	fmt.Printf("; Author costs %.2fx the time of Editor\n", pairedRatio(author.t, edit.t))
}
