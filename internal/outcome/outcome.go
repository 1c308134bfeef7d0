// Package outcome says how a recorded command ended, in the one set of
// words every renderer uses: rac out list's table and shell completion
// (Short), rac out read --follow's closing line, rac run --summary and the
// MCP tools (Long), rac out explain and its --json "outcome" (Took, Long
// with the run time). The status words themselves, the JSON "status"
// values, are record's (record.StatusExited, ...). Text from a recording
// (a signal name, an unknown status) is escaped. It must never print, read
// a recording or decide policy: it only words an outcome.
package outcome

import (
	"strconv"
	"time"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/termtext"
	"github.com/rac-cli/rac/internal/units"
)

// Outcome is how a command ended, as its recording says: a status word
// of record's, the exit code (nil when there is none) and the name of the
// signal that ended it ("" when none).
type Outcome struct {
	Status   string
	ExitCode *int
	Signal   string
}

// Of is the outcome of a status, an exit code and a signal name.
func Of(status string, exitCode *int, signal string) Outcome {
	return Outcome{Status: status, ExitCode: exitCode, Signal: signal}
}

// Short is the outcome for a table column: exit 2, exited (no code
// known), SIGTERM, killed (no signal known), timed out, failed to start,
// running, incomplete, stream ended, transport error, cancelled, unknown
// (no status).
func (o Outcome) Short() string {
	switch o.Status {
	case record.StatusExited:
		if o.ExitCode == nil {
			return "exited"
		}
		return "exit " + strconv.Itoa(*o.ExitCode)
	case record.StatusSignaled:
		if o.Signal == "" {
			return "killed"
		}
		return termtext.Escape(o.Signal)
	case record.StatusTimedOut:
		return "timed out"
	case record.StatusCancelled:
		return "cancelled"
	case record.StatusFailedToStart:
		return "failed to start"
	case record.StatusRunning, record.StatusIncomplete:
		return o.Status
	case record.StatusStreamEnded:
		return "stream ended"
	case record.StatusTransportError:
		return "transport error"
	case "":
		return "unknown"
	}
	return termtext.Escape(o.Status)
}

// Long is the outcome as a phrase that can follow a reference ("rac:
// s/0001-make exited with code 2"): exited with code 2, exited (code
// unknown), killed by SIGTERM, killed by a signal, timed out (killed by
// SIGKILL), failed to start (code 127), running, incomplete: the recorder
// stopped before the command ended, status unknown.
func (o Outcome) Long() string { return o.Took(0, false) }

// Took is Long with how long the command ran, when known (known false
// leaves it out): exited with code 1 after 2.3s, killed by SIGTERM after
// 5.0s, timed out after 30.0s (killed by SIGKILL), cancelled after 4.0s
// (killed by SIGTERM), running for 12.0s,
// incomplete: the recorder stopped before the command ended (started
// 3m04s ago). For a command that has not ended (running, or incomplete
// without an end), d is the time since its start.
func (o Outcome) Took(d time.Duration, known bool) string {
	after, span := "", ""
	if known {
		span = units.Duration(d)
		after = " after " + span
	}
	switch o.Status {
	case record.StatusExited:
		if o.ExitCode == nil {
			return "exited (code unknown)" + after
		}
		return "exited with code " + strconv.Itoa(*o.ExitCode) + after
	case record.StatusSignaled:
		return "killed by " + o.signal() + after
	case record.StatusTimedOut:
		if o.Signal == "" {
			return "timed out" + after
		}
		return "timed out" + after + " (killed by " + o.signal() + ")"
	case record.StatusCancelled:
		if o.Signal == "" {
			// a producer that cancelled states no signal, nor a status
			return "cancelled" + after + " (no exit status)"
		}
		return "cancelled" + after + " (killed by " + o.signal() + ")"
	case record.StatusFailedToStart:
		if o.ExitCode == nil {
			return "failed to start"
		}
		return "failed to start (code " + strconv.Itoa(*o.ExitCode) + ")"
	case record.StatusRunning:
		if known {
			return "running for " + span
		}
		return "running"
	case record.StatusIncomplete:
		const s = "incomplete: the recorder stopped before the command ended"
		if known {
			return s + " (started " + span + " ago)"
		}
		return s
	case record.StatusStreamEnded:
		return "stream ended" + after + " (no exit status stated)"
	case record.StatusTransportError:
		return "transport error" + after + " (no exit status)"
	case "":
		return "status unknown"
	}
	return "status " + termtext.Escape(o.Status)
}

func (o Outcome) signal() string {
	if o.Signal == "" {
		return "a signal"
	}
	return termtext.Escape(o.Signal)
}

// Succeeded reports whether the command exited with code 0.
func (o Outcome) Succeeded() bool {
	return o.Status == record.StatusExited && o.ExitCode != nil && *o.ExitCode == 0
}
