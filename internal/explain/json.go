package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/rac-cli/rac/internal/termtext"
)

// MaxJSON is the most bytes JSON returns, so an agent knows its cost in
// advance.
const MaxJSON = 8 << 10

// jsonReport is the object JSON writes; its shape is documented on JSON.
type jsonReport struct {
	Ref        string       `json:"ref"`
	Argv       []string     `json:"argv"`
	Argc       int          `json:"argc"`
	Cwd        string       `json:"cwd"`
	Status     string       `json:"status"`
	ExitCode   *int         `json:"exit_code,omitempty"`
	Signal     string       `json:"signal,omitempty"`
	StartedAt  string       `json:"started_at,omitempty"`
	EndedAt    string       `json:"ended_at,omitempty"`
	DurationMS int64        `json:"duration_ms"`
	Outcome    string       `json:"outcome"`
	Truncated  bool         `json:"truncated"`
	Note       string       `json:"note,omitempty"`
	Redactions int          `json:"redactions"`
	Shows      string       `json:"shows"`
	Matched    int          `json:"matched"`
	Lines      []jsonLine   `json:"lines"`
	Streams    []StreamStat `json:"streams"`
	Cut        []string     `json:"cut"`
}

// jsonLine has the fields of Line, in its order, so a Line converts to it.
type jsonLine struct {
	Stream string `json:"stream"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
	Count  int    `json:"count"`
	Kind   string `json:"kind"`
	Cut    bool   `json:"cut,omitempty"`
}

// The cuts, named as they appear in "cut".
const (
	CutTexts200   = "texts cut to 200 bytes"
	CutArgv8KiB   = "argv cut to 8 KiB"
	CutArgv1KiB   = "argv elements cut to 1 KiB"
	CutCwd1KiB    = "cwd cut to 1 KiB"
	CutNote1KiB   = "note cut to 1 KiB"
	CutRef256     = "ref cut to 256 bytes"
	CutTexts80    = "texts cut to 80 bytes"
	CutArgv64     = "argv elements cut to 64 bytes"
	CutArgv8      = "argv cut to 8 elements"
	CutCwdNote256 = "cwd and note cut to 256 bytes"
	CutLines3     = "lines cut to 3"
	CutLines2     = "lines cut to 2"
	CutLines1     = "lines cut to 1"
	CutAll32      = "every string cut to 32 bytes, argv to 2 elements, streams to 3"
)

// JSON renders the report as one object of at most MaxJSON bytes:
//
//	{
//	  "ref": "a1b2/3",                      qualified reference
//	  "argv": ["go", "test", "./..."],      the command, redacted; may be cut (see "cut")
//	  "argc": 3,                            how many arguments the command had
//	  "cwd": "/src/app",
//	  "status": "exited",                   running | exited | signaled | timed_out | failed_to_start | incomplete
//	  "exit_code": 1,                       only when status is exited and the code is known
//	  "signal": "SIGTERM",                  only when a signal ended the run
//	  "started_at": "2025-01-02T03:04:05Z", omitted when unknown
//	  "ended_at": "2025-01-02T03:04:07Z",   omitted while running or when incomplete
//	  "duration_ms": 2310,                  run time; for running and incomplete runs, time since the start
//	  "outcome": "exited with code 1 after 2.3s",
//	  "truncated": false,                   the recording itself was cut; note says how
//	  "note": "...",                        omitted when empty
//	  "redactions": 0,                      redactions made while recording
//	  "shows": "cause",                     cause: lines most likely to be the cause, most likely first;
//	                                        tail: no line matched, the last lines, in stream order;
//	                                        pass: the run exited 0: up to 2 warnings, then its last lines
//	  "streams" lists each stream once, a stream cut to head and tail included
//	  "matched": 5,                         output lines that matched an error term or shape, before folding
//	  "lines": [{"stream": "stdout", "line": 3, "text": "...", "count": 1, "kind": "test"}],
//	  "streams": [{"name": "stdout", "lines": 7, "bytes": 231}],
//	  "cut": []                             every cut made to fit, in the order made
//	}
//
// "line" is the per-stream line number as rac out read counts it, "count"
// the number of similar lines folded into this one, "kind" why the line
// was picked: compiler, exception, panic, test, tool, git, log, make, report,
// term, detail, summary, context, or tail. A line whose reason lies past
// 200 bytes starts with "…" where its preamble was cut.
//
// The object is at most MaxJSON bytes. Strings are redacted first and
// measured after; to fit, cuts are made in this order, each only while the
// object is still too big, and each one made is named in "cut":
//
//  0. always: line texts to 200 bytes ("texts cut to 200 bytes"), argv
//     elements, cwd and note to 1 KiB, ref to 256 bytes, argv to its first
//     8 KiB ("argv cut to 8 KiB"; argc keeps the real count)
//  1. line texts to 80 bytes
//  2. argv elements to 64 bytes
//  3. argv to its first 8 elements
//  4. cwd and note to 256 bytes
//  5. lines to 3, then 2, then 1
//  6. every string to 32 bytes, argv to 2 elements, streams to 3
//
// A cut string ends in "…".
func (r *Report) JSON() ([]byte, error) {
	j := r.jsonValue()
	steps := []struct {
		name  string
		apply func(*jsonReport) bool
	}{
		{CutTexts80, func(j *jsonReport) bool { return cutLineTexts(j, 80) }},
		{CutArgv64, func(j *jsonReport) bool { return cutEach(j.Argv, 64) }},
		{CutArgv8, func(j *jsonReport) bool { return cutSlice(&j.Argv, 8) }},
		{CutCwdNote256, func(j *jsonReport) bool {
			a, b := cutField(&j.Cwd, 256), cutField(&j.Note, 256)
			return a || b
		}},
		{CutLines3, func(j *jsonReport) bool { return cutSlice(&j.Lines, 3) }},
		{CutLines2, func(j *jsonReport) bool { return cutSlice(&j.Lines, 2) }},
		{CutLines1, func(j *jsonReport) bool { return cutSlice(&j.Lines, 1) }},
		{CutAll32, cutAll},
	}
	out, err := encodeJSON(j)
	for _, s := range steps {
		if err != nil || len(out) <= MaxJSON {
			break
		}
		if s.apply(j) {
			j.Cut = append(j.Cut, s.name)
			out, err = encodeJSON(j)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(out) > MaxJSON {
		// Unreachable while cutAll bounds every field; kept so a new field
		// that forgets to cut cannot break the promise silently.
		return nil, fmt.Errorf("explain: json report is %d bytes, over %d", len(out), MaxJSON)
	}
	return out, nil
}

func (r *Report) jsonValue() *jsonReport {
	m := r.Meta
	j := &jsonReport{
		Ref:        m.Ref,
		Argv:       append([]string{}, m.Argv...),
		Argc:       r.Argc,
		Cwd:        m.Cwd,
		Status:     m.Status,
		ExitCode:   m.ExitCode,
		Signal:     m.Signal,
		DurationMS: r.Duration.Milliseconds(),
		Outcome:    r.Outcome(),
		Truncated:  m.Truncated,
		Note:       m.Note,
		Redactions: m.Redactions,
		Shows:      r.Shows,
		Matched:    r.Matched,
		Lines:      []jsonLine{},
		Streams:    append([]StreamStat{}, r.Streams...),
		Cut:        []string{},
	}
	if m.Status != StatusExited {
		j.ExitCode = nil
	}
	if !m.StartedAt.IsZero() {
		j.StartedAt = m.StartedAt.Format(time.RFC3339Nano)
	}
	if m.EndedAt != nil {
		j.EndedAt = m.EndedAt.Format(time.RFC3339Nano)
	}
	for _, l := range r.Lines {
		j.Lines = append(j.Lines, jsonLine(l))
	}
	note := func(changed bool, name string) {
		if changed {
			j.Cut = append(j.Cut, name)
		}
	}
	note(cutLineTexts(j, TextLineBytes), CutTexts200)
	note(len(j.Argv) < j.Argc, CutArgv8KiB)
	note(cutEach(j.Argv, 1<<10), CutArgv1KiB)
	note(cutField(&j.Cwd, 1<<10), CutCwd1KiB)
	note(cutField(&j.Note, 1<<10), CutNote1KiB)
	note(cutField(&j.Ref, 256), CutRef256)
	return j
}

func encodeJSON(j *jsonReport) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "<" stays one byte, and reads as itself
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	// a C1 control taken from argv or output reads as a terminal command
	return termtext.EscapeC1JSON(bytes.TrimSuffix(b.Bytes(), []byte{'\n'})), nil
}

func cutField(s *string, n int) bool {
	c := cut(*s, n)
	changed := c != *s
	*s = c
	return changed
}

func cutEach(ss []string, n int) bool {
	changed := false
	for i := range ss {
		changed = cutField(&ss[i], n) || changed
	}
	return changed
}

func cutSlice[T any](s *[]T, n int) bool {
	if len(*s) <= n {
		return false
	}
	*s = (*s)[:n]
	return true
}

func cutLineTexts(j *jsonReport, n int) bool {
	changed := false
	for i := range j.Lines {
		changed = cutField(&j.Lines[i].Text, n) || changed
	}
	return changed
}

// cutAll is the last resort: with every string at 32 bytes (at most 192
// once escaped) and every list short, the object is far below MaxJSON.
func cutAll(j *jsonReport) bool {
	const n = 32
	changed := cutSlice(&j.Argv, 2)
	changed = cutSlice(&j.Streams, 3) || changed
	changed = cutEach(j.Argv, n) || changed
	for _, f := range []*string{&j.Ref, &j.Cwd, &j.Status, &j.Signal, &j.Outcome, &j.Note, &j.StartedAt, &j.EndedAt} {
		changed = cutField(f, n) || changed
	}
	for i := range j.Lines {
		changed = cutField(&j.Lines[i].Text, n) || changed
		changed = cutField(&j.Lines[i].Stream, n) || changed
	}
	for i := range j.Streams {
		changed = cutField(&j.Streams[i].Name, n) || changed
	}
	return changed
}
