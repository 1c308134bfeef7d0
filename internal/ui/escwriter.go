package ui

import (
	"io"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
)

// EscapeLine escapes one line for a terminal: every control character,
// tabs too (a line rac prints whole, such as a summary line or a check).
func EscapeLine(s string) string { return termtext.EscapeLine(s) }

// EscapingWriter returns a writer that escapes the control characters of
// each line written through it (text that carries values from the
// environment, such as rac session --explain), keeping the line ends.
func EscapingWriter(w io.Writer) io.Writer { return escapingWriter{w} }

type escapingWriter struct{ w io.Writer }

func (e escapingWriter) Write(p []byte) (int, error) {
	for _, l := range strings.SplitAfter(string(p), "\n") {
		body, nl := strings.CutSuffix(l, "\n")
		s := termtext.Escape(body)
		if nl {
			s += "\n"
		}
		if _, err := io.WriteString(e.w, s); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
