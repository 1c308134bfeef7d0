package session

import (
	"fmt"
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
)

// WriteExplain writes the report as plain text, every rule in precedence
// order: what it saw and why it was or was not taken, so one look tells why
// two shells did or did not share a session. The caller prints the session
// name before it. Values from the environment are shortened and escaped; a
// report never writes raw control characters.
//
//	rule 1 flag: skipped: --session not given
//	rule 2 env: skipped: RAC_SESSION not set
//	rule 3 harness-id: taken: CLAUDE_CODE_SESSION_ID is the only harness id set
//	  saw CLAUDE_CODE_SESSION_ID=0b7e6f4a… (claude)
//	rule 4 agent-marker: not reached: an earlier rule was taken
//	  saw CLAUDECODE=1 (claude)
func (id Identity) WriteExplain(w io.Writer) error {
	var b strings.Builder
	for i, rep := range id.Report {
		status := "skipped"
		switch {
		case rep.Taken:
			status = "taken"
		case !rep.Reached:
			status = ""
		}
		fmt.Fprintf(&b, "rule %d %s: ", i+1, rep.Rule)
		if status != "" {
			b.WriteString(status + ": ")
		}
		b.WriteString(rep.Why + "\n")
		for _, s := range rep.Saw {
			b.WriteString("  saw " + s + "\n")
		}
		if rep.Hint != "" {
			b.WriteString("  hint: " + rep.Hint + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shortID shortens an id for display: its first 8 characters and "…".
func shortID(s string) string { return quoteShort(s, 8) }

// quoteShort is s cut to n characters (with "…" when cut) and escaped, so
// an untrusted value never writes a terminal control sequence.
func quoteShort(s string, n int) string {
	cut := false
	for i := range s { // rune starts; an invalid byte counts as one
		if n == 0 {
			s, cut = s[:i], true
			break
		}
		n--
	}
	// the one escaper (control, C1 and invalid bytes as \xNN), then the
	// two characters that would end or break the "..." it is shown in
	q := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	q = termtext.Escape(q)
	if cut {
		q += "…"
	}
	return q
}
