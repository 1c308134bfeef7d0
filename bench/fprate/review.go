package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
)

// The hand review: a person reads the sampled hits (-samples writes them
// with their ids) and writes a verdict per id into review.tsv, one
// "id<TAB>true|false<TAB>note" a line. A hit keeps its id while it still
// fires, so a review made on one run is compared again on the next, and the
// report says how many sampled hits have no verdict yet.

type review struct {
	truth map[string]bool
	note  map[string]string
}

func readReview(p string) (*review, error) {
	rv := &review{truth: map[string]bool{}, note: map[string]string{}}
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return rv, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) < 2 || (fields[1] != "true" && fields[1] != "false") {
			return nil, fmt.Errorf("%s:%d: want id<TAB>true|false<TAB>note", p, n)
		}
		rv.truth[fields[0]] = fields[1] == "true"
		if len(fields) == 3 {
			rv.note[fields[0]] = fields[2]
		}
	}
	return rv, sc.Err()
}

// samples returns the hits judged true (credential or fixture) and false
// in the fixed random sample, sampleSize each.
func (rep *report) samples() (judgedTrue, judgedFalse []*hitRec) {
	judgedTrue = append(append([]*hitRec(nil), rep.res.sample[vCredential].hits...), rep.res.sample[vFixture].hits...)
	sort.Slice(judgedTrue, func(i, j int) bool { return judgedTrue[i].key < judgedTrue[j].key })
	if len(judgedTrue) > sampleSize {
		judgedTrue = judgedTrue[:sampleSize]
	}
	return judgedTrue, rep.res.sample[vFalse].hits
}

// agreement counts, for one sample, the hits a person reviewed and those
// where the judge agreed, and lists the disagreements.
type agreement struct {
	sampled, reviewed, agree int
	differ                   []*hitRec
}

func (rep *report) agreement(rv *review, hits []*hitRec) agreement {
	a := agreement{sampled: len(hits)}
	for _, h := range hits {
		truth, ok := rv.truth[h.id()]
		if !ok {
			continue
		}
		a.reviewed++
		if truth == (h.verdict != vFalse) {
			a.agree++
		} else {
			a.differ = append(a.differ, h)
		}
	}
	return a
}

func (a agreement) String() string {
	if a.reviewed == 0 {
		return fmt.Sprintf("%d sampled, none reviewed", a.sampled)
	}
	return fmt.Sprintf("%d sampled, %d reviewed, the judge agrees on %d (%s)", a.sampled, a.reviewed, a.agree, pct(a.agree, a.reviewed))
}

func (rep *report) writeReview(w *bufio.Writer) {
	rv, err := readReview(rep.cfg.review)
	if err != nil {
		fmt.Fprintf(w, "\nhand review: %v\n", err)
		return
	}
	jt, jf := rep.samples()
	at, af := rep.agreement(rv, jt), rep.agreement(rv, jf)
	fmt.Fprintf(w, "\nhand review (%s): judged true: %s; judged false: %s\n", rep.cfg.review, at, af)
	for _, h := range append(at.differ, af.differ...) {
		fmt.Fprintf(w, "  disagree %s judged %s, reviewed %s: %s %s  %s\n", h.id(), h.verdict, flip(h.verdict), h.rule, h.context(), rv.note[h.id()])
	}
	fmt.Fprintf(w, "\nreview sample: %d judged true, %d judged false (id, judged, rule, where, why, span in ⟦ ⟧)\n", len(jt), len(jf))
	rep.writeSampleList(w)
}

func flip(v verdict) string {
	if v == vFalse {
		return "true"
	}
	return "false"
}

// writeSampleList prints every sampled hit, one a line, for the review.
func (rep *report) writeSampleList(w *bufio.Writer) {
	jt, jf := rep.samples()
	for _, h := range append(jt, jf...) {
		judged := "true"
		if h.verdict == vFalse {
			judged = "false"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s:%d\t%s\t%s\n", h.id(), judged, h.rule, h.where(), h.line, h.why, h.context())
	}
}
