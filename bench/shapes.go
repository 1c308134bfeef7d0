package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/redact/redacttest"
)

var shapeMB = flag.Int("shape-size", 128, "MiB of text per shape for throughput/shapes (at most -size): nine shapes at -size each would take most of an hour")

// The redaction issue's targets, for every shape of text: rac run with
// redaction on at least this fraction of tee's throughput, in at most
// this much memory.
const (
	redactTarget  = 0.8
	redactPeakKiB = 32 << 10
)

func init() { register("throughput/shapes", benchShapes) }

// corpusFiles names the file of each of redacttest.CorpusShapes, the
// shapes redacttest.MixedCorpus mixes: splitting the corpus, rather than
// copying its generators here, keeps the bench measuring the text the
// redactor's own benchmarks and tests are tuned on.
var corpusFiles = []string{"shape-gitlog-p.log", "shape-json.log", "shape-gotest.log", "shape-kubectl.log", "shape-env.log", "shape-curl.log"}

// shapeSample is how much of each corpus shape is generated; a shape's
// file repeats its sample up to the shape size. The rarest shape (curl -v
// traces) is under 2% of the corpus's bytes: 4 MiB of it takes about 256
// MiB of corpus, seconds of generation, and a bigger sample would cost
// more for text no faster or slower to redact: rac keeps no state across
// lines but an open block (a PEM key, a Secret's data), and stores
// recordings uncompressed, so nothing gains from a repeat.
const shapeSample = 4 << 20

type shape struct {
	name, path string
	note       string // why there is no file, when path is ""
}

// shapeFiles writes a file of size bytes for every shape the bench knows:
// the plain log lines of the throughput section, the git log text of
// throughput/gitlog, the mixed corpus of the other sections, and each of
// the corpus's shapes alone.
func (b *bench) shapeFiles(size int64) []shape {
	mb := size >> 20
	gitlog, _ := b.gitLogFile(fmt.Sprintf("gitlog-%dm.log", mb), size, "Author")
	out := []shape{
		{name: "plain log lines", path: b.textFile(fmt.Sprintf("text-%dm.log", mb), size)},
		{name: "git log", path: gitlog},
		{name: "mixed corpus", path: b.mixedFile(fmt.Sprintf("mixed-%dm.log", mb), size)},
	}
	samples := redacttest.SplitCorpus(min(size, shapeSample))
	for i, cs := range redacttest.CorpusShapes {
		if len(samples[i]) == 0 {
			out = append(out, shape{name: cs.Name, note: fmt.Sprintf("no block of redacttest.MixedCorpus starts with %q (redacttest.CorpusShapes needs the new start)", cs.Start)})
			continue
		}
		out = append(out, shape{name: cs.Name, path: b.repeatFile(corpusFiles[i], samples[i], size)})
	}
	return out
}

// repeatFile writes size bytes of sample, again and again (cached for reuse).
func (b *bench) repeatFile(name string, sample []byte, size int64) string {
	p := filepath.Join(b.work, name)
	if st, err := os.Stat(p); err == nil && st.Size() == size {
		return p
	}
	f, err := os.Create(p)
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	for n := int64(0); n < size; {
		chunk := sample[:min(int64(len(sample)), size-n)]
		m, err := w.Write(chunk)
		check(err)
		n += int64(m)
	}
	check(w.Flush())
	check(f.Close())
	return p
}

