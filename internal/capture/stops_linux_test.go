package capture

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A SIGCONT that reached rac alone is held back while the command has a
// stop rac has not followed: one the kernel has yet to report, or one the
// waiter has handed over; a stop rac has followed (taken and done with)
// lets it through, as does a running command.
func TestUnfollowedStops(t *testing.T) {
	path, err := exec.LookPath("sleep")
	require.NoError(t, err)
	p := &process{} // no onStop: the waiter leaves the stops to the test
	require.NoError(t, startProcess(path, []string{"sleep", "100"}, &syscall.ProcAttr{}, p))
	t.Cleanup(func() { _ = unix.Kill(p.pid, unix.SIGKILL); <-p.done })
	f := &stopFollower{proc: p, stopped: make(chan struct{}, 1)}

	assert.False(t, f.unfollowed(), "a running command")
	require.NoError(t, unix.Kill(p.pid, unix.SIGSTOP))
	deadline := time.Now().Add(10 * time.Second)
	for processState(p.pid) != 'T' {
		require.True(t, time.Now().Before(deadline), "the command never stopped")
		time.Sleep(time.Millisecond)
	}
	assert.True(t, f.unfollowed(), "a stop the kernel has yet to report")
	assert.True(t, f.proc.peekStop(), "peeking leaves the stop to be reported")

	ev := p.takeStop(siStopped)
	require.True(t, ev.stopped)
	assert.Equal(t, syscall.SIGSTOP, ev.sig)
	assert.False(t, f.unfollowed(), "a stop taken and followed")

	f.onStop(ev)
	assert.True(t, f.unfollowed(), "a stop handed over, not followed yet")
}
