package ui

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/session"
)

func TestHint(t *testing.T) {
	wrapped := func(err error) error { return fmt.Errorf("rac out read: %w", err) }
	for _, tc := range []struct {
		name  string
		err   error
		usage bool
		want  string
	}{
		{"config file", &config.Error{Name: "gc.max_age", Path: "/h/.config/rac/config.yaml"}, true,
			"fix /h/.config/rac/config.yaml ('rac config' lists every key)"},
		{"variable", &config.Error{Name: "RAC_RUN_TIMEOUT"}, true, "fix or unset RAC_RUN_TIMEOUT"},
		{"flag: the usage hint", &config.Error{Name: "--timeout"}, true, "run 'rac run --help' for the usage and examples"},
		{"no session", wrapped(&resolve.NotFoundError{Session: "x", Reason: resolve.NoSession}), false,
			"run 'rac out list --all-sessions' to see every session"},
		{"unwritable", &resolve.NotFoundError{Session: "x", Reason: resolve.Unwritable}, false,
			"nothing was recorded: make a store writable (in Codex's sandbox: -s workspace-write) or set RAC_HOME to a writable folder, then rac run the command again"},
		{"empty session", &resolve.NotFoundError{Session: "x", Reason: resolve.EmptySession}, false,
			"this shell may be in another session than the one that ran the command: use the SESSION/NAME that rac run printed, or run 'rac session --explain'"},
		{"no recording", &resolve.NotFoundError{Session: "my-task", Ref: "42"}, false,
			"run 'rac out list' to see the recordings of session my-task, or 'rac out list --all-sessions'"},
		{"damaged, quoted for the shell", &record.DamagedError{Ref: "s/0001-it's"}, false,
			`its files were changed or cut short outside rac: 'rac out read 's/0001-it'\''s' --raw --stream stdout' (or stderr, combined) copies what a stream kept; 'rac out rm 's/0001-it'\''s'' removes it`},
		{"expired with its command, escaped", wrapped(&resolve.ExpiredError{Session: "s", Command: "echo \x1b[2J"}), false,
			`its output is gone; run the command again to see it (it was: echo \x1b[2J)`},
		{"expired without", resolve.ErrExpired, false, "its output is gone; 'rac out list' shows what this session still keeps"},
		{"ambiguous", wrapped(resolve.ErrAmbiguous), false, "add more of the name, or use its number; 'rac out list' shows them"},
		{"invalid", resolve.ErrInvalid, true, "a reference is SESSION/NAME as printed by rac run, a number like 42, a name prefix, or last"},
		{"session name", session.ErrInvalidName, true, "pick a name like my-task-1"},
		{"usage", errors.New("too many arguments"), true, "run 'rac run --help' for the usage and examples"},
		{"newer format", wrapped(record.ErrNewerFormat), false, "install a newer rac to read it"},
		{"usage before newer format", record.ErrNewerFormat, true, "run 'rac run --help' for the usage and examples"},
		{"nothing to suggest", errors.New("disk full"), false, ""},
		{"chosen by type, never by text", errors.New("expired: ambiguous reference"), false, ""},
	} {
		assert.Equal(t, tc.want, Hint(tc.err, "rac run", tc.usage), tc.name)
	}
}
