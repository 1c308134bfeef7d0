package app

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/runspec"
)

// The announce rule: auto prints both lines under an agent or wherever
// neither stdout nor stderr is a terminal; a person at a terminal gets the
// reference after a failure only. Any other value stands as given.
func TestResolveAnnounce(t *testing.T) {
	for _, c := range []struct {
		agent, outTTY, errTTY bool
		want                  runspec.Announce
	}{
		{false, false, false, runspec.AnnounceBoth},  // script, CI, cron, unknown agent
		{false, true, false, runspec.AnnounceFailed}, // git push 2>err.log at a prompt
		{false, false, true, runspec.AnnounceFailed}, // git log | grep x at a prompt
		{false, true, true, runspec.AnnounceFailed},  // a person at a terminal
		{true, false, false, runspec.AnnounceBoth},   // a detected agent
		{true, true, false, runspec.AnnounceBoth},    // an agent that gave stdout a pty
		{true, false, true, runspec.AnnounceBoth},    //
		{true, true, true, runspec.AnnounceBoth},     // an agent's interactive terminal
	} {
		t.Run(fmt.Sprintf("agent=%v/stdout-tty=%v/stderr-tty=%v", c.agent, c.outTTY, c.errTTY), func(t *testing.T) {
			ctx := AnnounceContext{Agent: c.agent, StdoutTerminal: c.outTTY, StderrTerminal: c.errTTY}
			assert.Equal(t, c.want, ResolveAnnounce(runspec.AnnounceAuto, ctx))
			for _, v := range []runspec.Announce{runspec.AnnounceStart, runspec.AnnounceEnd, runspec.AnnounceBoth, runspec.AnnounceNone, runspec.AnnounceFailed} {
				assert.Equal(t, v, ResolveAnnounce(v, ctx), "an explicit value stands")
			}
		})
	}
}
