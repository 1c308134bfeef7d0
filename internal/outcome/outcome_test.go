package outcome

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/record"
)

func TestWords(t *testing.T) {
	code := func(n int) *int { return &n }
	for _, tc := range []struct {
		o           Outcome
		short, long string
	}{
		{Of(record.StatusExited, code(0), ""), "exit 0", "exited with code 0"},
		{Of(record.StatusExited, code(2), ""), "exit 2", "exited with code 2"},
		{Of(record.StatusExited, nil, ""), "exited", "exited (code unknown)"},
		{Of(record.StatusSignaled, nil, "SIGTERM"), "SIGTERM", "killed by SIGTERM"},
		{Of(record.StatusSignaled, nil, ""), "killed", "killed by a signal"},
		{Of(record.StatusTimedOut, nil, "SIGKILL"), "timed out", "timed out (killed by SIGKILL)"},
		{Of(record.StatusTimedOut, nil, ""), "timed out", "timed out"},
		{Of(record.StatusCancelled, nil, "SIGTERM"), "cancelled", "cancelled (killed by SIGTERM)"},
		{Of(record.StatusFailedToStart, code(127), ""), "failed to start", "failed to start (code 127)"},
		{Of(record.StatusFailedToStart, nil, ""), "failed to start", "failed to start"},
		{Of(record.StatusRunning, nil, ""), "running", "running"},
		{Of(record.StatusIncomplete, nil, ""), "incomplete", "incomplete: the recorder stopped before the command ended"},
		{Of(record.StatusStreamEnded, nil, ""), "stream ended", "stream ended (no exit status stated)"},
		{Of(record.StatusTransportError, nil, ""), "transport error", "transport error (no exit status)"},
		{Of(record.StatusCancelled, nil, ""), "cancelled", "cancelled (no exit status)"},
		{Of("", nil, ""), "unknown", "status unknown"},
		{Of("weird\x1b[2J", nil, ""), `weird\x1b[2J`, `status weird\x1b[2J`},
		{Of(record.StatusSignaled, nil, "SIG\u009bTERM"), `SIG\x9bTERM`, `killed by SIG\x9bTERM`},
	} {
		assert.Equal(t, tc.short, tc.o.Short(), "%+v", tc.o)
		assert.Equal(t, tc.long, tc.o.Long(), "%+v", tc.o)
		assert.False(t, strings.ContainsAny(tc.o.Long()+tc.o.Short()+tc.o.Took(time.Second, true), "\x1b\u009b"), "%+v", tc.o)
	}
}

func TestTook(t *testing.T) {
	code := 1
	d := 2310 * time.Millisecond
	for _, tc := range []struct {
		o    Outcome
		want string
	}{
		{Of(record.StatusExited, &code, ""), "exited with code 1 after 2.3s"},
		{Of(record.StatusSignaled, nil, "SIGTERM"), "killed by SIGTERM after 2.3s"},
		{Of(record.StatusTimedOut, nil, "SIGKILL"), "timed out after 2.3s (killed by SIGKILL)"},
		{Of(record.StatusCancelled, nil, "SIGTERM"), "cancelled after 2.3s (killed by SIGTERM)"},
		{Of(record.StatusFailedToStart, nil, ""), "failed to start"},
		{Of(record.StatusRunning, nil, ""), "running for 2.3s"},
		{Of(record.StatusStreamEnded, nil, ""), "stream ended after 2.3s (no exit status stated)"},
		{Of(record.StatusTransportError, nil, ""), "transport error after 2.3s (no exit status)"},
		{Of(record.StatusIncomplete, nil, ""), "incomplete: the recorder stopped before the command ended (started 2.3s ago)"},
	} {
		assert.Equal(t, tc.want, tc.o.Took(d, true))
		assert.Equal(t, tc.o.Long(), tc.o.Took(d, false), "without a known time Took is Long")
	}
}

func TestSucceeded(t *testing.T) {
	zero, one := 0, 1
	assert.True(t, Of(record.StatusExited, &zero, "").Succeeded())
	assert.False(t, Of(record.StatusExited, &one, "").Succeeded())
	assert.False(t, Of(record.StatusExited, nil, "").Succeeded())
	assert.False(t, Of(record.StatusFailedToStart, &zero, "").Succeeded())
	// an outcome nobody stated never reads as success, whatever code
	for _, st := range []string{record.StatusStreamEnded, record.StatusTransportError, record.StatusCancelled, record.StatusIncomplete} {
		assert.False(t, Of(st, &zero, "").Succeeded(), st)
	}
}
