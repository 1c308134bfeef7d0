// Package explain says in a few lines what failed in a recorded command:
// the command, its outcome, and the up to four distinct output lines most
// likely to be the cause, or a short tail when no line looks like an error;
// for a run that exited 0, never a cause: its warnings and its last lines.
// It owns the matching, the ranking and the text and JSON renderings.
//
// It takes plain values (the recording's metadata and a reader per stream)
// and writes to an io.Writer. It must never open the store, print to the
// process's own stdout or stderr, or print a string that has not passed
// through the caller's redactor. It reads each stream once, keeping only a
// bounded set of candidate lines and a short tail, so its memory does not
// grow with the recording.
package explain

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
)

// Meta is what the recording says about the run.
type Meta struct {
	Ref        string     // qualified reference SESSION/NAME
	Argv       []string   // the command as run
	Cwd        string     // its working directory
	Status     string     // running | exited | signaled | timed_out | failed_to_start | incomplete
	ExitCode   *int       // set when Status == exited
	Signal     string     // e.g. SIGTERM when signaled
	StartedAt  time.Time  // when the command started
	EndedAt    *time.Time // nil while running / incomplete
	Truncated  bool       // the recording was cut (head+tail cap); Note says how
	Note       string     // free text from the recorder (how it was cut, why it failed to start)
	Redactions int        // redactions made while recording
}

// Statuses of a recording: the recorder's own.
const (
	StatusRunning       = record.StatusRunning
	StatusExited        = record.StatusExited
	StatusSignaled      = record.StatusSignaled
	StatusTimedOut      = record.StatusTimedOut
	StatusFailedToStart = record.StatusFailedToStart
	StatusIncomplete    = record.StatusIncomplete
	StatusStreamEnded   = record.StatusStreamEnded
)

// Stream is one recorded output stream. A stream the recorder cut to its
// head and tail may be given as two Streams of the same name, the second
// with the FirstLine of its tail.
type Stream struct {
	Name      string    // "stdout" or "stderr" (or "pty")
	R         io.Reader // the stored bytes of that stream, from the first byte; may be nil
	FirstLine int       // line number of the first line R yields (1 normally; >1 after a cut), default 1 when 0
}

// Input is everything Explain needs.
type Input struct {
	Meta    Meta
	Streams []Stream
	Redact  func(string) string // applied to EVERY string the report prints (argv, cwd, note, lines); nil = identity
	Now     func() time.Time    // for the age of a running or incomplete run; nil = time.Now
}

// Report is the explanation of one recording. Every string in it has been
// redacted; lengths are cut only when it is rendered.
type Report struct {
	Meta     Meta          // as given, with Argv, Cwd and Note redacted
	Argc     int           // len(Meta.Argv) as recorded; Argv may hold fewer (see MaxArgvBytes)
	Duration time.Duration // run time; for running and incomplete runs, the time since the start
	Shows    string        // ShowsCause, ShowsTail or ShowsPass
	Lines    []Line        // the cause lines, most likely first, or the tail in stream order
	Rest     []Line        // a short output shown whole (ShortOutput): its other lines, in stream order, after the cause
	Matched  int           // output lines that matched an error term or shape, before folding
	Streams  []StreamStat  // what was read
}

// What a report shows.
const (
	ShowsCause = "cause"
	ShowsTail  = "tail"
	// ShowsPass is for a run that exited 0: its last lines, where test
	// runners and builds say that they passed, after up to MaxPassWarnings
	// warnings. A run that passed has no cause, whatever it printed.
	ShowsPass = "pass"
)

// Line is one output line in a report.
type Line struct {
	Stream string // stream name
	Line   int    // per-stream line number, counted from 1 as rac out read counts
	Text   string // the line as a terminal showed it, trimmed and redacted
	Count  int    // similar lines folded into this one (1: none)
	Kind   string // why it was picked (compiler, exception, panic, test, tool, git, log, make, report, term, detail, summary, context, tail, pass, shape)
	// Cut: the line is the last of a stream of an incomplete recording and
	// has no newline: the recorder's kill may have cut it (record.Line.Cut)
	Cut bool
}

// StreamStat says how much of a stream was read.
type StreamStat struct {
	Name  string `json:"name"`
	Lines int    `json:"lines"` // number of the last line (0 for an empty stream)
	Bytes int64  `json:"bytes"`
}

const (
	// MaxCause is the number of distinct cause lines a report shows.
	MaxCause = 4
	// MaxTail is the number of tail lines a report shows: with the command,
	// outcome and header lines the text stays under 12 lines.
	MaxTail = 8
	// MaxPassTail is the number of tail lines a passing run's report shows.
	MaxPassTail = 6
	// MaxPassWarnings is the number of warnings shown above them.
	MaxPassWarnings = 2
	// MaxArgvBytes bounds the argv kept in a report: more would never fit
	// the 8 KiB JSON object, and the text line shows much less.
	MaxArgvBytes = 8 << 10

	maxLine  = 4 << 10 // bytes of a line classified, kept and redacted
	tailRing = 10      // tail lines kept per stream
)

// readSize is the read buffer; a longer line arrives in pieces and is
// judged by its first maxLine bytes, as every line is. A variable so tests
// can show that where the buffer splits lines changes nothing.
var readSize = 1 << 20

