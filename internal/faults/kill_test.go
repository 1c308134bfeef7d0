package faults

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/gc/gctest"
)

// finished are the statuses of a recording whose recorder saw the end.
var finished = []string{"exited", "signaled", "timed_out", "failed_to_start"}

// TestKillRun kills rac run with SIGKILL at random points of a command
// that writes numbered lines: rac alone, or its whole group. Afterwards
// the recording must read as interrupted (never finished), exist whenever
// the command started (never lost), and hold its lines in order from the
// first (nothing misattributed or reordered).
func TestKillRun(t *testing.T) {
	sc := newScenario(t, "kill -9 of rac run", true)
	st := newStore(t)
	n := iterations(120, 15)
	recorded, withLines := 0, 0
	for i := range n {
		sc.iter()
		mark := fmt.Sprintf("it%03d", i)
		started := filepath.Join(st.dir, mark+".started")
		c := st.command("run", "-q", "--", "sh", "-c",
			`: >"$1"; i=0; while [ $i -lt 20000 ]; do echo "$2 line $i"; i=$((i+1)); done; exec sleep 30`, "sh", started, mark)
		if i%2 == 0 { // two files: two pipes; else one file for both: one combined pipe
			c.Stdout, c.Stderr = createIn(t, st.dir, mark+".out"), createIn(t, st.dir, mark+".err")
		}
		require.NoError(t, c.Start())
		// the random point: from before rac has parsed its flags to well
		// into the command's output
		time.Sleep(time.Duration(sc.rng.IntN(60_000)) * time.Microsecond)
		group := sc.rng.IntN(2) == 0
		if group {
			killGroup(c.Process.Pid)
		} else {
			_ = c.Process.Signal(syscall.SIGKILL)
		}
		_ = c.Wait()
		killGroup(c.Process.Pid) // what outlived rac alone (sleep)
		if !awaitGroupGone(c.Process.Pid) {
			sc.fail("%s: a process of the killed run's group still runs a minute after SIGKILL", mark)
		}
		rec, lines := checkKilled(sc, st, mark, started, group)
		if rec {
			recorded++
		}
		if lines > 1 {
			withLines++
		}
	}
	t.Logf("%d of %d killed runs left a recording, %d with output", recorded, n, withLines)
}

func createIn(t *testing.T, dir, name string) *os.File {
	f, err := os.Create(filepath.Join(dir, name))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// checkKilled checks the recording of one killed run, if there is one,
// and says whether there was and how many lines it read.
func checkKilled(sc *scenario, st *racStore, mark, started string, group bool) (bool, int) {
	es, err := st.list()
	if err != nil {
		sc.fail("%s: %v", mark, err)
		return false, 0
	}
	var mine []listEntry
	for _, e := range es {
		if len(e.Argv) > 0 && slices.Contains(e.Argv, mark) {
			mine = append(mine, e)
		}
	}
	_, statErr := os.Stat(started)
	switch {
	case len(mine) > 1:
		sc.fail("%s: %d recordings of one run", mark, len(mine))
		return false, 0
	case len(mine) == 0 && statErr == nil:
		sc.fail("%s: the command ran (group kill %v) but no recording lists it", mark, group)
		return false, 0
	case len(mine) == 0:
		return false, 0 // killed before the recording was made
	}
	e := mine[0]
	lines := 0
	if e.Status != "incomplete" { // finished, or running with no recorder
		sc.fail("%s: a killed run lists as %s", e.Ref, e.Status)
	}
	r := st.rac(30*time.Second, "out", "read", e.Ref)
	if r.code != 0 || r.timedOut {
		sc.fail("%s: read: exit %d: %s", e.Ref, r.code, r.stderr)
		return true, 0
	}
	if !strings.Contains(r.stderr, "incomplete") {
		sc.fail("%s: read does not say the recording is incomplete: %q", e.Ref, r.stderr)
	}
	// the last line may be cut short by the kill (a stated limit,
	// docs/guarantees.md), and then read must say so: a line without its
	// newline is followed by its "may be cut" marker, never read as whole
	got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if n := len(got); n > 0 && strings.HasPrefix(got[n-1], "[rac: line ") && strings.Contains(got[n-1], "may be cut") {
		got = got[:n-1]
		if len(got) == 0 || got[len(got)-1] == mark+" line "+strconv.Itoa(len(got)-1) {
			sc.fail("%s: a whole last line is marked cut: %q", e.Ref, got)
		}
	} else if n > 0 && got[n-1] != mark+" line "+strconv.Itoa(n-1) && got[n-1] != "" {
		sc.fail("%s: the last line %.80q is short and not marked cut", e.Ref, got[n-1])
		return true, n - 1
	}
	for k, l := range got {
		want := mark + " line " + strconv.Itoa(k)
		last := k == len(got)-1 // the marked cut one
		if l != want && !(last && strings.HasPrefix(want, l)) {
			sc.fail("%s: line %d is %.80q, want %q", e.Ref, k+1, l, want)
			return true, k
		}
		lines++
	}
	return true, lines
}

// TestKillGC kills rac out gc and rac out purge with SIGKILL at random
// points over a store they are removing from. Afterwards every rac
// command still works, every listed recording reads, and one more gc
// finishes the removals (no half-removed folder stays).
func TestKillGC(t *testing.T) {
	sc := newScenario(t, "kill -9 of gc and purge", true)
	n := iterations(30, 4)
	for i := range n {
		sc.iter()
		st := newStore(t, "RAC_GC_MAX_AGE=3d")
		require.NoError(t, gctest.BenchStore(st.home, 12, 20))
		args := []string{"out", "gc"}
		if i%3 == 2 {
			args = []string{"out", "purge", "--all", "--yes"}
		}
		c := st.command(args...)
		require.NoError(t, c.Start())
		time.Sleep(time.Duration(sc.rng.IntN(30_000)) * time.Microsecond)
		_ = c.Process.Signal(syscall.SIGKILL)
		_ = c.Wait()
		es, err := st.list("--all-sessions")
		if err != nil {
			sc.fail("after a killed %s: %v", args[1], err)
			continue
		}
		for _, e := range es {
			if r := st.rac(30*time.Second, "out", "read", e.Ref); r.code != 0 {
				sc.fail("after a killed %s: listed %s does not read: %s", args[1], e.Ref, r.stderr)
				break
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		again := st.command("out", "gc")
		require.NoError(t, again.Start())
		if err := waitCtx(ctx, again); err != nil {
			sc.fail("gc after a killed %s: %v", args[1], err)
		}
		cancel()
		if left := leftovers(st.home); len(left) > 0 {
			sc.fail("after a killed %s and one more gc: %v", args[1], left)
		}
	}
}

// leftovers are half-removed folders (.gc-*) anywhere in the store.
func leftovers(home string) []string {
	var out []string
	_ = filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), ".gc-") {
			out = append(out, p)
		}
		return nil
	})
	return out
}
