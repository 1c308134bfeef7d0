package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"time"
)

const topRules = 20

type report struct {
	cfg     *config
	sources []*source
	tally   map[string]*sourceTally
	scanned map[string]int64
	res     *results
	elapsed time.Duration
	gotest  time.Duration
}

type ruleRow struct {
	rule string
	*ruleStats
	hits int // spans recovered and judged
}

func (r ruleRow) falseHits() int { return r.judged[vFalse] }

func (rep *report) total() int64 {
	var n int64
	for _, v := range rep.scanned {
		n += v
	}
	return n
}

func (rep *report) gibs() float64 { return float64(rep.total()) / gib }

// rows lists the rules by hits, most first.
func (rep *report) rows() []ruleRow {
	var rows []ruleRow
	for rule, s := range rep.res.rules {
		rows = append(rows, ruleRow{rule: rule, ruleStats: s, hits: s.judged[0] + s.judged[1] + s.judged[2]})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].markers != rows[j].markers {
			return rows[i].markers > rows[j].markers
		}
		return rows[i].rule < rows[j].rule
	})
	return rows
}

func (rep *report) write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	rep.writeSources(bw)
	if !rep.cfg.gatherOnly {
		rep.writeRules(bw)
		fmt.Fprintf(bw, "\nmethod\n%s\n", judgeMethod)
		rep.writeFalseSamples(bw)
		rep.writeReview(bw)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if rep.cfg.gatherOnly {
		return nil
	}
	if rep.cfg.samples != "" {
		if err := writeFile(rep.cfg.samples, rep.writeSampleList); err != nil {
			return err
		}
	}
	if rep.cfg.md != "" {
		return writeFile(rep.cfg.md, rep.writeMarkdown)
	}
	return nil
}

func writeFile(p string, fn func(w *bufio.Writer)) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	fn(bw)
	if err := bw.Flush(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// revision names the redactor measured: -label, or the commit of the
// checkout it was built from (the working folder) and whether
// internal/redact differs from it.
func (rep *report) revision() string {
	if rep.cfg.label != "" {
		return rep.cfg.label
	}
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "an unknown revision (not a git checkout: say which with -label)"
	}
	rev := strings.TrimSpace(string(out))
	st, _ := exec.Command("git", "status", "--porcelain", "--", "internal/redact").Output()
	if len(strings.TrimSpace(string(st))) > 0 {
		rev += " with uncommitted changes in internal/redact"
	}
	return rev
}

// sourceFalse is a source's verdict counts and its false hits per GiB.
func (rep *report) sourceFalse(name string) (*[3]int, float64) {
	v := rep.res.sources[name]
	if v == nil {
		v = &[3]int{}
	}
	perGiB := 0.0
	if n := rep.scanned[name]; n > 0 {
		perGiB = float64(v[vFalse]) / (float64(n) / gib)
	}
	return v, perGiB
}

func (rep *report) writeSources(w *bufio.Writer) {
	fmt.Fprintf(w, "rac fprate: redactor at %s, %s, %d workers\n\n", rep.revision(), runtimeDesc(), rep.cfg.workers)
	fmt.Fprintf(w, "%-11s %8s %8s %8s %7s %7s %7s %7s %9s  %s\n", "source", "streams", "MiB", "cap MiB", "binary", ">8MiB",
		"hits", "false", "false/GiB", "what")
	for _, s := range rep.sources {
		t := rep.tally[s.name]
		if t == nil {
			continue
		}
		v, perGiB := rep.sourceFalse(s.name)
		fmt.Fprintf(w, "%-11s %8d %8.1f %8d %7d %7d %7d %7d %9.1f  %s\n", s.name, t.streams, float64(rep.scanned[s.name])/mib,
			s.cap/mib, t.binary, t.large, v[0]+v[1]+v[2], v[vFalse], perGiB, s.what)
		if t.note != "" {
			fmt.Fprintf(w, "%-11s note: %s\n", "", t.note)
		}
	}
	fmt.Fprintf(w, "%-11s %8s %8.1f  = %d bytes, %.3f GiB\n", "total", "", float64(rep.total())/mib, rep.total(), rep.gibs())
	if rep.total() < gib {
		fmt.Fprintf(w, "WARNING: under the 1 GiB (%d bytes) the measurement asks for\n", int64(gib))
	}
	fmt.Fprintf(w, "time: %s (of which running go test for its logs: %s)\n", rep.elapsed.Round(time.Second), rep.gotest.Round(time.Second))
}