// Explain reads the streams once and builds the report. It fails only when
// a stream cannot be read.
func Explain(in Input) (*Report, error) {
	redact := in.Redact
	if redact == nil {
		redact = func(s string) string { return s }
	}
	now := time.Now
	if in.Now != nil {
		now = in.Now
	}
	st := newStore()
	rep := &Report{}
	passed := in.Meta.Status == StatusExited && in.Meta.ExitCode != nil && *in.Meta.ExitCode == 0
	rings, open, err := rep.scan(in.Streams, st, !passed)
	if err != nil {
		return nil, err
	}
	if in.Meta.Status == StatusIncomplete {
		defer rep.markCut(open)
	}
	rep.setMeta(in.Meta, redact, now)
	rep.Matched = st.matched

	name := func(i int) string { return in.Streams[i].Name }
	if passed {
		rep.Shows = ShowsPass
		for _, c := range st.tiers[tierContext] {
			if len(rep.Lines) == MaxPassWarnings {
				break
			}
			rep.Lines = append(rep.Lines, Line{Stream: name(c.stream), Line: c.line, Text: redact(c.text), Count: c.count, Kind: c.kind})
		}
	} else if top := st.top(MaxCause); len(top) > 0 && top[0].tier > tierContext {
		rep.Shows = ShowsCause
		for _, c := range top {
			if c.promoted {
				rep.Matched++ // shown beside the line that matched: one of them
			}
			// redacted whole, then cut: a secret is never split before the redactor sees it
			rep.Lines = append(rep.Lines, Line{Stream: name(c.stream), Line: c.line, Text: keepReason(redact(c.text)), Count: c.count, Kind: c.kind})
		}
		if short(in.Streams, rings) {
			rep.addRest(in.Streams, rings, top, redact)
		} else if generic(top) {
			rep.addOneOffs(in.Streams, rings, redact)
		}
		return rep, nil
	}
	tail := MaxTail
	if passed {
		tail = MaxPassTail
	} else {
		rep.Shows = ShowsTail
		rep.addShapedTail(in.Streams, rings, st.tiers[tierContext], tail, redact)
		return rep, nil
	}
	rep.addTail(in.Streams, rings, tail, passed, redact)
	return rep, nil
}

// addShapedTail is the report of a failure where no line matched: the
// lines of the context tier come first (a run that failed on warnings
// alone, a list of files under the sentence that announces it), then the
// lines that stand out by their shape, when the tail does not hold them
// already, then the tail. At most maxAboveTail lines come above it.
func (r *Report) addShapedTail(streams []Stream, rings []*ring, warned []*candidate, tail int, redact func(string) string) {
	var above []Line
	for _, c := range warned[:min(len(warned), maxAboveTail)] {
		above = append(above, Line{Stream: streams[c.stream].Name, Line: c.line, Text: keepReason(redact(c.text)), Count: c.count, Kind: c.kind})
	}
	var offs []Line
	for i, rg := range rings {
		for _, o := range rg.oneOffs {
			if !slices.ContainsFunc(above, func(l Line) bool { return l.Stream == streams[i].Name && l.Line == o.line }) {
				offs = append(offs, Line{Stream: streams[i].Name, Line: o.line, Text: redact(o.text), Count: 1, Kind: kindShape})
			}
		}
	}
	above = append(above, offs[max(len(offs)-maxOneOffs, 0):]...)
	above = above[:min(len(above), maxAboveTail)]
	r.addTail(streams, rings, tail-len(above), false, redact)
	above = slices.DeleteFunc(above, func(o Line) bool {
		return slices.ContainsFunc(r.Lines, func(l Line) bool { return l.Stream == o.Stream && l.Line == o.Line })
	})
	r.Lines = append(above, r.Lines...)
}

// maxAboveTail bounds the warnings and lines that stand out by their shape
// shown above the tail of a failure where no line matched.
const maxAboveTail = 3

// generic says whether every cause line names nothing (no file, position,
// quoted token or value: "check failed: the checker reported problems"),
// with room left in the report.
func generic(top []*candidate) bool {
	if len(top) >= MaxCause {
		return false
	}
	for _, c := range top {
		if c.spec > 0 {
			return false
		}
	}
	return true
}

// addOneOffs adds, below cause lines that name nothing, the lines that
// stand out by their shape (a checker's finding just above a CI step's
// generic verdict about it), up to MaxCause lines in all. Each counts as
// matched once shown, as a line promoted beside a match does.
func (r *Report) addOneOffs(streams []Stream, rings []*ring, redact func(string) string) {
	for i, rg := range rings {
		for _, o := range rg.oneOffs {
			if len(r.Lines) == MaxCause {
				return
			}
			if slices.ContainsFunc(r.Lines, func(l Line) bool { return l.Stream == streams[i].Name && l.Line == o.line }) {
				continue
			}
			r.Lines = append(r.Lines, Line{Stream: streams[i].Name, Line: o.line, Text: keepReason(redact(o.text)), Count: 1, Kind: kindShape})
			r.Matched++
		}
	}
}

// scan reads each stream once into st, counting it in the report, and
// returns the streams' tail rings and, per stream name, the number of a
// last line that has no newline (0: none).
func (r *Report) scan(streams []Stream, st *store, failed bool) ([]*ring, map[string]int, error) {
	buf := make([]byte, readSize)
	rings := make([]*ring, len(streams))
	open := map[string]int{}
	for i, s := range streams {
		sc := &scanner{store: st, stream: i, next: max(s.FirstLine, 1), ring: &ring{}}
		if s.R != nil {
			if err := sc.run(s.R, buf); err != nil {
				return nil, nil, fmt.Errorf("explain: read %s: %w", s.Name, err)
			}
		}
		sc.ring.seen = sc.next - max(s.FirstLine, 1)
		sc.ring.oneOffs = sc.shapes.oneOffs()
		for _, f := range sc.shapes.found[:sc.shapes.nFound] {
			if f.tier == tierContext && !failed {
				continue // a passing run's warnings are those that mention a term
			}
			if f.tier <= tierSummary {
				st.note(f.tier, f.kind, i, f.line, termtext.CleanLine(f.text))
			} else {
				st.promote(f.tier, f.kind, i, f.line, termtext.CleanLine(f.text))
			}
		}
		rings[i] = sc.ring
		r.addStream(s.Name, sc.next-1, sc.bytes)
		// a stream cut to its head and tail comes as two Streams: only
		// the later one ends where the stream does
		open[s.Name] = 0
		if sc.open {
			open[s.Name] = sc.next - 1
		}
	}
	return rings, open, nil
}

