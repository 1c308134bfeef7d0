// Command bench measures rac against references run in the same process
// and the same minute: tee and dd for the tee path, a minimal Go wrapper
// for start-up. Every figure is the median of interleaved runs, and every
// verdict is a ratio, so a slower or busier machine changes the figures
// but not the comparison; the throughput and pty verdicts are the median
// of the ratios within each round (pairedRatio). -baseline adds a second
// rac, an earlier build, to the same rounds: start-up is judged against
// it, and the throughput sections print its ratios beside rac's. Run it
// with `make bench` (make bench BASELINE=REV builds the second rac).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
)

var (
	racBin = flag.String("rac", "bin/rac", "the rac binary to measure")
	sizeMB = flag.Int("size", 512, "MiB of output for the throughput runs")
	runs   = flag.Int("runs", 5, "interleaved runs per measurement (medians)")
	only   = flag.String("only", "", "comma-separated sections to run (default all); a name before a / also runs its parts (throughput runs throughput/gitlog)")
	keep   = flag.Bool("keep", false, "keep the work folder")
	base   = flag.String("baseline", "", "a second rac binary (make bench BASELINE=REV builds one from REV): start-up is compared with it, and the throughput sections print its ratios beside rac's")
)

type section struct {
	name string
	run  func(b *bench)
}

var sections []section

func register(name string, fn func(b *bench)) { sections = append(sections, section{name, fn}) }

// order is the order sections run in. The file system's state is part of
// every figure that creates files: ext4 makes each new inode look for
// recently deleted ones, so a section that deletes many files slows the
// creates of the ones after it (rac run creates about ten files a run, a
// shell's tee one). The sections that write big recordings and time
// start-up run first; gc, which builds and deletes a store of 100,000
// recordings, runs last.
var order = []string{"startup", "prompt", "throughput", "throughput/gitlog", "throughput/shapes", "throughput/record", "capped", "pty",
	"grep", "lines", "explain", "identity", "mcp", "compress", "gc"}

// ordered sorts sections by order; a section order does not name stops the
// bench, so a new one cannot be left out of a full run unnoticed.
func ordered() []section {
	rank := map[string]int{}
	for i, n := range order {
		rank[n] = i + 1
	}
	for _, s := range sections {
		if rank[s.name] == 0 {
			check(fmt.Errorf("section %q is not in order", s.name))
		}
	}
	out := append([]section(nil), sections...)
	sort.SliceStable(out, func(i, j int) bool { return rank[out[i].name] < rank[out[j].name] })
	return out
}

type bench struct {
	work string
	rac  string
	base string // the baseline rac, or ""
	env  []string
}

func main() {
	flag.Parse()
	want := selected(*only) // before the work folder: check exits without removing it
	run := ordered()
	rac, err := filepath.Abs(*racBin)
	check(err)
	work, err := os.MkdirTemp("", "rac-bench-")
	check(err)
	if !*keep {
		defer func() { _ = os.RemoveAll(work) }()
	}
	b := &bench{work: work, rac: rac}
	if *base != "" {
		b.base, err = filepath.Abs(*base)
		check(err)
	}
	b.env = append(os.Environ(), "RAC_HOME="+filepath.Join(work, "store"), "RAC_SESSION=bench", "RAC_GC_MAX_AGE=1000d",
		// the sections measure raw recordings, as before compression
		// existed (automatic gc would compress some of them meanwhile);
		// compress measures compressed ones
		"RAC_RECORD_COMPRESS=false")
	fmt.Printf("rac bench: %s (%s), %d MiB (git log text: %d MiB, each text shape: %d MiB), medians of %d interleaved runs, %s\n",
		rac, b.version(rac), *sizeMB, min(*gitLogMB, *sizeMB), min(*shapeMB, *sizeMB), *runs, time.Now().Format(time.RFC3339))
	if b.base != "" {
		fmt.Printf("baseline: %s (%s)\n", b.base, b.version(b.base))
	}
	for _, s := range run {
		if len(want) > 0 && !want[s.name] && !want[parent(s.name)] {
			continue
		}
		fmt.Printf("\n## %s\n", s.name)
		s.run(b)
	}
}

