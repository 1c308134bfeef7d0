package app

import (
	"errors"
	"fmt"

	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/resolve"
)

// Argv policy: every argv rac stores or shows (meta.json, list, explain,
// the MCP list tool, --summary, tombstones) first goes through the argv
// grammar (redact.ArgvRules: --password X, mysql -pX, htpasswd -b FILE
// USER X, with the redact.args entries), then each element through the
// redactor. Showing applies both again, so a recording made before a rule
// existed, or with --no-redact, is shown redacted too.

// ArgvRules builds (once) the argv grammar's table with the redact.args
// entries. A bad entry is a usage error naming the setting.
func (a *App) ArgvRules() (*redact.ArgvRules, error) {
	a.red.argvOnce.Do(func() {
		a.red.argv, a.red.argvErr = redact.NewArgvRules(a.set.RedactArgs)
		if a.red.argvErr != nil {
			a.red.argvErr = Usage(fmt.Errorf("invalid redact.args entry %w", a.red.argvErr))
		}
	})
	return a.red.argv, a.red.argvErr
}

// argvRules is ArgvRules for the places that cannot report an error: a
// bad redact.args falls back to the built-in table (rac run and rac out
// check the setting first, so that only happens in a long-lived server
// reading a changed config).
func (a *App) argvRules() *redact.ArgvRules {
	if t, err := a.ArgvRules(); err == nil {
		return t
	}
	return redact.DefaultArgvRules()
}

// argvGrammar applies the argv grammar alone: for explain, which runs the
// redactor over each element itself.
func (a *App) argvGrammar(argv []string) []string { return a.argvRules().Argv(argv) }

// redactArgv applies the argv grammar, then the redactor to each element
// (an element is "" when the redactor cannot be built: fail closed). It
// returns a new slice.
func (a *App) redactArgv(argv []string) []string {
	argv = a.argvGrammar(argv)
	out := make([]string, len(argv))
	for i, s := range argv {
		out[i] = a.redactString(s)
	}
	return out
}

// redactCommandLine redacts a command kept as one line (a tombstone's),
// read with shell word splitting.
func (a *App) redactCommandLine(s string) string {
	return a.redactString(a.argvRules().Line(s))
}

// redactExpired redacts the command an expired reference's tombstone
// kept: one written before the argv grammar existed may hold a secret.
func (a *App) redactExpired(err error) error {
	var ex *resolve.ExpiredError
	if errors.As(err, &ex) && ex.Command != "" {
		ex.Command = a.redactCommandLine(ex.Command)
	}
	return err
}