// markCut marks the shown lines that are a stream's last line without
// its newline, in an incomplete recording: open says which (see scan).
func (r *Report) markCut(open map[string]int) {
	for _, lines := range [][]Line{r.Lines, r.Rest} {
		for i := range lines {
			if l := &lines[i]; l.Line > 0 && open[l.Stream] == l.Line {
				l.Cut = true
			}
		}
	}
}

// setMeta copies the recording's metadata into the report, redacted, the
// command line bounded by MaxArgvBytes (Argc keeps its length).
func (r *Report) setMeta(m Meta, redact func(string) string, now func() time.Time) {
	r.Meta = m
	r.Argc = len(m.Argv)
	r.Meta.Argv = nil
	size := 0
	for _, a := range m.Argv {
		if size >= MaxArgvBytes {
			break
		}
		a = redact(a)
		size += len(a)
		r.Meta.Argv = append(r.Meta.Argv, a)
	}
	r.Meta.Cwd = redact(m.Cwd)
	r.Meta.Note = redact(m.Note)
	r.Duration = duration(m, now)
}

// addTail adds the last lines of the streams, tail in all, shared out
// between them (see tailShares; passShares for a run that passed).
func (r *Report) addTail(streams []Stream, rings []*ring, tail int, passed bool, redact func(string) string) {
	// A stream cut to its head and tail comes as two Streams of one name;
	// its tail is the tail of the later one (unless that one is empty).
	for i := range rings {
		for j := i + 1; j < len(rings); j++ {
			if streams[j].Name == streams[i].Name && rings[j].n > 0 {
				rings[i] = &ring{}
				break
			}
		}
	}
	shares := tailShares(rings, tail)
	if passed {
		passShares(rings, shares)
	}
	for i, n := range shares {
		if passed && n > 1 {
			// A pass line further up than the share, above a teardown log
			// ("14 passed" over the server's shutdown lines), is shown first.
			if p, ok := passLineAbove(rings[i], n); ok {
				r.Lines = append(r.Lines, Line{Stream: streams[i].Name, Line: p.line, Text: redact(p.text), Count: 1, Kind: kindPass})
				n--
			}
		}
		for _, e := range rings[i].last(n) {
			r.Lines = append(r.Lines, Line{Stream: streams[i].Name, Line: e.line, Text: redact(e.text), Count: 1, Kind: kindTail})
		}
	}
}

// ShortOutput is the most non-blank lines a failed run may print and be
// shown whole: with the command, outcome and header lines the report
// stays within the 12 lines a reader takes in at once, as the tail does
// (MaxTail). Below it, the lines explain did not pick (a tool's one-line
// reason without an error word beside the generic "test failed" it did
// pick) cost fewer tokens than a second look at the recording.
const ShortOutput = MaxTail

// short says whether the streams are short enough to be shown whole: each
// fits its tail ring, and all their non-blank lines fit ShortOutput.
func short(streams []Stream, rings []*ring) bool {
	n := 0
	for i, r := range rings {
		if r.seen > tailRing || streams[i].FirstLine > 1 {
			return false
		}
		n += r.n
	}
	return n <= ShortOutput
}

// addRest adds, after the cause lines of a short output, its other
// non-blank lines in stream order (kind tail), so the whole output is
// shown.
func (r *Report) addRest(streams []Stream, rings []*ring, shown []*candidate, redact func(string) string) {
	for i, rg := range rings {
	next:
		for _, e := range rg.last(rg.n) {
			for _, c := range shown {
				if c.stream == i && c.line == e.line {
					continue next
				}
			}
			r.Rest = append(r.Rest, Line{Stream: streams[i].Name, Line: e.line, Text: redact(e.text), Count: 1, Kind: kindTail})
		}
	}
}

// addStream counts what was read of a stream. A stream cut to its head
// and tail comes as two Streams of one name and is one stream of the
// recording: listed once, with the bytes of both and the last line of the
// later one.
func (r *Report) addStream(name string, last int, n int64) {
	if n == 0 {
		last = 0
	}
	for i := range r.Streams {
		if s := &r.Streams[i]; s.Name == name {
			s.Bytes += n
			if n > 0 {
				s.Lines = last
			}
			return
		}
	}
	r.Streams = append(r.Streams, StreamStat{Name: name, Lines: last, Bytes: n})
}

// reasonLead is how much of a long line is kept before its first error
// term when the preamble is cut.
const reasonLead = 48

