package ui

// What rac out gc, rm and purge tell a person.

import (
	"fmt"
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/termtext"
)

// GCPlan lists, on stdout, what a dry run would remove and why.
func GCPlan(w io.Writer, r *gc.Result) {
	for _, s := range r.Sessions {
		fmt.Fprintf(w, "session %s: %s, %s (%s)\n", s.Session, Plural(s.Recordings, "recording"), Bytes(s.Bytes), s.Reason)
	}
	for _, rec := range r.Recordings {
		fmt.Fprintf(w, "%s: %s (%s)\n", rec.Ref, Bytes(rec.Bytes), rec.Reason)
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

// GCSummary writes the one summary line, then a warning for what
// needs the user: errors, limits that could not be met, unknown files.
func GCSummary(p *Printer, r *gc.Result) {
	if !r.DryRun && len(r.Errors) > 0 && r.RemovedSessions == 0 && r.RemovedRecordings == 0 {
		// nothing was collected because of the errors: say those, not
		// "removed 0" followed by why
		for _, e := range r.Errors {
			p.Errorf("gc: %s", e)
		}
		return
	}
	verb := "removed"
	tail := ""
	if r.DryRun {
		verb, tail = "would remove", " (dry run: nothing was removed)"
	}
	p.Infof("gc %s %s, %s, %s%s", verb, Plural(r.RemovedSessions, "session"), Plural(r.RemovedRecordings, "recording"),
		Bytes(max(r.FreedBytes, 0)), tail)
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
			Plural(n, "file"), strings.Join(shown, ", "), more)
	}
}

func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
