package explain

import "bytes"

// A failed run's cause is sometimes only a warning: a checker run with
// warnings denied ("--deny-warnings", "-Wall" over "Exiting due to 2
// warning(s)"), or a tool that exits non-zero after warnings alone ("file
// is damaged"). Such a line is led by its level, in the forms of many
// ecosystems: "WARNING: ...", "%Warning-WIDTH: file.v:2:27: ...",
// "[warn] ...", a linter's "W:  6:  5: ..." and a lone mark ("! ...",
// "⚠ ..."). The level is the form, not the words after it. The shape pass
// keeps the first maxWarned such lines of a failed run's stream at the
// context tier: shown beside a generic verdict ("Exiting due to 2
// warning(s)"), or above the tail when no line says that anything failed;
// a passing run's report never gets them (its warnings are those that
// mention a term, as before).
const maxWarned = 2

// warningLevels are the words of a warning level, in lower case.
var warningLevels = []string{"warning", "warn"}

// warningLed reports a line (its indentation trimmed) led by a warning
// level or a warning mark, with a message after it.
func warningLed(t []byte) bool {
	if len(t) < 4 {
		return false
	}
	// a lone mark and a blank: "! eslint(no-debugger): ...", "⚠ ..."
	if t[0] == '!' && t[1] == ' ' {
		return isLetter(firstNonBlank(t[2:]))
	}
	if hasPrefix(t, "⚠ ") {
		return hasMessage(t[len("⚠ "):])
	}
	i := 0
	if t[0] == '%' || t[0] == '[' {
		i = 1
	}
	if t[i] != 'W' && t[i] != 'w' {
		return false // most lines leave here: every level this reads starts so
	}
	j := i
	for j < len(t) && isLetter(t[j]) {
		j++
	}
	w := t[i:j]
	if len(w) == 0 || j+1 >= len(t) {
		return false
	}
	if len(w) == 1 && w[0] == 'W' {
		// a linter's level letter before a position: "W:  6:  5: ..."
		return t[j] == ':' && isDigit(firstNonBlank(t[j+1:]))
	}
	if !levelWord(w) {
		return false
	}
	// the level ends at its mark: "WARNING:", "%Warning-WIDTH:", "[warn]"
	switch t[j] {
	case ':', '-', ']', ')':
		return hasMessage(t[j+1:])
	}
	return false
}

// levelWord reports a warning level, in any case.
func levelWord(w []byte) bool {
	for _, l := range warningLevels {
		if len(w) == len(l) && bytes.EqualFold(w, []byte(l)) {
			return true
		}
	}
	return false
}

// firstNonBlank is the first byte of t that is not a blank, 0 if none.
func firstNonBlank(t []byte) byte {
	for _, c := range t {
		if c != ' ' && c != '\t' {
			return c
		}
	}
	return 0
}
