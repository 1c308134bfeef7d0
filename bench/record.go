package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

func init() { register("throughput/record", benchRecord) }

// benchRecord: a stream piped into rac record (teeing it to stdout, as by
// default) against the same stream piped into tee, with redaction on and
// off, and rac run -- cat beside them: rac record's ratio to tee should be
// at least rac run's (the target), in rounds that rotate which
// goes first.
func benchRecord(b *bench) {
	size := int64(*sizeMB) << 20
	file := b.textFile("text.log", size)
	out := filepath.Join(b.work, "tee.out")
	_ = b.timeCmd(b.env, "cat", file) // warm the page cache
	rec := &measured{argv: b.sh(fmt.Sprintf("cat %s | %s record >/dev/null 2>&1", file, b.rac))}
	recOff := &measured{argv: b.sh(fmt.Sprintf("cat %s | %s record --no-redact >/dev/null 2>&1", file, b.rac))}
	run := &measured{argv: []string{b.rac, "run", "-q", "--", "cat", file}}
	tee := &measured{argv: b.sh(fmt.Sprintf("cat %s | tee %s >/dev/null", file, out))}
	names := map[*measured]string{
		rec: "cat | rac record (redaction on)", recOff: "cat | rac record --no-redact",
		run: "rac run -- cat (redaction on)", tee: "cat | tee OUT",
	}
	vs := []*measured{rec, recOff, run, tee}
	b.rounds(vs, "", func() { b.resetStore(); _ = os.Remove(out); syscall.Sync() })
	b.resetStore()
	_ = os.Remove(out)
	for _, v := range vs {
		fmt.Printf("%-32s %8.1f ms  %7.0f MiB/s\n", names[v], ms(median(v.t)), mbps(size, median(v.t)))
	}
	rRec, rRun := pairedRatio(tee.t, rec.t), pairedRatio(tee.t, run.t)
	fmt.Printf("rac record throughput vs tee %.2fx, rac run's %.2fx (target: at least rac run's: %s); --no-redact %.2fx tee\n",
		rRec, rRun, verdict(rRec >= rRun*0.95), pairedRatio(tee.t, recOff.t))
}
