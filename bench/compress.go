package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The compression issue's targets.
const (
	realRatioTarget  = 3.5 // bytes on disk, raw / compressed, real text
	shapeRatioTarget = 4.0 // the same on the bench's synthetic shapes
	tailAddTarget    = 2 * time.Millisecond
	grepSpeedTarget  = 0.5 // grep -rF time over raw / rac out grep time over compressed
	readerPeakKiB    = 32 << 10
)

func init() { register("compress", benchCompress) }

// du is what the regular files under p take on disk, as du counts it.
func du(p string) int64 {
	var n int64
	_ = filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			}
		}
		return nil
	})
	return n
}

// storeEnv is the bench's environment with its own store and session, and
// compression on (the other sections measure raw recordings).
func (b *bench) storeEnv(store, session string) []string {
	return append(append([]string(nil), b.env...), "RAC_HOME="+store, "RAC_SESSION="+session, "RAC_RECORD_COMPRESS=true",
		"RAC_GC_MAX_SESSION_BYTES=0", "RAC_GC_MAX_STORE_BYTES=0", "RAC_GC_INTERVAL=1000d")
}

// gcTimed runs rac out gc under /usr/bin/time and returns its wall, CPU
// (user+system) seconds and peak RSS in KiB.
func (b *bench) gcTimed(env []string) (wall, cpu float64, peak int64) {
	tm := b.timeBin()
	if tm == "" {
		start := time.Now()
		b.timeCmd(env, b.rac, "out", "gc")
		return time.Since(start).Seconds(), 0, 0
	}
	out := filepath.Join(b.work, "gc-time.txt")
	b.timeCmd(env, tm, "-f", "%e %U %S %M", "-o", out, b.rac, "out", "gc")
	data, err := os.ReadFile(out)
	check(err)
	var u, s float64
	_, err = fmt.Sscan(string(data), &wall, &u, &s, &peak)
	check(err)
	return wall, u + s, peak
}

// realTexts makes the real text the issue names, all offline: Go sources
// from the module cache, this repository's git log -p, go test -v logs of
// a few packages, and the explain corpus's recorded outputs. Each is
// recorded by rac run (as a command an agent runs).
func (b *bench) realTexts(env []string) []string {
	var names []string
	// Go sources from the module cache, 48 MiB of them in path order
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		cache := strings.TrimSpace(string(out))
		p := filepath.Join(b.work, "gomod-sources.txt")
		f, err := os.Create(p)
		check(err)
		w := bufio.NewWriterSize(f, 1<<20)
		var n int64
		var files []string
		_ = filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
				files = append(files, path)
			}
			return nil
		})
		sort.Strings(files)
		for _, path := range files {
			if n >= 48<<20 {
				break
			}
			if data, err := os.ReadFile(path); err == nil {
				m, _ := w.Write(data)
				n += int64(m)
			}
		}
		check(w.Flush())
		check(f.Close())
		if n > 0 {
			b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", p)
			names = append(names, fmt.Sprintf("Go module cache sources (%.0f MiB)", float64(n)/(1<<20)))
		}
	}
	if err := exec.Command("git", "rev-parse", "--git-dir").Run(); err == nil {
		b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "git", "log", "-p")
		names = append(names, "this repository's git log -p")
	}
	// go test -v of packages whose tests take seconds
	cmd := exec.Command(b.rac, "run", "-q", "--no-redact", "--", "go", "test", "-v", "-count=1",
		"./internal/units/", "./internal/termtext/", "./internal/ui/", "./internal/config/", "./internal/resolve/")
	cmd.Env = env
	_ = cmd.Run() // a failing test is output too
	names = append(names, "go test -v of five packages")
	// the explain corpus's outputs, as one cat
	var corpus []string
	_ = filepath.WalkDir("internal/explain/testdata/corpus", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && (d.Name() == "stdout" || d.Name() == "stderr") {
			corpus = append(corpus, path)
		}
		return nil
	})
	if len(corpus) > 0 {
		b.timeCmd(env, append([]string{b.rac, "run", "-q", "--no-redact", "--", "cat"}, corpus...)...)
		names = append(names, fmt.Sprintf("explain corpus outputs (%d files)", len(corpus)))
	}
	return names
}

