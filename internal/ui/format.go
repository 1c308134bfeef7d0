package ui

import (
	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/termtext"
	"github.com/rac-cli/rac/internal/units"
)

// Quote is argv as a shell would read it back, each argument quoted only
// when it needs to be and never holding a raw control character
// (termtext.ShellQuote: the one quoter, shared with explain and app).
func Quote(argv []string) string { return termtext.QuoteArgv(argv) }

// Bytes renders a size the one way rac says sizes, in messages, tables and
// gc's removal reasons alike: binary units with a space, 0 B, 512 B, 4 KiB,
// 1.5 KiB, 2.9 KiB, 212 MiB (units.Bytes, which gc uses too).
func Bytes(n int64) string { return units.Bytes(n) }

// Outcome says how a recording ended, as the rest of a sentence that
// starts with its reference ("rac: s/0001-make exited with code 2"), in
// outcome's words (outcome.Outcome.Long). exitCode is nil when there is
// none, signal "" when none.
func Outcome(status string, exitCode *int, signal string) string {
	return outcome.Of(status, exitCode, signal).Long()
}

// OutcomeShort is Outcome for a table column (outcome.Outcome.Short):
// exit 2, SIGTERM, timed out, failed to start, running, incomplete.
func OutcomeShort(status string, exitCode *int, signal string) string {
	return outcome.Of(status, exitCode, signal).Short()
}
