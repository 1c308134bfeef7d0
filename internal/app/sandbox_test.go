package app

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/store"
)

// A store nobody can write is explained in the words of whoever reads it:
// a person hears of a read-only store, an agent of its sandbox, Codex of
// the flag that allows writes.
func TestSandboxErrorWords(t *testing.T) {
	nw := &store.NoWritableError{
		Places: []store.Place{{Path: "/home/me/.local/state/rac"}, {Path: "/tmp/rac-1000"}},
		Errs:   []error{errors.New("read-only file system"), errors.New("read-only file system")},
	}
	for _, tc := range []struct{ agentVar, want string }{
		{"", "no store can be written (/home/me/.local/state/rac, /tmp/rac-1000: read-only file system); to record, make one writable or set RAC_HOME to a writable folder"},
		{"CODEX_SANDBOX", "the sandbox forbids writes to every store (/home/me/.local/state/rac, /tmp/rac-1000: read-only file system); to record, allow writes (codex: -s workspace-write) or set RAC_HOME to a writable folder"},
		{"CLAUDECODE", "the sandbox forbids writes to every store (/home/me/.local/state/rac, /tmp/rac-1000: read-only file system); to record, allow writes in the agent's sandbox or set RAC_HOME to a writable folder"},
	} {
		assert.Equal(t, tc.want, (&SandboxError{Err: nw, AgentVar: tc.agentVar}).Error())
	}
}

// The variable comes from the environment rac runs in.
func TestAgentVar(t *testing.T) {
	f := newFixture(t)
	assert.Equal(t, "", f.app().agentVar())
	f.env["CODEX_SANDBOX"] = "seatbelt"
	assert.Equal(t, "CODEX_SANDBOX", f.app().agentVar())
}