// ratioOf records with make in a store of its own, compresses it with
// rac out gc, and prints the store's session size on disk before and
// after; it returns the ratio and the gc's raw bytes, wall and CPU time.
func (b *bench) ratioOf(label string, make func(env []string) []string, target float64) (ratio float64, raw int64, wall, cpu float64, ok bool) {
	store := filepath.Join(b.work, "store-"+strings.ReplaceAll(label, " ", "-"))
	b.removeAll(store)
	env := b.storeEnv(store, "ratio")
	// recorded raw (automatic gc must not compress them before they are
	// runTimes), then compressed by one rac out gc
	names := make(append(env, "RAC_RECORD_COMPRESS=false"))
	sess := filepath.Join(store, "sessions", "ratio")
	raw = du(sess)
	syscall.Sync()
	wall, cpu, _ = b.gcTimed(env)
	after := du(sess)
	ratio = float64(raw) / float64(max(after, 1))
	ok = ratio >= target
	fmt.Printf("%-28s %9.1f MiB raw on disk %8.1f MiB compressed %6.2fx (target >= %.1fx: %s)\n",
		label, float64(raw)/(1<<20), float64(after)/(1<<20), ratio, target, verdict(ok))
	for _, n := range names {
		fmt.Printf("    %s\n", n)
	}
	b.removeAll(store)
	return ratio, raw, wall, cpu, ok
}