// benchShapes: redaction-on rac run -- cat FILE against cat | tee OUT on
// every shape of text, and the baseline rac when there is one, in rounds
// that rotate which goes first. Each run is timed under /usr/bin/time,
// tee's too, so what it adds (a fork and an exec) is in both figures and
// the peak RSS comes from the timed runs themselves, not from extra ones.
func benchShapes(b *bench) {
	size := int64(min(*shapeMB, *sizeMB)) << 20
	start := time.Now()
	shapes := b.shapeFiles(size)
	out := filepath.Join(b.work, "tee.out")
	fmt.Printf("%d MiB per shape (-shape-size), medians of %d rounds, files made in %.1f s\n", size>>20, *runs, time.Since(start).Seconds())
	tm := b.timeBin()
	if tm == "" {
		fmt.Println("peak RSS: not measured (no /usr/bin/time: apt-get install time)")
	}
	head := fmt.Sprintf("%-18s %9s %9s %7s %-6s %9s %-6s", "shape", "rac MiB/s", "tee MiB/s", "rac/tee",
		fmt.Sprintf(">=%.1fx", redactTarget), "peak RSS", fmt.Sprintf("<%dMiB", redactPeakKiB>>10))
	if b.base != "" {
		head += fmt.Sprintf(" %13s %13s", "baseline/tee", "baseline RSS")
	}
	fmt.Println(strings.TrimRight(head, " "))
	var misses []string
	for _, s := range shapes {
		if s.path == "" {
			fmt.Printf("%-18s %s: MISS\n", s.name, s.note)
			misses = append(misses, s.name)
			continue
		}
		_ = b.timeCmd(b.env, "cat", s.path) // warm the page cache
		vs := []*measured{
			{argv: []string{b.rac, "run", "-q", "--", "cat", s.path}},
			{argv: b.sh(fmt.Sprintf("cat %s | tee %s >/dev/null", s.path, out))},
		}
		if b.base != "" {
			vs = append(vs, &measured{argv: []string{b.base, "run", "-q", "--", "cat", s.path}})
		}
		b.rounds(vs, tm, func() {
			b.resetStore()
			_ = os.Remove(out)
			// the run before left its output in dirty pages: written back
			// now, not during the next run's timing
			syscall.Sync()
		})
		rac, tee := vs[0], vs[1]
		ratio := pairedRatio(tee.t, rac.t)
		row := fmt.Sprintf("%-18s %9.0f %9.0f %6.2fx %-6s %9s %-6s", s.name, mbps(size, median(rac.t)), mbps(size, median(tee.t)),
			ratio, verdict(ratio >= redactTarget), mib(rac.peak), peakVerdict(rac.peak))
		if b.base != "" {
			row += fmt.Sprintf(" %12.2fx %13s", pairedRatio(tee.t, vs[2].t), mib(vs[2].peak))
		}
		fmt.Println(strings.TrimRight(row, " "))
		if ratio < redactTarget || (tm != "" && rac.peak >= redactPeakKiB) {
			misses = append(misses, s.name)
		}
	}
	b.resetStore()
	_ = os.Remove(out)
	fmt.Printf("targets: rac/tee >= %.1fx (the median of the per-round ratios), peak RSS < %d MiB (the largest over the rounds)", redactTarget, redactPeakKiB>>10)
	if len(misses) > 0 {
		fmt.Printf("; MISS on %s\n", strings.Join(misses, ", "))
	} else {
		fmt.Println("; every shape ok")
	}
}

// measured is one variant of a paired measurement: its wall times, one a
// round, and its largest peak RSS in KiB (0 when not measured).
type measured struct {
	argv []string
	t    []time.Duration
	peak int64
}

// rounds runs every variant once a round, *runs rounds, rotating which
// goes first so none always follows another's clean-up or page-cache
// churn; before runs before each run. Under tm (/usr/bin/time), each
// run's peak RSS is kept too.
func (b *bench) rounds(vs []*measured, tm string, before func()) {
	rss := filepath.Join(b.work, "rss.txt")
	for i := 0; i < *runs; i++ {
		for k := range vs {
			v := vs[(i+k)%len(vs)]
			before()
			if tm == "" {
				v.t = append(v.t, b.timeCmd(b.env, v.argv...).wall)
				continue
			}
			v.t = append(v.t, b.timeCmd(b.env, append([]string{tm, "-f", "%M", "-o", rss}, v.argv...)...).wall)
			v.peak = max(v.peak, readKiB(rss))
		}
	}
}

func mib(kib int64) string {
	if kib == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MiB", float64(kib)/1024)
}

// peakVerdict is the memory verdict, or nothing when it was not measured.
func peakVerdict(kib int64) string {
	if kib == 0 {
		return ""
	}
	return verdict(kib < redactPeakKiB)
}
