package agentrun

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
)

// MaxJSON is the most bytes a digest's JSON takes.
const MaxJSON = 8 << 10

// The cuts JSON makes to fit, named as they appear in "cut", in the order
// made.
const (
	CutCalls10   = "last_calls cut to 10"
	CutCalls0    = "last_calls cut to 0"
	CutPaths10   = "artifacts.paths cut to 10"
	CutPaths0    = "artifacts.paths cut to 0"
	CutFinal512  = "final text cut to 512 bytes"
	CutFinal0    = "final text left out"
	CutFailure   = "failure excerpt cut to 256 bytes"
	CutCounts8   = "counts cut to 8 tools"
	CutAll32     = "every string cut to 32 bytes, init left out"
	CutCounts0   = "counts cut to 0 tools"
	CutCommand   = "command cut to 1 KiB"
	CutRef       = "ref cut to 256 bytes"
	cutLastField = 32
)

// Digest is the decoder's digest so far. failed says the attempt failed
// (not for one still running): only then do the end of stderr (redacted by
// the caller, stderrTail) and a stream without a result count as its
// failure.
func (dec *Decoder) Digest(stderrTail string, failed bool) *Digest {
	dec.geminiFinal()
	d := dec.d // a copy: the decoder may go on
	counts := make([]ToolCount, 0, len(dec.order))
	for _, n := range dec.order {
		counts = append(counts, *dec.counts[n])
	}
	slices.SortStableFunc(counts, func(a, b ToolCount) int { return cmp.Compare(b.Calls, a.Calls) })
	d.Tools.ToolsTotal = len(counts)
	d.Tools.Counts = counts[:min(len(counts), MaxCounts)]
	d.Tools.LastCalls = make([]Call, 0, len(dec.calls))
	for _, c := range dec.calls {
		d.Tools.LastCalls = append(d.Tools.LastCalls, *c)
	}
	d.Tools.ShownCalls = len(d.Tools.LastCalls)
	if len(dec.open) > 0 {
		d.Tools.Complete = false
	}
	d.Artifacts.Paths = append([]string{}, dec.d.Artifacts.Paths...)
	d.Failure = dec.failure(stderrTail, failed)
	if d.Result.Model == "" {
		if m := modelOfArgv(dec.opt.Argv); m != "" {
			d.Result.Model, d.Result.ModelFrom = dec.field(m), "argv"
		}
	}
	if d.Init != nil {
		in := *d.Init
		d.Init = &in
	}
	d.Cut = []string{}
	return &d
}

func (dec *Decoder) failure(stderrTail string, failed bool) *Failure {
	for _, f := range []*Failure{dec.resultFail, dec.eventFail, dec.toolFail} {
		if f != nil {
			c := *f
			return &c
		}
	}
	if failed && stderrTail != "" {
		ex := stderrTail
		cut := false
		if len(ex) > MaxExcerpt {
			ex, cut = "…"+ex[len(ex)-MaxExcerpt+len("…"):], true
		}
		return &Failure{Kind: FailStderr, Excerpt: ex, Truncated: cut}
	}
	if failed && dec.d.Result.Subtype == "" {
		return &Failure{Kind: FailNoResult, Excerpt: "the stream ended without a result"}
	}
	return nil
}

// JSON renders the digest as one object of at most MaxJSON bytes. The
// decoder's entry bounds come first (last_calls 20, artifacts.paths 50,
// counts 32 tools, final text 2 KiB, a failure excerpt 1 KiB, an input
// excerpt 200 bytes, a name or id 256 bytes; the command 1 KiB, the ref
// 256 bytes); then, each only while the object is still too big, in
// this order, each named in "cut": last_calls to 10, then 0;
// artifacts.paths to 10, then 0; the final text to 512 bytes, then out;
// the failure excerpt to 256 bytes; counts to 8 tools; every string to 32
// bytes with init left out. The fields that say so stay true to what is
// shown: shown_calls < total_calls, artifacts.count > len(paths),
// final.truncated, failure.truncated, tools_total > len(counts).
func (d *Digest) JSON() ([]byte, error) { return d.JSONWithin(MaxJSON) }

