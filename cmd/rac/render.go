package main

// What people read that is not an error line: the list table and gc's
// report. (Moves to internal/ui with the colour tables.)

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
	"github.com/rac-cli/rac/internal/ui"
)

func writeListTable(w io.Writer, entries []app.ListEntry, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, e := range entries {
		dur := "-"
		if e.EndedAt != nil {
			dur = e.EndedAt.Sub(e.StartedAt).Round(time.Millisecond).String()
		} else if e.Status == record.StatusRunning {
			dur = now.Sub(e.StartedAt).Round(time.Second).String() + "+"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Ref, ui.OutcomeShort(e.Status, e.ExitCode, deref(e.Signal)), e.StartedAt.Local().Format("2006-01-02 15:04:05"),
			dur, ui.Bytes(e.StdoutBytes+e.StderrBytes), ui.Quote(e.Argv))
	}
	return tw.Flush()
}

// printPlan lists, on stdout, what a dry run would remove and why.
func printPlan(w io.Writer, r *gc.Result) {
	for _, s := range r.Sessions {
		fmt.Fprintf(w, "session %s: %s, %s (%s)\n", s.Session, plural(s.Recordings, "recording"), ui.Bytes(s.Bytes), s.Reason)
	}
	for _, rec := range r.Recordings {
		fmt.Fprintf(w, "%s: %s (%s)\n", rec.Ref, ui.Bytes(rec.Bytes), rec.Reason)
	}
	for _, t := range r.Temporaries {
		fmt.Fprintf(w, "temporary %s (left over, unchanged for a day)\n", termtext.Escape(t))
	}
	for _, k := range r.Kept {
		fmt.Fprintf(w, "kept %s: %s\n", keptName(k), termtext.Escape(k.Why))
	}
	for _, u := range r.Unrecognised {
		fmt.Fprintf(w, "left alone %s: not a file rac knows\n", termtext.Escape(u))
	}
}

func keptName(k gc.Kept) string {
	switch {
	case k.Ref == "":
		return "store " + k.Store
	case !strings.Contains(k.Ref, "/"):
		return "session " + k.Ref
	}
	return k.Ref
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// printGCSummary writes the one summary line, then a warning for what
// needs the user: errors, limits that could not be met, unknown files.
func printGCSummary(p *ui.Printer, r *gc.Result) {
	verb := "removed"
	tail := ""
	if r.DryRun {
		verb, tail = "would remove", " (dry run: nothing was removed)"
	}
	p.Infof("gc %s %s, %s, %s%s", verb, plural(r.RemovedSessions, "session"), plural(r.RemovedRecordings, "recording"),
		ui.Bytes(max(r.FreedBytes, 0)), tail)
	if r.DryRun {
		return
	}
	for _, k := range r.Kept {
		if !strings.Contains(k.Ref, "/") {
			p.Warnf("%s is %s", keptName(k), k.Why)
		}
	}
	for _, e := range r.Errors {
		p.Warnf("gc: %s", e)
	}
	if n := len(r.Unrecognised); n > 0 {
		shown := r.Unrecognised[:min(n, 3)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		p.Warnf("gc left alone %s it does not recognise: %s%s ('rac out gc --dry-run' lists them)",
			plural(n, "file"), strings.Join(shown, ", "), more)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
