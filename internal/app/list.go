package app

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
)

// ListEntry is the stable JSON shape of one recording (rac out list --json).
type ListEntry struct {
	Ref         string     `json:"ref"`
	Session     string     `json:"session"`
	Name        string     `json:"name"`
	Seq         int64      `json:"seq"`
	Parent      string     `json:"parent,omitempty"` // the recording this one ran inside (its RAC_REF)
	Argv        []string   `json:"argv"`
	Cwd         string     `json:"cwd"`
	Status      string     `json:"status"`
	ExitCode    *int       `json:"exit_code"`
	Signal      *string    `json:"signal"`
	StartedAt   time.Time  `json:"started_at"`
	EndedAt     *time.Time `json:"ended_at"`
	StdoutBytes int64      `json:"stdout_bytes"`
	StderrBytes int64      `json:"stderr_bytes"`
	// CombinedBytes counts the one combined stream of a pty or combined
	// recording (stdout and stderr are then 0).
	CombinedBytes int64          `json:"combined_bytes"`
	Mode          string         `json:"mode"`
	Notes         []string       `json:"notes"`
	Truncated     bool           `json:"truncated"`
	KeptBytes     int64          `json:"kept_bytes"`
	Redacted      bool           `json:"redacted"`
	Redactions    int            `json:"redactions"`
	ByRule        map[string]int `json:"redactions_by_rule"`
	// Source is what fed a recording rac did not see a command end in
	// ("stdin": rac record, "api": racrecord), OutcomeFrom where its
	// outcome came from ("not stated", "--exit-code", ...), Seams where
	// it was appended to; all absent for rac run's.
	Source      string        `json:"source,omitempty"`
	OutcomeFrom string        `json:"outcome_from,omitempty"`
	Seams       []record.Seam `json:"seams,omitempty"`
	// DiskBytes is what the folder takes on disk, as du counts it and as
	// gc's limits count it (gc.DiskUsage); Compressed says gc stored its
	// output compressed.
	DiskBytes  int64 `json:"disk_bytes"`
	Compressed bool  `json:"compressed"`
	// Agent is set when the recording holds an agent harness's event
	// stream (rac out explain then shows its digest).
	Agent *ListAgent `json:"agent,omitempty"`
}

// ListAgent is what the recorder noted of an agent's transcript.
type ListAgent struct {
	Kind    string `json:"kind"`              // claude-code, codex or gemini-cli
	Format  string `json:"format"`            // stream-json, exec-json or json
	Version string `json:"version,omitempty"` // the harness's, where its stream says
	Model   string `json:"model,omitempty"`
	Outcome string `json:"outcome,omitempty"` // the run's own word: success, error, failed, ...
}

// ListResult is what List found: the entries, and the sessions it looked
// at (one name when the scope was a single session).
type ListResult struct {
	Entries  []ListEntry
	Sessions []string
}

// List describes the recordings of the scope by start time, the newest
// last, also across sessions (ties by session, then sequence number).
func (a *App) List(ctx context.Context, sc Scope) (ListResult, error) {
	red, err := a.Redactor()
	if err == nil {
		_, err = a.ArgvRules()
	}
	if err != nil {
		return ListResult{}, err
	}
	stores, err := a.Stores()
	if err != nil {
		return ListResult{}, err
	}
	defer stores.Close()
	sessions, err := a.sessions(stores, sc)
	if err != nil {
		return ListResult{}, err
	}
	res := ListResult{Entries: []ListEntry{}, Sessions: sessions}
	err = a.eachRecording(stores, sessions, func(sd *store.Session, r *record.Recording) error {
		if err := canceled(ctx); err != nil {
			return err
		}
		e := entryOf(r, red.String, a.argvGrammar)
		// what gc's limits count of it, measured as a pass does
		e.DiskBytes, e.Compressed, _ = gc.DiskUsage(sd, r.Name)
		res.Entries = append(res.Entries, e)
		return nil
	})
	slices.SortStableFunc(res.Entries, func(a, b ListEntry) int {
		return cmp.Or(a.StartedAt.Compare(b.StartedAt), cmp.Compare(a.Session, b.Session), cmp.Compare(a.Seq, b.Seq))
	})
	return res, err
}

// entryOf describes a recording; every string passes through the
// redactor, argv through the argv grammar first, also for a recording made
// with --no-redact or before a rule existed.
func entryOf(r *record.Recording, red func(string) string, grammar func([]string) []string) ListEntry {
	argv := append([]string{}, grammar(r.Meta.Argv)...) // a copy: the grammar may return its input
	for i, s := range argv {
		argv[i] = red(s)
	}
	e := ListEntry{
		Ref: r.Ref(), Session: r.Session, Name: r.Name, Seq: r.Seq, Parent: ValidUTF8(red(r.Meta.Parent)),
		Argv: validUTF8s(argv), Cwd: ValidUTF8(red(r.Meta.Cwd)), Status: r.Status,
		StartedAt: r.Meta.StartedAt, Mode: r.Meta.Mode, Notes: []string{},
		Redacted: r.Meta.Redact, ByRule: map[string]int{},
	}
	if f := r.Footer; f != nil {
		e.ExitCode = f.ExitCode
		if f.Signal != "" {
			s := f.Signal
			e.Signal = &s
		}
		t := f.EndedAt
		e.EndedAt = &t
		e.StdoutBytes = f.Received[record.Stdout].Bytes
		e.StderrBytes = f.Received[record.Stderr].Bytes
		e.CombinedBytes = f.Received[record.Combined].Bytes
		for _, n := range f.Notes {
			e.Notes = append(e.Notes, ValidUTF8(red(n)))
		}
		if g := f.Agent; g != nil {
			e.Agent = &ListAgent{Kind: ValidUTF8(red(g.Kind)), Format: ValidUTF8(red(g.Format)), Version: ValidUTF8(red(g.Version)),
				Model: ValidUTF8(red(g.Model)), Outcome: ValidUTF8(red(g.Outcome))}
		}
		for k, n := range f.Redactions {
			e.ByRule[k] = n
			e.Redactions += n
		}
	} else {
		// still running or cut off: what has been stored so far
		e.StdoutBytes = r.StreamSize(record.Stdout)
		e.StderrBytes = r.StreamSize(record.Stderr)
		e.CombinedBytes = r.StreamSize(record.Combined)
	}
	if r.Stopping != "" {
		e.Notes = append(e.Notes, "rac was killed while stopping the command after "+r.Stopping)
	}
	if p := provenanceOf(r); p.Source != "" || p.OutcomeFrom != "" || len(p.Seams) > 0 {
		e.Source, e.OutcomeFrom, e.Seams = p.Source, ValidUTF8(red(p.OutcomeFrom)), p.Seams
	}
	e.KeptBytes = r.KeptBytes()
	if cuts, err := r.Cuts(); err == nil && len(cuts) > 0 {
		e.Truncated = true
	}
	return e
}