// JSONWithin is JSON with a smaller bound, limit bytes (at most MaxJSON),
// for a caller with less room (an MCP result's budget); past the last
// resort of JSON it also leaves the counts out ("counts cut to 0 tools").
// What cannot be made to fit limit is returned as small as it gets.
func (d *Digest) JSONWithin(limit int) ([]byte, error) {
	limit = min(limit, MaxJSON)
	j := *d
	j.Cut = append([]string{}, d.Cut...)
	note := func(changed bool, name string) {
		if changed {
			j.Cut = append(j.Cut, name)
		}
	}
	note(cutField(&j.Command, 1<<10), CutCommand)
	note(cutField(&j.Ref, 256), CutRef)
	out, err := encode(&j)
	for _, s := range shrinkSteps {
		if err != nil || len(out) <= limit {
			break
		}
		if s.apply(&j) {
			j.Cut = append(j.Cut, s.name)
			out, err = encode(&j)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(out) > MaxJSON {
		return nil, fmt.Errorf("agentrun: digest is %d bytes, over %d", len(out), MaxJSON)
	}
	return out, nil
}

var shrinkSteps = []struct {
	name  string
	apply func(*Digest) bool
}{
	{CutCalls10, func(j *Digest) bool { return cutCalls(j, 10) }},
	{CutCalls0, func(j *Digest) bool { return cutCalls(j, 0) }},
	{CutPaths10, func(j *Digest) bool { return cutSlice(&j.Artifacts.Paths, 10) }},
	{CutPaths0, func(j *Digest) bool { return cutSlice(&j.Artifacts.Paths, 0) }},
	{CutFinal512, func(j *Digest) bool { return cutFinal(j, 512) }},
	{CutFinal0, func(j *Digest) bool { return cutFinal(j, 0) }},
	{CutFailure, func(j *Digest) bool {
		if j.Failure == nil {
			return false
		}
		f := *j.Failure
		j.Failure = &f
		if cutField(&f.Excerpt, 256) {
			f.Truncated = true
			return true
		}
		return false
	}},
	{CutCounts8, func(j *Digest) bool { return cutSlice(&j.Tools.Counts, 8) }},
	{CutAll32, cutAll},
	{CutCounts0, func(j *Digest) bool { return cutSlice(&j.Tools.Counts, 0) }},
}

func cutCalls(j *Digest, n int) bool {
	if len(j.Tools.LastCalls) <= n {
		return false
	}
	// the last calls are the newest: keep those
	j.Tools.LastCalls = j.Tools.LastCalls[len(j.Tools.LastCalls)-n:]
	j.Tools.ShownCalls = n
	return true
}

func cutFinal(j *Digest, n int) bool {
	if !cutField(&j.Final.Text, n) {
		return false
	}
	j.Final.Truncated = true
	return true
}

func cutField(s *string, n int) bool {
	c := Cut(*s, n)
	changed := c != *s
	*s = c
	return changed
}

func cutSlice[T any](s *[]T, n int) bool {
	if len(*s) <= n {
		return false
	}
	*s = (*s)[:n]
	return true
}

// cutAll is the last resort: every string short, init out.
func cutAll(j *Digest) bool {
	j.Init = nil
	r := &j.Result
	for _, f := range []*string{&j.Ref, &j.Command, &j.Outcome, &j.Agent.Version, &r.Model, &r.HarnessVersion, &r.SessionID, &r.Subtype, &r.StopReason, &j.File.SHA256} {
		cutField(f, cutLastField)
	}
	for i := range j.Tools.Counts {
		cutField(&j.Tools.Counts[i].Name, cutLastField)
	}
	if j.Failure != nil {
		f := *j.Failure
		j.Failure = &f
		if cutField(&f.Excerpt, cutLastField) {
			f.Truncated = true
		}
	}
	return true
}

func encode(d *Digest) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	return termtext.EscapeC1JSON(bytes.TrimSuffix(b.Bytes(), []byte{'\n'})), nil
}

// modelOfArgv is the model a command line asks for (-m M, --model M,
// --model=M), "" for none.
func modelOfArgv(argv []string) string {
	for i, a := range argv {
		switch {
		case (a == "-m" || a == "--model") && i+1 < len(argv):
			return argv[i+1]
		case strings.HasPrefix(a, "--model="):
			return strings.TrimPrefix(a, "--model=")
		}
	}
	return ""
}