func runtimeDesc() string {
	out, err := exec.Command("go", "version").Output()
	if err != nil {
		return "go"
	}
	return strings.TrimSpace(string(out))
}

func (rep *report) writeRules(w *bufio.Writer) {
	rows := rep.rows()
	var markers, hits, judged [3]int
	for _, r := range rows {
		markers[0] += r.markers
		hits[0] += r.hits
		for i := range judged {
			judged[i] += r.judged[i]
		}
	}
	g := rep.gibs()
	fmt.Fprintf(w, "\nhits per rule (top %d of %d rules that fired)\n", topRules, len(rows))
	fmt.Fprintf(w, "%-28s %8s %10s %8s %8s %10s %7s\n", "rule", "hits", "credential", "fixture", "false", "false/GiB", "false%")
	for i, r := range rows {
		if i == topRules {
			break
		}
		fmt.Fprintf(w, "%-28s %8d %10d %8d %8d %10.1f %7s\n", r.rule, r.markers, r.judged[vCredential], r.judged[vFixture],
			r.falseHits(), float64(r.falseHits())/g, pct(r.falseHits(), r.hits))
	}
	fmt.Fprintf(w, "%-28s %8d %10d %8d %8d %10.1f %7s\n", "all rules", markers[0], judged[vCredential], judged[vFixture],
		judged[vFalse], float64(judged[vFalse])/g, pct(judged[vFalse], hits[0]))
	fmt.Fprintf(w, "\nhits: %d markers counted by the Writers, %d spans recovered and judged; %d private-key body lines dropped, %d output lines not aligned\n",
		markers[0], hits[0], rep.res.dropped, rep.res.unaligned)
	fmt.Fprintf(w, "false hits: %d in %.3f GiB = %.1f per GiB; true hits: %d credential-shaped (%d outside tests and docs, %d fixtures)\n",
		judged[vFalse], g, float64(judged[vFalse])/g, judged[vFixture]+judged[vCredential], judged[vCredential], judged[vFixture])
	fmt.Fprintf(w, "rules that fire most: %s\n", rep.mostFiring(5))
	if f := rep.res.failures; len(f) > 0 {
		fmt.Fprintf(w, "REDACTOR FAILED on %d streams (the Writer stopped there; their later lines were not measured):\n", len(f))
		for _, s := range f {
			fmt.Fprintf(w, "  %s\n", s)
		}
	}
}

func (rep *report) mostFiring(n int) string {
	var parts []string
	for i, r := range rep.rows() {
		if i == n {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d, %s false)", r.rule, r.markers, pct(r.falseHits(), r.hits)))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

// writeFalseSamples shows a few false hits of each rule with false hits,
// the rules with most of them first.
func (rep *report) writeFalseSamples(w *bufio.Writer) {
	rows := rep.rows()
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].falseHits() > rows[j].falseHits() })
	fmt.Fprintf(w, "\nfalse hits by rule (up to %d each, a fixed random sample)\n", perRuleKeep)
	for i, r := range rows {
		if i == topRules || r.falseHits() == 0 {
			break
		}
		fmt.Fprintf(w, "%s: %d false\n", r.rule, r.falseHits())
		if b := rep.res.ruleFalse[r.rule]; b != nil {
			for _, h := range b.hits {
				fmt.Fprintf(w, "  %s:%d  %s  [%s]\n", h.where(), h.line, h.context(), h.why)
			}
		}
	}
}

func (h *hitRec) where() string {
	if h.name == "" {
		return h.source
	}
	return h.source + ":" + clip(h.name, 70)
}

// context is the span in its line, escaped, the span in ⟦ ⟧.
func (h *hitRec) context() string {
	return esc(tail(h.before, 30)) + "⟦" + esc(clip(h.span, 80)) + "⟧" + esc(clip(h.after, 30))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// esc shows control bytes and invalid UTF-8 as Go escapes.
func esc(s string) string {
	q := strconv.Quote(s)
	return strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
}
