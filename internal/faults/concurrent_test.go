package faults

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var refLine = regexp.MustCompile(`(?m)^rac: ref (\S+)$`)

// TestConcurrentRuns starts many rac run at once into one session while
// gc, list, read, follow and grep run in loops beside them. Every run
// gets a reference of its own, every recording is listed once, finished
// and holds its own output; no reader hangs or fails.
func TestConcurrentRuns(t *testing.T) {
	sc := newScenario(t, "concurrent runs with gc and readers", false)
	st := newStore(t)
	n := iterations(200, 30)
	ctx, stop := context.WithCancel(context.Background())
	var loops sync.WaitGroup
	readers := [][]string{
		{"out", "gc"},
		{"out", "list", "--json"},
		{"out", "read", "last"},
		{"out", "read", "last", "--follow"},
		{"out", "grep", "conc-"},
	}
	for _, args := range readers {
		loops.Go(func() {
			for ctx.Err() == nil {
				sc.iter()
				r := st.rac(60*time.Second, args...)
				// 1: nothing recorded yet (read last, grep no match)
				if r.timedOut || (r.code != 0 && r.code != 1) || (r.code == 1 && r.stderr != "" && !oneLine(r.stderr)) {
					sc.fail("%s while runs start: exit %d (hung %v): %.300s", strings.Join(args, " "), r.code, r.timedOut, r.stderr)
				}
			}
		})
	}
	refs := make([]string, n)
	var runs sync.WaitGroup
	gate := make(chan struct{})
	for i := range n {
		runs.Go(func() {
			<-gate
			sc.iter()
			mark := fmt.Sprintf("conc-%04d", i)
			r := st.rac(2*time.Minute, "run", "--announce", "end", "--", "sh", "-c", `echo "$1 out"; echo "$1 err" >&2`, "sh", mark)
			m := refLine.FindStringSubmatch(r.stderr)
			if r.code != 0 || m == nil {
				sc.fail("%s: exit %d, no reference: %.300s", mark, r.code, r.stderr)
				return
			}
			if r.stdout != mark+" out\n" {
				sc.fail("%s: the terminal got %q", mark, r.stdout)
			}
			refs[i] = m[1]
		})
	}
	close(gate)
	runs.Wait()
	stop()
	loops.Wait()
	checkConcurrent(sc, st, refs)
}

// checkConcurrent: one reference a run, each listed once, finished, with
// its own output.
func checkConcurrent(sc *scenario, st *racStore, refs []string) {
	seen := map[string]int{}
	for i, ref := range refs {
		if ref == "" {
			continue
		}
		if j, dup := seen[ref]; dup {
			sc.fail("runs %d and %d both got %s", j, i, ref)
		}
		seen[ref] = i
	}
	es, err := st.list()
	if err != nil {
		sc.fail("%v", err)
		return
	}
	listed := map[string]bool{}
	for _, e := range es {
		if listed[e.Ref] {
			sc.fail("%s listed twice", e.Ref)
		}
		listed[e.Ref] = true
	}
	for i, ref := range refs {
		if ref == "" {
			continue
		}
		mark := fmt.Sprintf("conc-%04d", i)
		if !listed[ref] {
			sc.fail("%s (%s) is not listed", ref, mark)
			continue
		}
		r := st.rac(30*time.Second, "out", "read", ref, "--stream", "stdout")
		if r.code != 0 || r.stdout != mark+" out\n" {
			sc.fail("%s: read gives %q (exit %d): %s", ref, r.stdout, r.code, r.stderr)
		}
	}
	for _, e := range es {
		if !slices.Contains(finished, e.Status) {
			sc.fail("%s is %s after every run ended", e.Ref, e.Status)
		}
	}
}
