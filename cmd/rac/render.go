package main

// What people read that is not an error line: the list table and gc's
// report. (Moves to internal/ui with the colour tables.)

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/record"
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Ref, statusWord(e), e.StartedAt.Local().Format("2006-01-02 15:04:05"),
			dur, humanBytes(e.StdoutBytes+e.StderrBytes), shellQuote(e.Argv))
	}
	return tw.Flush()
}

// statusWord is the short status of the human table.
func statusWord(e app.ListEntry) string {
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

// printPlan lists, on stdout, what a dry run would remove and why.
func printPlan(w io.Writer, r *gc.Result) {
	for _, s := range r.Sessions {
		fmt.Fprintf(w, "session %s: %s, %s (%s)\n", s.Session, plural(s.Recordings, "recording"), gc.FormatBytes(s.Bytes), s.Reason)
	}
	for _, rec := range r.Recordings {
		fmt.Fprintf(w, "%s: %s (%s)\n", rec.Ref, gc.FormatBytes(rec.Bytes), rec.Reason)
	}
	for _, t := range r.Temporaries {
		fmt.Fprintf(w, "temporary %s (left over, unchanged for a day)\n", escapeControl(t))
	}
	for _, k := range r.Kept {
		fmt.Fprintf(w, "kept %s: %s\n", keptName(k), escapeControl(k.Why))
	}
	for _, u := range r.Unrecognised {
		fmt.Fprintf(w, "left alone %s: not a file rac knows\n", escapeControl(u))
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

// printGCSummary writes the one summary line, then a warning for what
// needs the user: errors, limits that could not be met, unknown files.
func printGCSummary(w io.Writer, r *gc.Result) {
	verb := "removed"
	tail := ""
	if r.DryRun {
		verb, tail = "would remove", " (dry run: nothing was removed)"
	}
	fmt.Fprintf(w, "rac: gc %s %s, %s, %s%s\n", verb, plural(r.RemovedSessions, "session"), plural(r.RemovedRecordings, "recording"),
		gc.FormatBytes(max(r.FreedBytes, 0)), tail)
	if r.DryRun {
		return
	}
	for _, k := range r.Kept {
		if !strings.Contains(k.Ref, "/") {
			fmt.Fprintf(w, "rac: warning: %s is %s\n", keptName(k), escapeControl(k.Why))
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "rac: warning: gc: %s\n", escapeControl(e))
	}
	if n := len(r.Unrecognised); n > 0 {
		shown := r.Unrecognised[:min(n, 3)]
		more := ""
		if n > len(shown) {
			more = fmt.Sprintf(" and %d more", n-len(shown))
		}
		fmt.Fprintf(w, "rac: warning: gc left alone %s it does not recognise: %s%s ('rac out gc --dry-run' lists them)\n",
			plural(n, "file"), escapeControl(strings.Join(shown, ", ")), more)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// isTerminal reports whether f is a terminal (any terminal, controlling
// or not: the window-size request works on every tty).
func isTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	_, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	return err == nil
}
