package ui

import (
	"errors"
	"strings"

	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/termtext"
)

// Hint is the command an error message suggests next ("" for none), the
// "rac: hint:" line under it; cmdPath is the command that failed (for its
// --help). It is chosen by the error's type, never by its text. usage
// tells whether err is a usage error (app.IsUsage): ui renders values and
// never asks the application layer itself.
func Hint(err error, cmdPath string, usage bool) string {
	var ce *config.Error
	if errors.As(err, &ce) {
		switch {
		case ce.Path != "":
			return "fix " + ce.Path + " ('rac config' lists every key)"
		case strings.HasPrefix(ce.Name, "RAC_"):
			return "fix or unset " + ce.Name
		}
	}
	var nf *resolve.NotFoundError
	if errors.As(err, &nf) {
		switch nf.Reason {
		case resolve.NoSession:
			return "run 'rac out list --all-sessions' to see every session"
		case resolve.Unwritable:
			return "nothing was recorded: make a store writable (in Codex's sandbox: -s workspace-write) or set RAC_HOME to a writable folder, then rac run the command again"
		case resolve.EmptySession:
			return "this shell may be in another session than the one that ran the command: use the SESSION/NAME that rac run printed, or run 'rac session --explain'"
		}
		return "run 'rac out list' to see the recordings of session " + nf.Session + ", or 'rac out list --all-sessions'"
	}
	var de *record.DamagedError
	if errors.As(err, &de) {
		// one stream's raw bytes need neither the chunk index nor a
		// line index, the files damage usually hits
		return "its files were changed or cut short outside rac: 'rac out read " + termtext.ShellQuote(de.Ref) +
			" --raw --stream stdout' (or stderr, combined) copies what a stream kept; 'rac out rm " + termtext.ShellQuote(de.Ref) + "' removes it"
	}
	switch {
	case errors.Is(err, resolve.ErrExpired):
		return expiredHint(err)
	case errors.Is(err, resolve.ErrAmbiguous):
		return "add more of the name, or use its number; 'rac out list' shows them"
	case errors.Is(err, resolve.ErrInvalid):
		return "a reference is SESSION/NAME as printed by rac run, a number like 42, a name prefix, or last"
	case errors.Is(err, session.ErrInvalidName):
		return "pick a name like my-task-1"
	case usage:
		return "run '" + cmdPath + " --help' for the usage and examples"
	case errors.Is(err, record.ErrNewerFormat):
		return "install a newer rac to read it"
	}
	return ""
}

// expiredHint is the hint line under an "expired" error.
func expiredHint(err error) string {
	var e *resolve.ExpiredError
	if errors.As(err, &e) && e.Command != "" {
		return "its output is gone; run the command again to see it (it was: " + termtext.Escape(e.Command) + ")"
	}
	return "its output is gone; 'rac out list' shows what this session still keeps"
}