// keepReason cuts the preamble of a line too long to show whole when its
// first error term lies beyond what the text shows (a log line's fixed
// prefix of timestamps, hosts and ids, then the message): the line then
// starts with "…" a little before the term, at a word boundary, so the
// shown part holds the reason rather than the prefix.
func keepReason(s string) string {
	if len(s) <= TextLineBytes {
		return s
	}
	s = shortenPaths(s)
	if len(s) <= TextLineBytes {
		return s
	}
	i := termIndex([]byte(s))
	if i < 0 || i+reasonLead <= TextLineBytes-len(ellipsis) {
		return s
	}
	start := i - reasonLead
	if j := strings.IndexByte(s[start:i], ' '); j >= 0 {
		start += j + 1
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return ellipsis + s[start:]
}

// maxPathShown is the longest path a line too long to show keeps whole.
const maxPathShown = 32

// shortenPaths shows a line too long to show whole with each long path
// ("/tmp/work/site-7/conf/httpd.conf:9:") as "…" and its last element
// ("…/httpd.conf:9:"): a tool that names a file twice, each time by a long
// path, puts its message after them, beyond the cut ("...httpd.conf:
// /tmp/.../httpd.conf:9: <Directory> was not closed.").
func shortenPaths(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (isFileByte(s[j]) || s[j] == '/' || s[j] == '~') {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		run := s[i:j]
		if last := strings.LastIndexByte(run, '/'); len(run) > maxPathShown && last > 0 && strings.Count(run, "/") >= 2 {
			run = ellipsis + run[last:]
		}
		b.WriteString(run)
		i = j
	}
	return b.String()
}

// duration is the run time, or for a run without an end, the time since
// its start (zero when the start is unknown).
func duration(m Meta, now func() time.Time) time.Duration {
	switch {
	case m.StartedAt.IsZero():
		return 0
	case m.EndedAt != nil:
		return max(m.EndedAt.Sub(m.StartedAt), 0)
	default:
		return max(now().Sub(m.StartedAt), 0)
	}
}

// tailShares splits n tail lines between streams: each stream gets up to
// an equal share, and what one cannot use goes to the others.
func tailShares(rings []*ring, n int) []int {
	shares := make([]int, len(rings))
	for left := n; left > 0; {
		want := 0
		for i, r := range rings {
			if shares[i] < r.n {
				want++
			}
		}
		if want == 0 {
			break
		}
		each := max(left/want, 1)
		for i, r := range rings {
			if left == 0 {
				break
			}
			give := min(each, r.n-shares[i], left)
			shares[i] += give
			left -= give
		}
	}
	return shares
}

// passShares makes room in a passing run's tail for the line that says it
// passed ("Tests: 3 passed, 3 total"), when a runner writes a few lines
// after it and another stream took part of the tail: lines are taken from
// the streams with the most.
func passShares(rings []*ring, shares []int) {
	total := 0
	for _, n := range shares {
		total += n
	}
	for i, r := range rings {
		lines := r.last(r.n)
		d := 0
		for k := len(lines) - 1; k >= 0; k-- {
			if isPassLine([]byte(strings.TrimSpace(lines[k].text))) {
				d = len(lines) - k
				break
			}
		}
		if d <= shares[i] || d > total {
			continue
		}
		for shares[i] < d {
			j := -1
			for k := range shares {
				if k != i && shares[k] > 0 && (j < 0 || shares[k] > shares[j]) {
					j = k
				}
			}
			if j < 0 {
				break
			}
			shares[j]--
			shares[i]++
		}
		return
	}
}

// passLineAbove finds the last pass line a ring holds above its last n
// lines.
func passLineAbove(r *ring, n int) (tailLine, bool) {
	lines := r.last(r.n)
	for k := len(lines) - 1; k >= 0; k-- {
		if isPassLine([]byte(strings.TrimSpace(lines[k].text))) {
			return lines[k], k < len(lines)-n
		}
	}
	return tailLine{}, false
}

// isPassLine recognises a line that says a run passed: a count that
// passed ("3 passed", "2 passing", "100% tests passed"), or unittest's
// and PHPUnit's "OK".
func isPassLine(t []byte) bool {
	if string(t) == "OK" || hasPrefix(t, "OK (") {
		return true
	}
	for _, w := range []string{" passed", " passing", "% tests passed"} {
		if i := bytes.Index(t, []byte(w)); i > 0 && isDigit(t[i-1]) {
			return true
		}
	}
	return false
}

// candidate is a line that may be shown.
type candidate struct {
	tier   int
	kind   string
	stream int
	line   int
	text   string
	key    string
	count  int
	spec   int // how specific the line is (see specificity)
	// promoted: kept for a matching line beside it (promote), not counted
	// in store.matched until it is shown (Explain adds it then) or the
	// same line arrives through add, which counts it.
	promoted bool
}

// before is the order within a tier: the more specific line first (see
// rank), then the earlier line, then stream order.
func (c *candidate) before(d *candidate) bool {
	if rc, rd := rank(c.tier, c.kind, c.spec), rank(d.tier, d.kind, d.spec); rc != rd {
		return rc > rd
	}
	if c.line != d.line {
		return c.line < d.line
	}
	return c.stream < d.stream
}

// store keeps the candidates that can still be shown. Since a tier is
// ordered (by rank, then position) and only MaxCause lines are shown, each
// tier keeps only its first MaxCause distinct lines in that order: a line
// that sorts after them can never be shown, so memory stays bounded
// however many lines match.
type store struct {
	tiers   [nTiers][]*candidate
	keys    map[string]*candidate
	matched int
	keyBuf  []byte
}

func newStore() *store { return &store{keys: make(map[string]*candidate)} }

func (s *store) add(tier int, kind string, stream, line int, text []byte) {
	s.matched++
	s.keep(tier, kind, stream, line, text, true)
}

// promote raises a line already counted to a higher tier, or keeps it
// anew there when its own tier had no room for it.
func (s *store) promote(tier int, kind string, stream, line int, text []byte) {
	s.keep(tier, kind, stream, line, text, false)
}

// note keeps a line that no rule judged, found by its form after the
// stream was read (a position-led line, located.go): a line already kept,
// at whatever tier, keeps the tier its rules gave it.
func (s *store) note(tier int, kind string, stream, line int, text []byte) {
	s.keyBuf = appendKey(s.keyBuf[:0], bytes.TrimSpace(text))
	if _, ok := s.keys[string(s.keyBuf)]; !ok {
		s.keep(tier, kind, stream, line, text, false)
	}
}

// keep is add and promote: count says whether the line is one more of
// its key (add) or one already counted (promote).
func (s *store) keep(tier int, kind string, stream, line int, text []byte, count bool) {
	text = bytes.TrimSpace(text)
	s.keyBuf = appendKey(s.keyBuf[:0], text)
	if c, ok := s.keys[string(s.keyBuf)]; ok {
		switch {
		case count && c.promoted && c.stream == stream && c.line == line:
			c.promoted = false // the line promoted before it was judged: now counted, once
		case count:
			c.count++
		}
		if tier > c.tier {
			s.remove(c)
			c.tier, c.kind = tier, kind
			s.insert(c)
		}
		return
	}
	// Most lines of a flood of errors cannot be shown: leave before
	// allocating anything for them. A line that would not sort before the
	// last one kept even if it named everything (rank never falls as a
	// line grows more specific) leaves before its specificity is read:
	// that is most of them, and reading it is most of the cost of a line.
	h := s.tiers[tier]
	full := len(h) == MaxCause
	if full && !(&candidate{tier: tier, kind: kind, line: line, stream: stream, spec: maxSpec}).before(h[len(h)-1]) {
		return
	}
	spec := specificity(text)
	if full && !(&candidate{tier: tier, kind: kind, line: line, stream: stream, spec: spec}).before(h[len(h)-1]) {
		return
	}
	c := &candidate{tier: tier, kind: kind, stream: stream, line: line, text: string(text), key: string(s.keyBuf), count: 1, spec: spec, promoted: !count}
	s.keys[c.key] = c
	s.insert(c)
}

func (s *store) insert(c *candidate) {
	h := s.tiers[c.tier]
	i, _ := slices.BinarySearchFunc(h, c, func(a, b *candidate) int {
		if a.before(b) {
			return -1
		}
		return 1
	})
	h = slices.Insert(h, i, c)
	if len(h) > MaxCause {
		delete(s.keys, h[MaxCause].key)
		h = h[:MaxCause]
	}
	s.tiers[c.tier] = h
}

func (s *store) remove(c *candidate) {
	h := s.tiers[c.tier]
	if i := slices.Index(h, c); i >= 0 {
		s.tiers[c.tier] = slices.Delete(h, i, i+1)
	}
}

// top returns up to n candidates, most likely cause first.
func (s *store) top(n int) []*candidate {
	var out []*candidate
	for t := nTiers - 1; t >= 0 && len(out) < n; t-- {
		for _, c := range s.tiers[t] {
			if len(out) == n {
				break
			}
			out = append(out, c)
		}
	}
	return out
}

// scanner reads one stream.
type scanner struct {
	store  *store
	stream int
	next   int // number of the line that starts at the next unread byte
	bytes  int64
	state  lineState
	ring   *ring
	open   bool       // the stream ended in a line without its newline
	shapes lineShapes // one-off lines between blocks of one template

	// A line longer than the read buffer arrives in pieces: its first
	// maxLine bytes are kept and judged once it ends.
	long   []byte
	inLong bool

	// The line before the one being judged, when the buffer still holds
	// it, is the line of prevIn that ends before offset prevAt (none when
	// prevIn is nil): a stack trace's message is there. It is found only
	// when wanted; walking back to its start costs more than the rest of
	// what a line that merely holds an anchor needs.
	prevIn []byte
	prevAt int
}

func (sc *scanner) run(r io.Reader, buf []byte) error {
	have := 0
	for {
		n, err := io.ReadFull(r, buf[have:])
		sc.bytes += int64(n)
		eof := false
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			eof = true
		default:
			return err
		}
		data := buf[:have+n]
		have = 0
		if sc.inLong {
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				sc.longPiece(data)
				if !eof {
					continue
				}
				sc.endLong()
				sc.open = true
				return nil
			}
			sc.longPiece(data[:i])
			sc.endLong()
			data = data[i+1:]
		}
		last := bytes.LastIndexByte(data, '\n')
		if last >= 0 {
			sc.chunk(data[:last+1])
		}
		rest := data[last+1:]
		switch {
		case eof:
			if len(rest) > 0 {
				sc.lastLine(rest)
				sc.open = true
			}
			return nil
		case len(rest) == len(buf):
			sc.inLong, sc.long = true, sc.long[:0]
			sc.longPiece(rest)
		default:
			have = copy(buf, rest)
		}
	}
}