// benchCompress: compression ratios (bytes on disk) on real and synthetic
// text, what compressing costs, and what reading a compressed recording
// costs against the raw one.
func benchCompress(b *bench) {
	_, rawReal, wallReal, cpuReal, _ := b.ratioOf("real text", b.realTexts, realRatioTarget)
	size := int64(min(*shapeMB, *sizeMB, 32)) << 20
	var rawShapes int64
	var wallShapes, cpuShapes float64
	for _, s := range b.shapeFiles(size) {
		if s.path == "" {
			fmt.Printf("%-28s %s\n", s.name, s.note)
			continue
		}
		path := s.path
		_, raw, wall, cpu, _ := b.ratioOf(s.name, func(env []string) []string {
			b.timeCmd(env, b.rac, "run", "-q", "--no-redact", "--", "cat", path)
			return nil
		}, shapeRatioTarget)
		rawShapes += raw
		wallShapes += wall
		cpuShapes += cpu
	}
	mibs := float64(rawReal+rawShapes) / (1 << 20)
	fmt.Printf("compressing (rac out gc, zstd better level, one core): %.0f MiB/s wall, %.1f ms CPU per MiB (%.1f s CPU for %.0f MiB)\n",
		mibs/(wallReal+wallShapes), 1000*(cpuReal+cpuShapes)/mibs, cpuReal+cpuShapes, mibs)

	// reading: the same 64 MiB recording raw and compressed, interleaved
	file := b.textFile("text-64m.log", 64<<20)
	rawStore, zstStore := filepath.Join(b.work, "store-raw"), filepath.Join(b.work, "store-zst")
	b.removeAll(rawStore)
	b.removeAll(zstStore)
	rawEnv, zstEnv := b.storeEnv(rawStore, "read"), b.storeEnv(zstStore, "read")
	rawEnv = append(rawEnv, "RAC_RECORD_COMPRESS=false")
	b.timeCmd(rawEnv, b.rac, "run", "-q", "--no-redact", "--", "cat", file)
	check(exec.Command("cp", "-a", rawStore, zstStore).Run())
	b.timeCmd(zstEnv, b.rac, "out", "gc")
	tail := []string{b.rac, "out", "read", "last", "--tail", "80"}
	fmt.Printf("load average before the read runs: %s\n", loadavg())
	tr, tz := b.interleaveMeasured(10**runs, rawEnv, zstEnv, tail, tail)
	add := median(tz.wall) - median(tr.wall)
	fmt.Printf("read --tail 80 of 64 MiB (medians of %d interleaved runs): raw %.2f ms, compressed %.2f ms: adds %.2f ms (target <= %.0f ms: %s)\n",
		len(tr.wall), ms(median(tr.wall)), ms(median(tz.wall)), ms(add), ms(tailAddTarget), verdict(add <= tailAddTarget))
	fmt.Printf("    CPU (user+system, medians): raw %.2f ms, compressed %.2f ms: adds %.2f ms; the paired median of compressed-raw wall %.2f ms; load average after: %s\n",
		ms(median(tr.cpu)), ms(median(tz.cpu)), ms(median(tz.cpu)-median(tr.cpu)), ms(pairedDiff(tr.wall, tz.wall)), loadavg())

	// grep over a compressed 256 MiB session against grep -rF over the raw
	// files of the same session
	dir := b.sessionOf256()
	grepRaw := filepath.Join(b.work, "grep-raw")
	b.removeAll(grepRaw)
	check(exec.Command("cp", "-a", dir, grepRaw).Run())
	genv := append(b.storeEnv(filepath.Join(b.work, "store"), "grepbench"), "LC_ALL=C")
	b.timeCmd(genv, b.rac, "out", "gc")
	fmt.Printf("256 MiB session: %.1f MiB on disk raw, %.1f MiB compressed\n", float64(du(grepRaw))/(1<<20), float64(du(dir))/(1<<20))
	// the two texts, which the mixed corpus does not hold (the
	// streams' filters rule them out), and one it holds in 5,910 lines of
	// each 32 MiB, which decodes every frame: the worst case, decoding
	// bound on both cores, so its target holds only with both cores free
	// (its CPU, beside, is what a loaded machine changes least)
	for _, needle := range []string{"connection refused", "zzz-no-such-text", "connection closed"} {
		r, g := b.interleaveMeasured(4**runs, genv, genv,
			[]string{b.rac, "out", "grep", needle},
			[]string{"grep", "-rF", "--", needle, grepRaw},
		)
		speed := median(g.wall).Seconds() / median(r.wall).Seconds()
		target := fmt.Sprintf("target >= %.1fx: %s", grepSpeedTarget, verdict(speed >= grepSpeedTarget))
		if needle == "connection closed" {
			target = "held: every frame decoded on both cores; " + target + ", with both cores free"
		}
		fmt.Printf("grep %-20q compressed: rac %7.1f ms, grep -rF over raw %7.1f ms (medians of %d interleaved runs): speed %.2fx of grep (%s)\n",
			needle, ms(median(r.wall)), ms(median(g.wall)), len(r.wall), speed, target)
		// CPU, which a loaded machine changes less than wall time
		fmt.Printf("    CPU (user+system, medians): rac %.1f ms on compressed, grep -rF %.1f ms on raw; load average: %s\n",
			ms(median(r.cpu)), ms(median(g.cpu)), loadavg())
	}

	// every reader's peak RSS on the compressed recordings
	if b.timeBin() == "" {
		fmt.Println("peak RSS: not runTimes (no /usr/bin/time: apt-get install time)")
		return
	}
	readers := []struct {
		name string
		env  []string
		argv []string
	}{
		{"read (all, 64 MiB)", zstEnv, []string{b.rac, "out", "read", "last"}},
		{"read --tail 80", zstEnv, tail},
		{"read --head 80", zstEnv, []string{b.rac, "out", "read", "last", "--head", "80"}},
		{"read --lines near the end", zstEnv, []string{b.rac, "out", "read", "last", "--stream", "stdout", "--lines", "900000:900040"}},
		{"read --raw", zstEnv, []string{b.rac, "out", "read", "last", "--raw"}},
		{"read --json --tail 80", zstEnv, []string{b.rac, "out", "read", "last", "--json", "--tail", "80"}},
		{"explain", zstEnv, []string{b.rac, "out", "explain", "last"}},
		{"grep (256 MiB session)", genv, []string{b.rac, "out", "grep", "connection refused"}},
		{"grep, 41,370 lines held", genv, []string{b.rac, "out", "grep", "connection closed"}},
	}
	worst := int64(0)
	for _, r := range readers {
		peak := b.peakRSSQuiet(r.env, r.argv...)
		worst = max(worst, peak)
		fmt.Printf("peak RSS %-26s %s\n", r.name, mib(peak))
	}
	fmt.Printf("every reader under %d MiB: %s\n", readerPeakKiB>>10, verdict(worst < readerPeakKiB))
	// the MCP server's grep tool, which shows what fits its budget and
	// counts the rest: its time, and the server's peak RSS (a process that
	// serves every tool, 13 to 16 MiB before its first call, so not one of
	// the readers above)
	for _, needle := range []string{"connection closed", "e"} {
		d, peak := b.mcpGrep(genv, needle)
		fmt.Printf("MCP grep %-20q %8.1f ms, peak RSS of the server %s\n", needle, ms(d), mib(peak))
	}
	b.removeAll(rawStore)
	b.removeAll(zstStore)
	b.removeAll(grepRaw)
}