// selected is the set of section names -only asks for; an unknown name
// stops the bench, since a typo would otherwise measure nothing.
func selected(only string) map[string]bool {
	known := map[string]bool{}
	var names []string
	for _, s := range sections {
		known[s.name], known[parent(s.name)] = true, true
		names = append(names, s.name)
	}
	want := map[string]bool{}
	for _, s := range strings.Split(only, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !known[s] {
			check(fmt.Errorf("-only: no section %q (sections: %s)", s, strings.Join(names, ", ")))
		}
		want[s] = true
	}
	return want
}

// parent is the section a part belongs to: throughput for throughput/gitlog.
func parent(name string) string {
	p, _, _ := strings.Cut(name, "/")
	return p
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// result of one timed command.
type result struct {
	wall time.Duration
}

// timeCmd runs argv with stdout to /dev/null and returns its wall time.
func (b *bench) timeCmd(env []string, argv ...string) result {
	return b.timeCmdErr(env, false, argv...)
}

// timeCmdErr is timeCmd with stderr to /dev/null too when quiet: rac run
// without -q, as an agent runs it, whose rac: lines would fill the log.
func (b *bench) timeCmdErr(env []string, quiet bool, argv ...string) result {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	check(err)
	defer devnull.Close()
	cmd.Stdout = devnull
	cmd.Stderr = os.Stderr
	if quiet {
		cmd.Stderr = devnull
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		check(fmt.Errorf("%s: %w", strings.Join(argv, " "), err))
	}
	return result{wall: time.Since(start)}
}

// peakRSS runs argv under /usr/bin/time and returns its peak RSS in KiB.
// (The rusage Go gets from wait4 is no good here: the child is started
// with vfork, so its peak counts this bench's own memory.) 0 when
// /usr/bin/time is missing.
func (b *bench) peakRSS(env []string, argv ...string) int64 {
	tm := b.timeBin()
	if tm == "" {
		return 0
	}
	out := filepath.Join(b.work, "rss.txt")
	b.timeCmd(env, append([]string{tm, "-f", "%M", "-o", out}, argv...)...)
	return readKiB(out)
}

// timeBin is GNU time, or "" when it is missing.
func (b *bench) timeBin() string {
	tm, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		return ""
	}
	return tm
}

// readKiB reads the peak RSS /usr/bin/time -f %M wrote.
func readKiB(path string) int64 {
	data, err := os.ReadFile(path)
	check(err)
	var kb int64
	_, err = fmt.Sscan(strings.TrimSpace(string(data)), &kb)
	check(err)
	return kb
}

// version is what a rac binary says it is, to tell two apart in the log.
func (b *bench) version(rac string) string {
	out, err := exec.Command(rac, "--version").Output()
	if err != nil {
		check(fmt.Errorf("%s --version: %w", rac, err))
	}
	return strings.TrimSpace(string(out))
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// pairedRatio is the median over rounds of ref/t, each pair measured in
// the same round, seconds apart. This host's speed swings several times
// over within minutes (every copier, tee and dd too): a ratio of two
// medians can pair a fast phase of one with a slow phase of the other,
// a ratio within a round cannot.
func pairedRatio(ref, t []time.Duration) float64 { return quantile(ratios(ref, t), 0.5) }

// ratios are the per-round ratios ref/t, sorted.
func ratios(ref, t []time.Duration) []float64 {
	rs := make([]float64, min(len(ref), len(t)))
	for i := range rs {
		rs[i] = ref[i].Seconds() / t[i].Seconds()
	}
	sort.Float64s(rs)
	return rs
}

// quantile is the value at fraction q of sorted values (the nearest rank,
// as median picks it).
func quantile(sorted []float64, q float64) float64 {
	return sorted[min(int(q*float64(len(sorted))), len(sorted)-1)]
}

func mbps(bytes int64, d time.Duration) float64 { return float64(bytes) / (1 << 20) / d.Seconds() }

// verdict prints PASS/MISS for a ratio against its target.
func verdict(ok bool) string {
	if ok {
		return "ok"
	}
	return "MISS"
}

// textFile writes size bytes of log-like text lines (cached for reuse).
func (b *bench) textFile(name string, size int64) string {
	p := filepath.Join(b.work, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	f, err := os.Create(p)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	check(redacttest.PlainLog(w, size))
	check(w.Flush())
	check(f.Close())
	return p
}

func (b *bench) resetStore() { b.removeAll(filepath.Join(b.work, "store")) }

// removeAll removes a folder of the bench's.
func (b *bench) removeAll(p string) { check(os.RemoveAll(p)) }

func (b *bench) sh(script string) []string { return []string{"/bin/sh", "-c", script} }