func (sc *scanner) longPiece(p []byte) {
	if room := maxLine - len(sc.long); room > 0 {
		sc.long = append(sc.long, p[:min(room, len(p))]...)
	}
}

// endLong judges a long line by its head, as every line is: classify
// and the shapes see no more of any line, so an anchor further on could
// not make it a candidate. It is then a line like any other (lastLine).
func (sc *scanner) endLong() {
	sc.inLong = false
	sc.lastLine(sc.long)
}

// lastLine handles a final line that has no newline, or a long line's
// head.
func (sc *scanner) lastLine(b []byte) {
	sc.shapes.lines(b, sc.next)
	if sc.state.cont && !sc.state.continues(b) {
		sc.state.cont = false
	}
	if sc.state.wantAll() || pfOnce().index(b) >= 0 {
		sc.line(b, sc.next)
	}
	sc.ring.push(sc.next, b)
	sc.next++
}

// chunk handles whole lines (b ends with a newline). Lines without an
// anchor are only counted; that is where the time goes on a big recording.
func (sc *scanner) chunk(b []byte) {
	sc.shapes.lines(b, sc.next)
	for pos := 0; pos < len(b); {
		if sc.state.cont && !sc.state.continues(b[pos:pos+bytes.IndexByte(b[pos:], '\n')]) {
			sc.state.cont = false // most candidates are not wrapped: the next line is left to the prefilter
		}
		if sc.state.wantAll() {
			e := pos + bytes.IndexByte(b[pos:], '\n')
			sc.prevIn, sc.prevAt = b, pos
			sc.line(b[pos:e], sc.next)
			sc.next++
			pos = e + 1
			continue
		}
		h := pfOnce().index(b[pos:])
		if h < 0 {
			sc.next += bytes.Count(b[pos:], []byte{'\n'})
			break
		}
		h += pos
		ls := pos + bytes.LastIndexByte(b[pos:h], '\n') + 1
		sc.next += bytes.Count(b[pos:ls], []byte{'\n'})
		e := h + bytes.IndexByte(b[h:], '\n')
		sc.prevIn, sc.prevAt = b, ls
		sc.line(b[ls:e], sc.next)
		sc.next++
		pos = e + 1
	}
	sc.prevIn, sc.prevAt = nil, 0
	sc.ring.capture(b, sc.next)
}

