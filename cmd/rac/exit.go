package main

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/termtext"
)

// Exit statuses of rac run that are rac's own; every other status of rac
// run is the child's.
const (
	exitTimeout       = 124
	exitRacFailed     = 125
	exitNotExecutable = 126
	exitNotFound      = 127
)

// Exit statuses of rac out.
const (
	exitOK        = 0
	exitNotFound1 = 1 // not found, expired; for grep: no match
	exitUsage     = 2 // usage errors, invalid or ambiguous references; any grep failure
)

// exitCodeError carries a status chosen by the command itself.
type exitCodeError struct {
	code int
	err  error // nil: nothing more to print
}

func (e exitCodeError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e exitCodeError) Unwrap() error { return e.err }

// signalExit asks Main to end rac by the child's signal.
type signalExit struct{ sig syscall.Signal }

func (e signalExit) Error() string { return "killed by " + e.sig.String() }

// exitStatus is the one place errors become exit statuses. runCmd tells
// whether the error came from rac run (whose own failures are 125) or from
// another command (rac out, rac session).
func exitStatus(err error, runCmd bool) int {
	var ce exitCodeError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ce):
		return ce.code
	case runCmd:
		return exitRacFailed
	case errors.Is(err, resolve.ErrExpired):
		return exitNotFound1
	case app.IsUsage(err),
		errors.Is(err, resolve.ErrInvalid),
		errors.Is(err, resolve.ErrAmbiguous),
		errors.Is(err, session.ErrInvalidName):
		return exitUsage
	default:
		return exitNotFound1
	}
}

// hint is the command an error message suggests next; cmdPath is the
// command that failed (for its --help). It is chosen by the error's type,
// never by its text.
func hint(err error, cmdPath string) string {
	var ce *config.Error
	if errors.As(err, &ce) {
		switch {
		case ce.Path != "":
			return "fix " + ce.Path + " (README's Settings section lists every key)"
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
			return "nothing was recorded: allow writes (codex: -s workspace-write) or set RAC_HOME to a writable folder, then rac run the command again"
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
	case app.IsUsage(err):
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

// printError writes err as one "rac:" line, then a hint line when there
// is one; cmdPath is the command that failed ("" for rac).
func (c *cli) printError(err error, cmdPath string) {
	if cmdPath == "" {
		cmdPath = "rac"
	}
	var ce exitCodeError
	if errors.As(err, &ce) && ce.err == nil {
		return
	}
	c.p.Error(err, hint(err, cmdPath))
}

// flagError turns pflag's parse errors into usage errors in rac's words:
// no strconv or time internals in a message.
func flagError(_ *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return app.Usage(err)
	}
	f, val := iv.GetFlag(), iv.GetValue()
	want := "see --help"
	switch f.Value.Type() {
	case "int", "int64", "uint", "uint64":
		want = "use a whole number"
	case "bool":
		want = "use true or false"
	}
	return app.Usagef("invalid --%s %q: %s", f.Name, val, want)
}

// cobraUsage turns cobra's own usage errors (unknown command, flags that
// exclude each other) into usage errors, in rac's words.
func cobraUsage(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown command"):
		// cobra adds "\n\nDid you mean this?\n\tNAME\n": keep it on the line
		if head, sugg, ok := strings.Cut(msg, "\n\nDid you mean this?\n"); ok {
			return app.Usagef("%s (did you mean %s?)", head, strings.Join(strings.Fields(sugg), " or "))
		}
		return app.Usage(err)
	case strings.HasPrefix(msg, "if any flags in the group"):
		// "... [head tail lines] are set none of the others can be; [head tail] were all set"
		if i := strings.LastIndex(msg, "; ["); i >= 0 {
			names := strings.Fields(strings.Trim(strings.TrimSuffix(msg[i+2:], " were all set"), "[]"))
			for j, n := range names {
				names[j] = "--" + n
			}
			return app.Usagef("%s cannot be used together", strings.Join(names, " and "))
		}
		return app.Usage(err)
	}
	return err
}
