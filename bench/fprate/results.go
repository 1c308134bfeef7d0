package main

import (
	"fmt"
	"hash/fnv"
	"sort"
)

// sampleSeed is mixed into every hit's key. Samples are the hits with the
// smallest keys (a bottom-k sample): uniform, the same whatever order the
// workers finish in, and a hit keeps its key from one run to the next, so
// a hand review stays attached to the hits it judged when rules change.
const sampleSeed = "rac-fprate-v1"

const (
	sampleSize  = 100 // hits judged each way for the hand review
	perRuleKeep = 5   // false hits shown per top rule
	contextLen  = 60  // bytes of the line kept on each side of a span
	spanKeep    = 240 // bytes of a span kept for printing
)

// hitRec is one hit as kept for printing and review.
type hitRec struct {
	key     uint64
	source  string
	name    string
	line    int
	rule    string
	span    string
	before  string
	after   string
	verdict verdict
	why     string
}

func (h *hitRec) id() string { return fmt.Sprintf("%016x", h.key) }

// ruleStats counts one rule's hits by verdict.
type ruleStats struct {
	markers int // as the Writer counted them
	judged  [3]int
}

// results is one worker's tally; merge adds them up.
type results struct {
	rules     map[string]*ruleStats
	unaligned int
	dropped   int
	sample    [3]*bottomK // by verdict
	ruleFalse map[string]*bottomK
	failures  []string           // streams where redaction itself failed
	sources   map[string]*[3]int // verdicts per source
	pending   []*hitRec          // this stream's credentials, see finishStream
}

func newResults() *results {
	r := &results{rules: map[string]*ruleStats{}, ruleFalse: map[string]*bottomK{}, sources: map[string]*[3]int{}}
	for i := range r.sample {
		r.sample[i] = &bottomK{k: sampleSize}
	}
	return r
}

func (r *results) stats(rule string) *ruleStats {
	s := r.rules[rule]
	if s == nil {
		s = &ruleStats{}
		r.rules[rule] = s
	}
	return s
}

func (r *results) addCounts(c map[string]int) {
	for rule, n := range c {
		r.stats(rule).markers += n
	}
}

func (r *results) addDropped()        { r.dropped++ }
func (r *results) addUnaligned(n int) { r.unaligned += n }

// addHit judges one recovered span. A credential is held until the
// stream ends (finishStream): a file holding several is a collection of
// samples.
func (r *results) addHit(st *streamState, lineNo, nth int, line []byte, s span) {
	h := &hitRec{
		source: st.it.source,
		name:   st.file,
		line:   lineNo,
		rule:   s.rule,
		span:   string(line[s.start:s.end]),
		before: string(line[max(0, s.start-contextLen):s.start]),
		after:  string(line[s.end:min(len(line), s.end+contextLen)]),
	}
	h.verdict, h.why = judge(h, st.it, line)
	f := fnv.New64a()
	fmt.Fprintf(f, "%s\x00%s\x00%s\x00%d\x00%d\x00%s", sampleSeed, h.source, h.name, lineNo, nth, h.rule)
	h.key = f.Sum64()
	if h.verdict == vCredential {
		r.pending = append(r.pending, h)
		return
	}
	r.record(h)
}

// collection is how many different credential-shaped values make a file
// a collection of samples (a scanner's rule tests, a vendor's docs) rather
// than a configuration that holds live ones.
const collection = 3

// finishStream judges the held credentials by how many different ones
// their file holds, and records them.
func (r *results) finishStream() {
	distinct := map[string]map[string]bool{}
	for _, h := range r.pending {
		if distinct[h.name] == nil {
			distinct[h.name] = map[string]bool{}
		}
		distinct[h.name][h.span] = true
	}
	for _, h := range r.pending {
		if n := len(distinct[h.name]); n >= collection {
			h.verdict = vFixture
			h.why += fmt.Sprintf("; one of %d credential-shaped values in the file", n)
		}
		r.record(h)
	}
	r.pending = r.pending[:0]
}

// record counts a judged hit and offers it to the samples.
func (r *results) record(h *hitRec) {
	r.stats(h.rule).judged[h.verdict]++
	src := r.sources[h.source]
	if src == nil {
		src = &[3]int{}
		r.sources[h.source] = src
	}
	src[h.verdict]++
	if len(h.span) > spanKeep {
		h.span = h.span[:spanKeep]
	}
	r.sample[h.verdict].offer(h)
	if h.verdict == vFalse {
		b := r.ruleFalse[h.rule]
		if b == nil {
			b = &bottomK{k: perRuleKeep}
			r.ruleFalse[h.rule] = b
		}
		b.offer(h)
	}
}

func (r *results) merge(o *results) {
	for rule, s := range o.rules {
		t := r.stats(rule)
		t.markers += s.markers
		for i := range s.judged {
			t.judged[i] += s.judged[i]
		}
	}
	r.unaligned += o.unaligned
	r.dropped += o.dropped
	r.failures = append(r.failures, o.failures...)
	for src, v := range o.sources {
		t := r.sources[src]
		if t == nil {
			t = &[3]int{}
			r.sources[src] = t
		}
		for i := range v {
			t[i] += v[i]
		}
	}
	for i := range r.sample {
		for _, h := range o.sample[i].hits {
			r.sample[i].offer(h)
		}
	}
	for rule, b := range o.ruleFalse {
		t := r.ruleFalse[rule]
		if t == nil {
			t = &bottomK{k: perRuleKeep}
			r.ruleFalse[rule] = t
		}
		for _, h := range b.hits {
			t.offer(h)
		}
	}
}

// bottomK keeps the k hits with the smallest keys.
type bottomK struct {
	k    int
	hits []*hitRec
}

func (b *bottomK) offer(h *hitRec) {
	if len(b.hits) < b.k {
		b.hits = append(b.hits, h)
		b.sort()
		return
	}
	if h.key >= b.hits[len(b.hits)-1].key {
		return
	}
	b.hits[len(b.hits)-1] = h
	b.sort()
}

func (b *bottomK) sort() {
	sort.Slice(b.hits, func(i, j int) bool { return b.hits[i].key < b.hits[j].key })
}