// prevLine is the line of b that ends just before offset ls, a line start.
func prevLine(b []byte, ls int) []byte {
	if ls == 0 {
		return nil
	}
	return b[bytes.LastIndexByte(b[:ls-1], '\n')+1 : ls-1]
}

// line classifies one line and keeps it when it is a candidate.
//
// A line that holds a term and is followed by lines indented deeper is
// the heading of a block (a memory checker's "Invalid read of size 4" over
// its frames, an error over its details): it is promoted to a cause once
// the next line shows the block. A checker's "==123== " prefix is not part
// of the indentation.
func (sc *scanner) line(raw []byte, n int) {
	s := termtext.CleanLine(raw[:min(len(raw), maxLine)])
	if j, ok := jsonText(s); ok {
		if len(j) == 0 {
			return // an event without text ({"Action":"pass"}): its output lines say more
		}
		s = j
	}
	c := s[reportPrefix(s):]
	t := trimIndent(c)
	st := &sc.state
	if st.heading {
		sc.blockHead(s, c, t, n)
	}
	sc.bannerBlock(s, t, n)
	cont := st.cont
	st.cont = false
	detail := st.detail > 0 && sc.isDetail(c, t)
	located := detail && st.locate
	sc.endOutput(n, t)
	tier, kind := sc.classify(c, n)
	if st.prevCause {
		st.prevCause = false
		prev := prevLine(sc.prevIn, sc.prevAt)
		if p := bytes.TrimSpace(termtext.CleanLine(prev[:min(len(prev), maxLine)])); len(p) > 0 {
			sc.store.promote(tierCause, kindException, sc.stream, n-1, p)
		}
	}
	if detail {
		sc.foundDetail(s, c, t, n, tier, located)
	} else if st.locate && st.detail > 0 && tier >= tierTerm {
		st.detail = 0 // the heading's message is a candidate of its own
	}
	if tier == tierNone {
		// A heading wrapped over two lines ("Unhandled SIMPLE-ERROR in
		// thread #<... RUNNING" over "  {1001348003}>:"): its message
		// follows the continuation.
		if cont && !detail && st.continues(c) {
			st.lookBelow(false, false)
		}
		return
	}
	st.cont, st.contDepth = true, len(c)-len(t)
	if tier >= tierTerm {
		st.lastCand, st.block = n, framedBlock(t)
	}
	sc.addText(tier, kind, n, s)
	if tier == tierCause && (kind == kindPanic || kind == kindTest || kind == kindException) {
		st.values, st.value = maxValueLook, nil
	}
	if tier == tierTerm && kind == kindTerm {
		st.heading, st.headLine, st.headText = true, n, append(st.headText[:0], s...)
		st.headDepth = len(c) - len(t)
	}
	// A heading that announces its detail: "CMake Error at f:4 (cmd):"
	// over its message, an assertion's "...strictly equal:" over the
	// values, or a tool's "Error: Summary" whose detail follows its
	// indented source excerpt. The block is reported by both lines.
	if tier >= tierTerm && !detail {
		colon := announces(t)
		if colon || len(c) == len(t) && hasPrefix(t, "Error: ") {
			st.lookBelow(!colon, false)
			return
		}
	}
	// A heading or summary of a few words that names nothing, not even a
	// position in a file ("Failure -> spec @ 3", "BUILD FAILED", "x.xml -
	// invalid", "error: invalid TOML"): the line below it that names a
	// position is what it is about. A longer line is a message of its own.
	if (tier == tierTerm || tier == tierSummary || kind == kindTool || kind == kindReport) && !detail && !st.inOutput &&
		st.detail == 0 && namesNothing(t) {
		sc.vagueHeading(t, n)
	}
}

// vagueHeading looks below a heading that names nothing for its detail;
// when it counts ("found 1 fatal error"), the line just above it is what
// it counts if that line names a position.
func (sc *scanner) vagueHeading(t []byte, n int) {
	sc.state.lookBelow(false, true)
	if prev := prevLine(sc.prevIn, sc.prevAt); counts(t) && locates(prev) {
		sc.store.promote(tierCause, kindDetail, sc.stream, n-1, termtext.CleanLine(prev[:min(len(prev), maxLine)]))
	}
}

// counts reports a number standing alone as a word: "found 1 fatal error".
func counts(t []byte) bool {
	for i := 0; i < len(t); i++ {
		if isDigit(t[i]) && (i == 0 || t[i-1] == ' ') {
			j := i
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			if j < len(t) && t[j] == ' ' {
				return true
			}
		}
	}
	return false
}

