package ui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/rac-cli/rac/internal/record"
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

// Duration renders how long something took, for people, with two or
// three significant figures: 850ms, 1.2s, 12.3s, 3m04s, 2h05m, 3d04h.
// Each form is rounded to its last figure first, so 59.96s is 1m00s, not
// 60.0s.
func Duration(d time.Duration) string {
	if d < 0 {
		return "-" + Duration(-max(d, -1<<62))
	}
	if ms := d.Round(time.Millisecond); ms < time.Second {
		return strconv.FormatInt(int64(ms/time.Millisecond), 10) + "ms"
	}
	if t := d.Round(100 * time.Millisecond); t < time.Minute {
		return strconv.FormatFloat(t.Seconds(), 'f', 1, 64) + "s"
	}
	if s := d.Round(time.Second); s < time.Hour {
		return fmt.Sprintf("%dm%02ds", s/time.Minute, s%time.Minute/time.Second)
	}
	if m := d.Round(time.Minute); m < 24*time.Hour {
		return fmt.Sprintf("%dh%02dm", m/time.Hour, m%time.Hour/time.Minute)
	}
	h := d.Round(time.Hour)
	return fmt.Sprintf("%dd%02dh", h/(24*time.Hour), h%(24*time.Hour)/time.Hour)
}

// Ago says how long before now t was, in its largest whole unit, rounded
// down: "just now", "12s ago", "3m ago", "2h ago", "5d ago". A t more than
// a second after now (a clock moved back) is "in the future": never a
// negative age.
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < -time.Second:
		return "in the future"
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s ago"
	case d < time.Hour:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m ago"
	case d < 24*time.Hour:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h ago"
	}
	return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d ago"
}

// Outcome says how a recording ended, as the rest of a sentence that
// starts with its reference ("rac: s/0001-make exited with code 2"):
// exited with code N, was killed by SIGTERM, timed out, failed to start,
// is still running, is incomplete: the recorder stopped before the command
// ended. status is one of record's status words; exitCode is the footer's
// (nil when there is none), signal its signal name ("" when none). Values
// from the recording are escaped.
func Outcome(status string, exitCode *int, signal string) string {
	return outcome(status, exitCode, signal, false)
}

// OutcomeShort is Outcome for a table column: exit N, SIGTERM, timed out,
// not started, running, incomplete.
func OutcomeShort(status string, exitCode *int, signal string) string {
	return outcome(status, exitCode, signal, true)
}

func outcome(status string, exitCode *int, signal string, short bool) string {
	signal = termtext.Escape(signal)
	switch status {
	case record.StatusExited:
		switch {
		case exitCode == nil:
			return "exited"
		case short:
			return "exit " + strconv.Itoa(*exitCode)
		}
		return "exited with code " + strconv.Itoa(*exitCode)
	case record.StatusSignaled:
		switch {
		case short && signal != "":
			return signal
		case short:
			return "signaled"
		case signal == "":
			return "was killed by a signal"
		}
		return "was killed by " + signal
	case record.StatusTimedOut:
		return "timed out"
	case record.StatusFailedToStart:
		if short {
			return "not started"
		}
		return "failed to start"
	case record.StatusRunning:
		if short {
			return status
		}
		return "is still running"
	case record.StatusIncomplete:
		if short {
			return status
		}
		return "is incomplete: the recorder stopped before the command ended"
	case "":
		if short {
			return "unknown"
		}
		return "has no status"
	}
	if short {
		return termtext.Escape(status)
	}
	return "has status " + termtext.Escape(status)
}