// runTimes is the wall and CPU (user+system) times of runs of a command.
type runTimes struct{ wall, cpu []time.Duration }

// interleaveMeasured runs a (in envA) and b (in envB) n times each,
// alternately, with their output discarded.
func (b *bench) interleaveMeasured(n int, envA, envB []string, a, c []string) (ma, mb runTimes) {
	run := func(env, argv []string, m *runTimes) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		start := time.Now()
		_ = cmd.Run() // grep exits 1 on no match
		m.wall = append(m.wall, time.Since(start))
		if cmd.ProcessState != nil {
			m.cpu = append(m.cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		}
	}
	for range n {
		run(envA, a, &ma)
		run(envB, c, &mb)
	}
	return ma, mb
}

// pairedDiff is the median over rounds of t-ref, each pair runTimes in
// the same round.
func pairedDiff(ref, t []time.Duration) time.Duration {
	var d []time.Duration
	for i := range min(len(ref), len(t)) {
		d = append(d, t[i]-ref[i])
	}
	return median(d)
}

// loadavg is the machine's load average (1, 5, 15 minutes), which the
// figures of a shared machine depend on.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// peakRSSQuiet is peakRSS for a command that may exit non-zero (grep
// finding nothing).
func (b *bench) peakRSSQuiet(env []string, argv ...string) int64 {
	out := filepath.Join(b.work, "rss.txt")
	_ = os.Remove(out)
	cmd := exec.Command(b.timeBin(), append([]string{"-f", "%M", "-o", out}, argv...)...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	_ = cmd.Run()
	// a non-zero status puts a line before the figure
	data, err := os.ReadFile(out)
	check(err)
	lines := strings.Fields(string(data))
	var kib int64
	if len(lines) > 0 {
		_, _ = fmt.Sscan(lines[len(lines)-1], &kib)
	}
	return kib
}

// mcpGrep calls the grep tool of a fresh rac mcp once: the call's time
// and the server's peak RSS in KiB (its VmHWM, read before it exits; 0
// when it cannot be read).
func (b *bench) mcpGrep(env []string, text string) (time.Duration, int64) {
	ctx := context.Background()
	cs, cmd := mcpConnect(ctx, env, b.rac, "mcp")
	defer func() { _ = cs.Close() }()
	start := time.Now()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"text": text}})
	d := time.Since(start)
	check(err)
	if res.IsError {
		check(fmt.Errorf("MCP grep %q: %s", text, res.Content[0].(*mcp.TextContent).Text))
	}
	return d, vmHWM(cmd.Process.Pid)
}

// vmHWM is a live process's peak RSS in KiB, 0 when it cannot be read.
func vmHWM(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kib); err == nil {
				return kib
			}
		}
	}
	return 0
}
