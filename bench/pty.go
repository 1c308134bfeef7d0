package main

import (
	"fmt"
	"os/exec"
	"time"
)

func init() { register("pty", benchPTY) }

// benchPTY: rac run --mode pty -- cat FILE against script -qc 'cat FILE'
// /dev/null, both writing through a pseudo-terminal they make, on the same
// file (the kernel's tty layer is the ceiling both share), interleaved.
// rac's output goes to /dev/null, as script's does.
func benchPTY(b *bench) {
	if _, err := exec.LookPath("script"); err != nil {
		fmt.Println("pty: skipped: script(1) is not installed")
		return
	}
	size := int64(*sizeMB) << 20
	file := b.textFile("text.log", size)
	rac := []string{b.rac, "run", "-q", "--mode", "pty", "--", "cat", file}
	script := b.sh(fmt.Sprintf("script -qc 'cat %s' /dev/null >/dev/null </dev/null", file))
	var rt, st []time.Duration
	for i := 0; i < *runs; i++ {
		b.resetStore()
		rt = append(rt, b.timeCmd(b.env, rac...).wall)
		st = append(st, b.timeCmd(b.env, script...).wall)
	}
	b.resetStore()
	peak := b.peakRSS(b.env, rac...)
	b.resetStore()
	r, s := median(rt), median(st)
	fmt.Printf("%-40s %8.1f ms  %7.0f MiB/s\n", "rac run --mode pty -- cat", float64(r.Microseconds())/1000, mbps(size, r))
	fmt.Printf("%-40s %8.1f ms  %7.0f MiB/s\n", "script -qc 'cat FILE' /dev/null", float64(s.Microseconds())/1000, mbps(size, s))
	ratio := pairedRatio(st, rt)
	fmt.Printf("pty-mode throughput vs script -qc %.2fx (target >= 0.9x: %s; ratio of the medians %.2fx); rac peak RSS %.1f MiB (target < 32 MiB: %s)\n",
		ratio, verdict(ratio >= 0.9), s.Seconds()/r.Seconds(), float64(peak)/1024, verdict(peak < 32*1024))
}
