package main

import (
	"bufio"
	"fmt"
	"sort"
	"strings"
)

// writeMarkdown writes the section the manual quotes: sources, the rules
// that fire most, false hits per GiB, the method and the review.
func (rep *report) writeMarkdown(w *bufio.Writer) {
	g := rep.gibs()
	rows := rep.rows()
	var judged [3]int
	for _, r := range rows {
		for i := range judged {
			judged[i] += r.judged[i]
		}
	}
	fmt.Fprintf(w, "### False positives on real text\n\n")
	fmt.Fprintf(w, "Measured by `make fprate` (bench/fprate) on %.2f GiB of text already on the machine, redactor at %s, in %s on %d workers. ",
		g, rep.revision(), rep.elapsed.Round(1e9), rep.cfg.workers)
	fmt.Fprintf(w, "**%d false hits, %.1f per GiB**; %d hits were credential-shaped (%d of them test fixtures, examples or docs).\n\n",
		judged[vFalse], float64(judged[vFalse])/g, judged[vCredential]+judged[vFixture], judged[vFixture])
	fmt.Fprintf(w, "| source | MiB | files or streams | hits | false | false per GiB |\n|---|---:|---:|---:|---:|---:|\n")
	for _, s := range rep.sources {
		t := rep.tally[s.name]
		if t == nil {
			continue
		}
		v, perGiB := rep.sourceFalse(s.name)
		fmt.Fprintf(w, "| %s | %.1f | %d | %d | %d | %.1f |\n", mdEsc(s.what), float64(rep.scanned[s.name])/mib, t.streams,
			v[0]+v[1]+v[2], v[vFalse], perGiB)
	}
	fmt.Fprintf(w, "| **total** | **%.1f** | | %d | %d | %.1f |\n\n", float64(rep.total())/mib,
		judged[0]+judged[1]+judged[2], judged[vFalse], float64(judged[vFalse])/g)
	fmt.Fprintf(w, "| rule | hits | credential-shaped | false | false per GiB |\n|---|---:|---:|---:|---:|\n")
	for i, r := range rows {
		if i == topRules {
			break
		}
		fmt.Fprintf(w, "| `%s` | %d | %d | %d | %.1f |\n", r.rule, r.markers, r.judged[vCredential]+r.judged[vFixture], r.falseHits(), float64(r.falseHits())/g)
	}
	fmt.Fprintf(w, "| **all rules** | | %d | **%d** | **%.1f** |\n\n", judged[vCredential]+judged[vFixture], judged[vFalse], float64(judged[vFalse])/g)
	fmt.Fprintf(w, "Rules that fire most: %s.\n\n", rep.mostFiring(5))
	rep.writeMarkdownFalse(w, rows)
	fmt.Fprintf(w, "How a hit is judged. %s\n\n", strings.ReplaceAll(judgeMethod, "\n", " "))
	if rv, err := readReview(rep.cfg.review); err == nil {
		jt, jf := rep.samples()
		fmt.Fprintf(w, "Hand review of a fixed random sample: judged true: %s; judged false: %s.\n", rep.agreement(rv, jt), rep.agreement(rv, jf))
	}
}

// writeMarkdownFalse names, for the rules with most false hits, what they
// fired on.
func (rep *report) writeMarkdownFalse(w *bufio.Writer, rows []ruleRow) {
	byFalse := append([]ruleRow(nil), rows...)
	sort.SliceStable(byFalse, func(i, j int) bool { return byFalse[i].falseHits() > byFalse[j].falseHits() })
	n := 0
	for _, r := range byFalse {
		if r.falseHits() == 0 || n == 5 {
			break
		}
		if n == 0 {
			fmt.Fprintf(w, "Examples of false hits (span in ⟦ ⟧):\n\n")
		}
		n++
		fmt.Fprintf(w, "- `%s` (%d false):", r.rule, r.falseHits())
		if b := rep.res.ruleFalse[r.rule]; b != nil {
			for i, h := range b.hits {
				if i == 3 {
					break
				}
				fmt.Fprintf(w, " `%s`", strings.ReplaceAll(h.context(), "`", "'"))
			}
		}
		fmt.Fprintln(w)
	}
	if n > 0 {
		fmt.Fprintln(w)
	}
}

func mdEsc(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
