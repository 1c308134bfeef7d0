package explain

import "bytes"

// Lines of equal weight are ranked by how specific they are: a line that
// names a position in a file, a quoted name, a package or a version, or
// that sets what was expected against what came is more telling than one
// that names nothing ("npm error A complete log of this run can be found
// in: ...", "Run with --stacktrace"). A tool that reports one failure in a
// dozen lines of one prefix puts its conflict in the line that names the
// most; those lines otherwise come in the tool's order, which says nothing.

// specificity counts the specific things a line names: a file and a
// position in it, a quoted name, packages and versions (at most two), an
// error code, an expected/actual pair. A path counts for nothing: a pointer to a log
// names where to look, not what went wrong.
func specificity(t []byte) int {
	// Keep maxSpec in step with what this can count.
	n := 0
	file, pos := fileMention(t)
	if file {
		n++
	}
	if pos {
		n++
	}
	if hasQuoted(t) {
		n++
	}
	n += min(versions(t), 2)
	if hasCode(t) {
		n++
	}
	if hasPair(t) {
		n++
	}
	return n
}

// maxSpec bounds specificity: a file, a position, a quoted name, two
// versions, a code and a pair. The store leaves a line early when even
// maxSpec could not rank it high enough, so rank must never fall as spec
// grows.
const maxSpec = 7

// rank is the order of a candidate within its tier, higher first. A
// tool's own error line or log line ("error: ...", "[ERROR] ...") is
// specific or not: a generic one comes after the lines that name
// something. Other causes are shaped (a compiler's diagnostic names its
// position, an exception its type), and among them the first still wins,
// since the first error of a cascade is usually its cause. Summaries, a
// tool's block of error lines that restate its failure ("npm error ..."),
// are ranked by how much they name. Context keeps the tool's order.
func rank(tier int, kind string, spec int) int {
	switch {
	case tier == tierSummary:
		return spec
	case tier == tierTerm, tier == tierCause && (kind == kindTool || kind == kindLog):
		return min(spec, 1)
	case tier == tierCause:
		return 1
	}
	return 0
}

// fileMention reports whether t names a file by its name ("package.json",
// "main.c") and whether it names a position in one ("main.c:4:20",
// "[Makefile:3: all]"). A name inside a path ("/root/.npm/_logs/x.log",
// "node_modules/host") is a place to look, and does not count as a name.
func fileMention(t []byte) (file, pos bool) {
	for i := 0; i < len(t); {
		for i < len(t) && !isFileByte(t[i]) {
			i++
		}
		j := i
		for j < len(t) && (isFileByte(t[j]) || t[j] == '/') {
			j++
		}
		tok := t[i:j]
		i = j
		if bytes.IndexByte(tok, '/') >= 0 {
			continue
		}
		end := len(tok)
		for end > 0 && tok[end-1] == '.' {
			end--
		}
		name := tok[:end]
		if dot := bytes.LastIndexByte(name, '.'); dot >= 1 && isExtension(name[dot+1:]) {
			file = true
			if j+1 < len(t) && t[j] == ':' && isDigit(t[j+1]) {
				return true, true
			}
		}
	}
	return file, false
}

func isFileByte(c byte) bool { return isIdent(c) || c == '.' || c == '-' }

// hasQuoted reports a quoted name: text between a pair of ', ", ` or ‘’
// that opens after a non-letter and closes before one ("'total'",
// "`npm ci`", `host@"^1.0.0"`), which an apostrophe ("don't") is not.
func hasQuoted(t []byte) bool {
	for i := 0; i < len(t); i++ {
		q := t[i]
		if q != '\'' && q != '"' && q != '`' || i > 0 && isLetter(t[i-1]) && q == '\'' {
			continue
		}
		j := bytes.IndexByte(t[i+1:], q)
		if j <= 0 {
			return false
		}
		end := i + 1 + j
		if end+1 == len(t) || !isLetter(t[end+1]) {
			return true
		}
		i = end
	}
	return bytes.Contains(t, []byte("\u2018")) && bytes.Contains(t, []byte("\u2019"))
}

// versions counts the packages and versions a line names: "name@1.2.3",
// `host@"^1.0.0"`, "v1.2" or a bare "1.2.3" (a duration such as "0.01s"
// has one dot, and is none).
func versions(t []byte) int {
	n := 0
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '@' && i > 0 && isIdent(t[i-1]) && i+1 < len(t) && !isSpace(t[i+1]):
			n++
			for i+1 < len(t) && !isSpace(t[i+1]) {
				i++
			}
		case isDigit(t[i]) && (i == 0 || !isWord(t[i-1]) && t[i-1] != '.' || t[i-1] == 'v'):
			j, dots := i, 0
			for j < len(t) && (isDigit(t[j]) || t[j] == '.' && j+1 < len(t) && isDigit(t[j+1])) {
				if t[j] == '.' {
					dots++
				}
				j++
			}
			if dots >= 2 || dots == 1 && i > 0 && t[i-1] == 'v' {
				n++
			}
			i = j
		}
	}
	return n
}

// hasCode reports an error code: a word of capitals holding digits
// ("E0308", "TS2304", "SC2086"), or one of capitals after the word "code"
// ("npm error code ERESOLVE", "code: EACCES").
func hasCode(t []byte) bool {
	afterCode := false
	for i := 0; i < len(t); {
		if !isIdent(t[i]) {
			i++
			continue
		}
		j, caps, digits := i, true, false
		for j < len(t) && isIdent(t[j]) {
			caps = caps && !('a' <= t[j] && t[j] <= 'z')
			digits = digits || isDigit(t[j])
			j++
		}
		w := t[i:j]
		if len(w) >= 4 && caps && isLetter(w[0]) && (digits || afterCode) {
			return true
		}
		afterCode = string(w) == "code"
		i = j
	}
	return false
}

// hasPair reports an expectation set against what came: "want 30, got
// 31", "expected `i32`, found `&str`", "expected:<6> but was:<7>".
func hasPair(t []byte) bool {
	return (hasWordFold(t, "expected") || hasWordFold(t, "want")) &&
		(hasWordFold(t, "got") || hasWordFold(t, "found") || hasWordFold(t, "received") || hasWordFold(t, "actual") ||
			containsFold(t, "but was"))
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }
