package explain

import (
	"bytes"

	"github.com/rac-cli/rac/internal/termtext"
)

// A line that starts with a position in a file ("guide.texi:6: unknown
// command", "ssh_config line 3: Bad port", "\"notes.tex\", line 5: <-
// unmatched", "app.js: line 1, col 16, Missing semicolon.", "Main.cs(4,9):
// ...") is a tool's finding whatever words it holds: the position is its
// form, not its vocabulary. Such lines hold no error word often enough
// (a checker's findings, a config parser's reasons) that the prefilter
// never shows them to classify, so the shape pass, which sees every line,
// looks for them. A failed run's first maxLocated of them, per stream, are
// kept at the summary tier: below every line that says it failed, beside
// the generic verdict ("Configuration file errors encountered") that is
// about them. A passing run never shows them as a cause.
const maxLocated = 3

// maxLocName bounds the file name a position-led line starts with.
const maxLocName = 120

// positionLed reports whether t (a line at column 0) starts with a
// file's name and a position in it, and returns the message after it.
func positionLed(t []byte) (msg []byte, ok bool) {
	if len(t) < 4 || !isLetter(t[0]) && t[0] != '.' && t[0] != '/' && t[0] != '"' {
		return nil, false
	}
	i, quoted := 0, false
	if t[0] == '"' {
		i, quoted = 1, true
	}
	start := i
	dot := -1
	for i < len(t) && i-start < maxLocName && (isFileByte(t[i]) || t[i] == '/') {
		if t[i] == '.' {
			dot = i
		}
		i++
	}
	if i+1 < len(t) && t[i] == '@' && !quoted {
		// a type at a position ("core.exception.RangeError@rates.d(5): ...")
		i++
		start, dot = i, -1
		for i < len(t) && i-start < maxLocName && (isFileByte(t[i]) || t[i] == '/') {
			if t[i] == '.' {
				dot = i
			}
			i++
		}
	}
	name := t[start:i]
	if len(name) < 2 || !isLetter(name[0]) && name[0] != '.' && name[0] != '/' {
		return nil, false
	}
	if quoted {
		if i >= len(t) || t[i] != '"' {
			return nil, false
		}
		i++
	}
	ext := dot > start && isExtension(t[dot+1:i-b2i(quoted)])
	rest := t[i:]
	switch {
	case ext && len(rest) > 1 && (rest[0] == ':' || rest[0] == '(') && isDigit(rest[1]):
		// "file.c:3:", "file.xml:3.22:", "Main.cs(4,9):"
		j := 1
		for j < len(rest) && (isDigit(rest[j]) || rest[j] == ':' || rest[j] == '.' || rest[j] == ',' || rest[j] == ')') {
			j++
		}
		return rest[j:], hasMessage(rest[j:])
	case ext && (hasPrefix(rest, ", line ") || hasPrefix(rest, ": line ")):
		// "\"notes.tex\", line 5:", "app.js: line 1, col 16,"
		return lineNumber(rest[len(", line "):])
	case ext && len(rest) > 2 && hasPrefix(rest, " [") && isDigit(rest[2]):
		// "a.js [2:1 - 11:28] (10 lines, 52 tokens)"
		end := bytes.IndexByte(rest, ']')
		if end < 0 {
			return nil, false
		}
		return rest[end+1:], hasMessage(rest[end+1:])
	case hasPrefix(rest, " line "):
		// "dhcpd.conf line 4:", "ssh_config line 3:"
		return lineNumber(rest[len(" line "):])
	}
	return nil, false
}

// lineNumber reads a line number followed by ':' or ',' and a message,
// and returns the message.
func lineNumber(t []byte) ([]byte, bool) {
	j := 0
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j == 0 || j == len(t) || t[j] != ':' && t[j] != ',' {
		return nil, false
	}
	return t[j+1:], hasMessage(t[j+1:])
}

// findingTier is the tier of a position-led line that no rule judged: a
// summary, unless the tool's own label after the position says it is a
// warning or note ("warning:", a linter's "C0103:"), which a failed run
// has for other reasons.
func findingTier(msg []byte) int {
	if diagSeverity(msg) == tierContext {
		return tierNone
	}
	if c := lintCode(msg); c != 0 && c != 'E' && c != 'F' {
		return tierNone
	}
	return tierSummary
}