// blockHead promotes the term line before this one when this one is
// indented deeper: it heads a block. The first line of the block is the
// heading's message ("FAIL "name"" over "  Expected values to be
// equal"), unless the block is a stack of frames or a source excerpt.
func (sc *scanner) blockHead(s, c, t []byte, n int) {
	st := &sc.state
	st.heading = false
	if len(t) == 0 || st.headLine != n-1 || len(c)-len(t) <= st.headDepth {
		return
	}
	sc.store.promote(tierCause, kindReport, sc.stream, st.headLine, st.headText)
	if !isFrameLine(t) && !isCodeFrame(t) {
		sc.store.promote(tierCause, kindDetail, sc.stream, n, s)
	}
}

// foundDetail keeps the detail a heading was looked under for. A located
// line that is a candidate keeps its own kind. An announced detail that
// is itself a heading, at the depth of the line that announced it
// ("Failures:" over "1) a test's name"), not its indented body, has its
// message below it.
func (sc *scanner) foundDetail(s, c, t []byte, n, tier int, located bool) {
	st := &sc.state
	st.detail, st.locate = 0, false
	if !located || tier < tierTerm {
		sc.store.promote(tierCause, kindDetail, sc.stream, n, s)
	}
	if !located && len(c) == len(t) && namesNothing(t) {
		st.lookBelow(false, true)
	}
}

// lookBelow starts the look for the detail of the line just judged:
// body says its indented body comes first, located that it names no
// position, so the detail is the first line below that does.
func (s *lineState) lookBelow(body, located bool) {
	s.detail, s.body, s.locate, s.label = maxDetailLook, body, located, false
	if located {
		s.detail = maxLocateLook
	}
}

// maxLocateLook bounds how far below a heading that names nothing the line
// that names a position is looked for: the look classifies every line it
// passes, and such headings are common in long logs.
const maxLocateLook = 4

// namesNothing says whether a line of a few words names nothing a reader
// could act on: no position in a file, nothing specific.
func namesNothing(t []byte) bool {
	return words(t) <= maxHeadingWords && specificity(t) == 0 && !locates(t)
}

// locatedDetail is isDetail under a heading that names no position: the
// detail is the first line below that names one, or the line after a
// label alone ("Message:"); a stack of frames ends the look.
func (s *lineState) locatedDetail(t []byte) bool {
	switch {
	case len(t) == 0 || isCodeFrame(t) || passMarked(t):
		return false
	case isFrameLine(t):
		s.detail = 0
		return false
	case !s.label && isLabel(t):
		s.label = true
		return false
	case s.label || locates(t):
		s.detail = 0
		return true
	}
	return false
}

// maxHeadingWords is the most words a heading that names nothing has.
const maxHeadingWords = 5

// words counts the words of t, runs of bytes between spaces.
func words(t []byte) int {
	n, in := 0, false
	for _, c := range t {
		switch {
		case c == ' ' || c == '\t':
			in = false
		case !in:
			in, n = true, n+1
		}
	}
	return n
}

// passMarked reports a line led by a test protocol's pass mark ("✔ Given
// a cart with 2 items", "✓ adds"): a step that passed is never the detail
// of a failure's heading, however much it names.
func passMarked(t []byte) bool { return hasPrefix(t, "✔ ") || hasPrefix(t, "✓ ") }

// isFrameLine reports a stack frame's line: "at f (x.js:3:5)", "from x.rb:3".
func isFrameLine(t []byte) bool { return hasPrefix(t, "at ") || hasPrefix(t, "from ") }

// isLabel reports a label alone on its line: one capitalised word and a
// colon ("Message:", "Expected:"), not a data key ("args:", "at:") whose
// values follow.
func isLabel(t []byte) bool {
	t = bytes.TrimRight(t, " \t")
	if len(t) < 3 || t[len(t)-1] != ':' || t[0] < 'A' || t[0] > 'Z' {
		return false
	}
	for _, c := range t[:len(t)-1] {
		if !isLetter(c) {
			return false
		}
	}
	return true
}

// locates reports whether t names a position in a file: a file name with
// an extension, or a path ending in one, followed by ':' and a number
// ("cfg.xml:3.22:", "spec/cart_spec.lua:4:", "/src/app/Cargo.toml:3:14").
func locates(t []byte) bool {
	for i := 1; i+1 < len(t); i++ {
		if t[i] != ':' || !isDigit(t[i+1]) {
			continue
		}
		j := i
		for j > 0 && (isFileByte(t[j-1]) || t[j-1] == '/') {
			j--
		}
		name := t[j:i]
		if k := bytes.LastIndexByte(name, '/'); k >= 0 {
			name = name[k+1:]
		}
		if dot := bytes.LastIndexByte(name, '.'); dot >= 1 && isExtension(name[dot+1:]) {
			return true
		}
	}
	return false
}

// announces says whether a heading announces the line under it: it ends
// with ':' ("Error in f(x) : "), with '!' ("rake aborted!"), with "=>"
// (an ansible result over its fields), or is a banner between "=="s
// ("== Compilation error in file lib/x.ex ==").
func announces(t []byte) bool {
	t = bytes.TrimRight(t, " \t")
	switch {
	case len(t) < 2:
		return false
	case t[len(t)-1] == ':', t[len(t)-1] == '!' && t[len(t)-2] != '!':
		return true
	case bytes.HasSuffix(t, []byte("=>")):
		return true
	}
	return len(t) > 4 && hasPrefix(t, "== ") && bytes.HasSuffix(t, []byte(" =="))
}

