package main

// What people read that is not an error line: the list table and gc's
// report. (Moves to internal/ui with the colour tables.)

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/record"
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

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