// hasMessage reports whether t holds a word after the position.
func hasMessage(t []byte) bool {
	for _, c := range t {
		if isLetter(c) {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isFinding reports a position-led line that is not a warning or a note.
func isFinding(t []byte) bool {
	msg, ok := positionLed(t)
	return ok && findingTier(msg) != tierNone
}

// Two more forms are found by the shape pass, since the lines they point
// at hold no error word:
//
//   - A heading ruled off to the line's end ("cfg.js:1:45 parse ━━━━━",
//     "app.js format ━━━━━") is a diagnostic's heading: the first line
//     under it is its message. The first maxRuled such headings of a
//     stream are kept, each with its message.
//   - A line that is only a position in parentheses ("('site.vcl' Line 4
//     Pos 28)", "(program line 417), at") locates the message on the line
//     above it.
//   - A stack's first frame, indented and located ("    at
//     /src/test/cart.js:6:55") or at an address, is under the message it unwinds from
//     ("Expected 7 to equal specified value: 6"), whatever words that
//     holds: the non-blank line above it, unless that is a frame or a
//     source excerpt, is a cause. The first maxStacks are kept.
//   - An item of a list ("- ", "* ") is read as a line of its own: a
//     position-led item ("- a.js [2:1 - 11:28] (10 lines, 52 tokens)") is
//     a finding; the first item that names a file, under a sentence at the
//     margin that announces it ("The following files have no licensing
//     information:" over "* /src/cart.py"), is kept with that sentence at
//     the context tier: in a failed run it comes above the tail, or beside
//     the causes. The first maxLists such lists are kept.
//   - A row of a table of findings, cells split by '|' whose first cell is
//     a line number (" 9 | ERROR | [x] Expected 1 space(s) ...", "L:   1 |
//     P:  17 |  PRS | Line 1, Position 17: Found unparsable section"), is
//     a finding like a position-led line; the first maxRows are kept.
//   - A record whose indented field is a position ("   Location:
//     deploy.py:5" under ">> Issue: [B602:...] subprocess call with
//     shell=True") is headed by the line above it at the margin: that
//     heading is a finding; the first maxRecords are kept.
const (
	maxStacks  = 1
	maxLists   = 1
	maxRuled   = 2
	maxRows    = 2
	maxRecords = 2
)

// maxFound bounds the lines the shape pass keeps for these forms.
const maxFound = 2*maxRuled + 2 + maxRows + maxRecords + maxStacks + 2*maxLists

// locationField reports an indented field of a record whose value is a
// position in a file: a capitalised label, a colon, then "file.ext:N".
func locationField(t []byte) bool {
	c := labelColon(t)
	if c < 0 || !('A' <= t[0] && t[0] <= 'Z') {
		return false
	}
	v := bytes.TrimLeft(t[c+1:], " ")
	return len(v) < maxLocName && bytes.IndexByte(v, ' ') < 0 && locates(v)
}

// found is a line the shape pass keeps for the store, with its tier and
// kind.
type found struct {
	oneOff
	tier int
	kind string
}

// ruled reports a heading ruled off to the line's end: text, then at
// least minRule box-drawing rule characters (━ ─ ═).
func ruled(l []byte) bool {
	const minRule = 3
	end := len(bytes.TrimRight(l, " \r"))
	n := 0
	for end >= 3 && l[end-3] == 0xe2 && (l[end-2] == 0x94 && (l[end-1] == 0x80 || l[end-1] == 0x81) || l[end-2] == 0x95 && l[end-1] == 0x90) {
		end -= 3
		n++
	}
	return n >= minRule && hasMessage(l[:end])
}

// positionOnly reports a line that is only a position in parentheses
// (what follows the ')' is at most a word and punctuation): it names a
// line ("Line 4", "line 417").
func positionOnly(t []byte) bool {
	if len(t) < 8 || t[0] != '(' {
		return false
	}
	end := bytes.LastIndexByte(t, ')')
	if end < 0 || len(t)-end > 6 {
		return false
	}
	in := t[1:end]
	for i := 0; i+6 <= len(in); i++ {
		if (i == 0 || !isLetter(in[i-1])) && hasPrefixFold(in[i:], "line ") && isDigit(in[i+5]) {
			return true
		}
	}
	return false
}

// maxCell bounds the first cell of a row of findings, a line number and
// its label.
const maxCell = 8

// findingRow reports a row of a table of findings: at least three cells
// split by '|', the first a line number (maybe after a label, "L:   1"),
// and words in the cells after it.
func findingRow(t []byte) bool {
	bar := bytes.IndexByte(t, '|')
	if bar < 1 || bar > maxCell+2 {
		return false
	}
	first := bytes.TrimRight(t[:bar], " ")
	if len(first) == 0 || len(first) > maxCell || !isDigit(first[len(first)-1]) {
		return false
	}
	rest := t[bar+1:]
	return bytes.IndexByte(rest, '|') > 0 && hasMessage(rest)
}

// firstFrame reports a stack's first frame, indented, under the line
// above it, its message: the frame is located ("at f (x.js:3:5)", "at
// /src/cart.js:6:55") or at an address ("at 0x109145: main (flag.c:4)"),
// and the message is words, not a frame or a source excerpt. A checker's
// "==123== " prefix is skipped on both.
func firstFrame(l, above []byte) bool {
	if l[0] != ' ' && l[0] != '\t' && l[0] != '=' {
		return false // most lines leave here
	}
	l = l[reportPrefix(l):]
	if len(l) == 0 || l[0] != ' ' && l[0] != '\t' {
		return false
	}
	t := trimIndent(l)
	if !isFrameLine(t) || !locates(t) && !hasPrefix(t, "at 0x") {
		return false
	}
	m := trimIndent(above[reportPrefix(above):])
	return hasMessage(m) && !isFrameLine(m) && !isCodeFrame(m)
}

// listItem returns the text of a list item ("- x", "* x", maybe
// indented), as a terminal shows it.
func listItem(l []byte) ([]byte, bool) {
	if l[0] != '-' && l[0] != '*' && l[0] != ' ' && l[0] != '\t' {
		return nil, false // most lines leave here
	}
	t := trimIndent(l)
	if len(t) < 3 || t[0] != '-' && t[0] != '*' || t[1] != ' ' {
		return nil, false
	}
	t = trimIndent(t[2:])
	if bytes.IndexByte(t, 0x1b) >= 0 {
		t = termtext.CleanLine(t)
	}
	return t, len(t) > 0
}

// namesFile reports an item whose first word is a path or a file name.
func namesFile(t []byte) bool {
	if i := bytes.IndexByte(t, ' '); i >= 0 {
		t = t[:i]
	}
	return bytes.IndexByte(t, '/') >= 0 && hasMessage(t) || isFileName(t)
}

// announcesList reports a sentence at the margin that ends in ':' ("The
// following files have no licensing information:"), not a label.
func announcesList(t []byte) bool {
	t = bytes.TrimRight(t, " \t")
	return len(t) > 0 && isLetter(t[0]) && t[len(t)-1] == ':' && words(t) >= minListWords
}

// minListWords is the fewest words of a sentence that announces a list:
// fewer is a label ("Files:", "Used licenses:").
const minListWords = 4