// A banner framed by a run of one mark at both ends ("*** FATAL CONFIG
// FILE ERROR ***", "### BUILD BROKEN ###") heads a block, not one line:
// the lines under it, up to a blank line and at most maxBannerBlock of
// them, say where and what ("Reading the configuration file, at line 3",
// ">>> 'appendonly maybe'", "argument must be 'yes' or 'no'").
const maxBannerBlock = 3

// bannerBlock keeps line n when it is in the block under a framed
// banner; a blank line ends the block, and so does a line that is a
// candidate of its own.
func (sc *scanner) bannerBlock(s, t []byte, n int) {
	st := &sc.state
	if st.block == 0 {
		return
	}
	st.block--
	if len(t) == 0 {
		st.block = 0
		return
	}
	sc.store.promote(tierCause, kindDetail, sc.stream, n, s)
}

// framedBlock is the number of lines of the block under t: maxBannerBlock
// when t is a framed banner, else none.
func framedBlock(t []byte) int {
	if framed(t) {
		return maxBannerBlock
	}
	return 0
}

// framed reports a line framed by a run of at least three of one mark
// ('*', '#', '!', '=') at both ends, with words between.
func framed(t []byte) bool {
	t = bytes.TrimRight(t, " \t")
	if len(t) < 8 || !strings.ContainsRune("*#!=", rune(t[0])) {
		return false
	}
	m := t[0]
	run := func(b []byte) bool { return b[0] == m && b[1] == m && b[2] == m }
	return run(t) && run(t[len(t)-3:]) && hasMessage(t[3:len(t)-3])
}

// maxDetailLook bounds how far below its heading a detail is looked for.
const maxDetailLook = 8

// isDetail says whether a line is the detail a heading announced, and
// counts the lines looked at: blank lines, source excerpts and (when the
// heading has a body) indented lines come before it.
func (sc *scanner) isDetail(c, t []byte) bool {
	st := &sc.state
	st.detail--
	if st.locate {
		return st.locatedDetail(t)
	}
	switch {
	case len(t) == 0, isCodeFrame(t), passMarked(t), st.body && len(c) > len(t):
		return false
	case t[len(t)-1] == ':' && len(c) == len(t):
		// Another heading at the same depth ("The above exception was the
		// direct cause of the following exception:" over "Traceback ...:"):
		// the first announced what follows, not a detail of its own.
		st.detail = 0
		return false
	}
	st.detail = 0
	return true
}

// endOutput follows the output of a failed test under its result line:
// it ends at a blank line, and its last line is kept as the test's reason.
func (sc *scanner) endOutput(n int, t []byte) {
	st := &sc.state
	if !st.inOutput {
		return
	}
	if len(t) > 0 && st.outputLines < maxOutputLines {
		st.outputLines++
		st.output = &pendingLine{line: n, text: string(t)}
		return
	}
	st.inOutput = false
	if o := st.output; o != nil {
		st.output = nil
		sc.store.promote(tierCause, kindTest, sc.stream, o.line, []byte(o.text))
	}
}

// maxOutputLines bounds the output of a failed test that is followed.
const maxOutputLines = 20

func (sc *scanner) addText(tier int, kind string, n int, s []byte) {
	sc.store.add(tier, kind, sc.stream, n, s)
}

// ring keeps the last non-blank lines of a stream.
type ring struct {
	lines [tailRing]tailLine
	n     int // lines held
	head  int // index of the oldest
	seen  int // lines of the stream, blank or not (set when it is read)
	// oneOffs: the last lines of a kind of their own between blocks of
	// one template (see shapes), set when the stream is read
	oneOffs []tailLine
}

type tailLine struct {
	line int
	text string
}

func (r *ring) push(n int, raw []byte) {
	s := bytes.TrimRight(termtext.CleanLine(raw[:min(len(raw), maxLine)]), " \t")
	if len(bytes.TrimSpace(s)) == 0 {
		return
	}
	e := tailLine{line: n, text: string(s)}
	if r.n < tailRing {
		r.lines[(r.head+r.n)%tailRing] = e
		r.n++
		return
	}
	r.lines[r.head] = e
	r.head = (r.head + 1) % tailRing
}

func (r *ring) reset() { r.n, r.head = 0, 0 }

// capture pushes the last lines of a chunk of whole lines; next is the
// number of the line after the chunk. Walking back is bounded so a chunk
// of blank lines costs little; when the bound stops it, older lines held
// from earlier chunks are no longer the last ones and are dropped.
func (r *ring) capture(b []byte, next int) {
	const maxWalk = 256
	type span struct {
		line       int
		start, end int
	}
	var got [tailRing]span
	k, walked := 0, 0
	end := len(b) - 1 // the newline ending the last line
	n := next - 1
	for end >= 0 && k < tailRing && walked < maxWalk {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		if len(bytes.TrimSpace(b[start:end])) > 0 {
			got[k] = span{n, start, end}
			k++
		}
		walked++
		n--
		end = start - 1
	}
	if k == tailRing || end >= 0 {
		r.reset()
	}
	for i := k - 1; i >= 0; i-- {
		r.push(got[i].line, b[got[i].start:got[i].end])
	}
}

// last returns the last n lines held, oldest first.
func (r *ring) last(n int) []tailLine {
	n = min(n, r.n)
	out := make([]tailLine, 0, n)
	for i := r.n - n; i < r.n; i++ {
		out = append(out, r.lines[(r.head+i)%tailRing])
	}
	return out
}

// String is the text rendering, for debugging and tests.
func (r *Report) String() string {
	var b strings.Builder
	_ = r.WriteText(&b)
	return b.String()
}
