package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/record"
)

type listOptions struct {
	a    *app
	all  bool
	json bool
	sess string
}

func newListCmd(a *app) *cobra.Command {
	o := &listOptions{a: a}
	cmd := &cobra.Command{
		Use:   "list [--session S | --all-sessions] [--json]",
		Short: "List the recordings of the current session",
		Long: `List recordings by sequence number: reference, status, start time,
duration, size and command. Another session is listed only when named with
--session or with --all-sessions.`,
		Example: `  rac out list
  rac out list --json
  rac out list --session my-task
  rac out list --all-sessions`,
		Args: cobra.NoArgs,
		RunE: o.run,
	}
	cmd.Flags().StringVar(&o.sess, "session", "", "list session `S` instead of the current one")
	cmd.Flags().BoolVar(&o.all, "all-sessions", false, "list every session")
	cmd.Flags().BoolVar(&o.json, "json", false, "print a JSON array (shape in README)")
	cmd.MarkFlagsMutuallyExclusive("session", "all-sessions")
	return cmd
}

// listEntry is the stable JSON shape of one recording.
type listEntry struct {
	Ref         string         `json:"ref"`
	Session     string         `json:"session"`
	Name        string         `json:"name"`
	Seq         int64          `json:"seq"`
	Argv        []string       `json:"argv"`
	Cwd         string         `json:"cwd"`
	Status      string         `json:"status"`
	ExitCode    *int           `json:"exit_code"`
	Signal      *string        `json:"signal"`
	StartedAt   time.Time      `json:"started_at"`
	EndedAt     *time.Time     `json:"ended_at"`
	StdoutBytes int64          `json:"stdout_bytes"`
	StderrBytes int64          `json:"stderr_bytes"`
	Mode        string         `json:"mode"`
	Notes       []string       `json:"notes"`
	Truncated   bool           `json:"truncated"`
	KeptBytes   int64          `json:"kept_bytes"`
	Redacted    bool           `json:"redacted"`
	Redactions  int            `json:"redactions"`
	ByRule      map[string]int `json:"redactions_by_rule"`
}

// entryOf describes a recording; every string passes through the
// redactor, also for a recording made with --no-redact.
func entryOf(r *record.Recording, red stringRedactor) listEntry {
	argv := make([]string, len(r.Meta.Argv))
	for i, s := range r.Meta.Argv {
		argv[i] = red.String(s)
	}
	e := listEntry{
		Ref: r.Ref(), Session: r.Session, Name: r.Name, Seq: r.Seq,
		Argv: validUTF8s(argv), Cwd: validUTF8(red.String(r.Meta.Cwd)), Status: r.Status,
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
		for _, n := range f.Notes {
			e.Notes = append(e.Notes, validUTF8(red.String(n)))
		}
		for k, n := range f.Redactions {
			e.ByRule[k] = n
			e.Redactions += n
		}
	} else {
		// still running or cut off: what has been stored so far
		e.StdoutBytes = r.StreamSize(record.Stdout)
		e.StderrBytes = r.StreamSize(record.Stderr)
	}
	if e.Argv == nil {
		e.Argv = []string{}
	}
	e.KeptBytes = r.KeptBytes()
	if cuts, err := r.Cuts(); err == nil && len(cuts) > 0 {
		e.Truncated = true
	}
	return e
}

func validUTF8(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

func validUTF8s(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = validUTF8(s)
	}
	return out
}

func (o *listOptions) run(cmd *cobra.Command, _ []string) error {
	a := o.a
	red, err := a.redactor()
	if err != nil {
		return err
	}
	stores, err := a.readStores()
	if err != nil {
		return err
	}
	defer closeStores(stores)
	sessions, err := a.sessions(stores, sessionScope{name: o.sess, all: o.all})
	if err != nil {
		return err
	}
	var entries []listEntry
	err = a.eachRecording(stores, sessions, func(r *record.Recording) error {
		entries = append(entries, entryOf(r, red))
		return nil
	})
	if err != nil {
		return err
	}
	if o.json {
		if entries == nil {
			entries = []listEntry{}
		}
		enc := json.NewEncoder(a.streams.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(entries)
	}
	if len(entries) == 0 && !o.all {
		fmt.Fprintf(a.streams.Err, "rac: no recordings in session %q ('rac out list --all-sessions' shows every session)\n", sessions[0])
	}
	return writeListTable(a.streams.Out, entries, a.now())
}

func writeListTable(w io.Writer, entries []listEntry, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, e := range entries {
		dur := "-"
		if e.EndedAt != nil {
			dur = e.EndedAt.Sub(e.StartedAt).Round(time.Millisecond).String()
		} else if e.Status == record.StatusRunning {
			dur = now.Sub(e.StartedAt).Round(time.Second).String() + "+"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Ref, statusWord(e), e.StartedAt.Local().Format("2006-01-02 15:04:05"),
			dur, humanBytes(e.StdoutBytes+e.StderrBytes), shellQuote(e.Argv))
	}
	return tw.Flush()
}

// statusWord is the short status of the human table.
func statusWord(e listEntry) string {
	switch e.Status {
	case record.StatusExited:
		if e.ExitCode != nil {
			return fmt.Sprintf("exit %d", *e.ExitCode)
		}
	case record.StatusSignaled:
		if e.Signal != nil {
			return *e.Signal
		}
	case record.StatusTimedOut:
		return "timed out"
	case record.StatusFailedToStart:
		return "not started"
	}
	return e.Status
}
