package explain

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"
	"regexp"
	"strings"
	"sync"
)

// Tiers order candidate lines; a higher tier is more likely the cause.
//
// The ranking rule, in a few lines:
//
//  1. A line shaped like a cause outranks a line that merely says "error":
//     a compiler or vet diagnostic, an exception line (for a Python
//     traceback the line that ends it), a panic and its message, a failing
//     test's own message (one that reads like a failed expectation; a plain
//     t.Log line of the test ranks as a term), a tool's "error:"/"fatal:"
//     line, a status tag (git's "! [rejected]") and "CONFLICT", an
//     ERROR/FATAL log line.
//
//  2. A line that only contains an error term (failed, not found, denied,
//     ...) comes next.
//
//  3. Summaries and consequences come after those: go test's FAIL lines,
//     make's "*** [...] Error 1", npm's error block, "N errors", cargo's
//     "could not compile", a Traceback header.
//
//  4. Hints, notes, warnings and INFO lines that mention a term come last,
//     and never make a report show "cause" on their own.
//
//  5. Within a tier lines of equal weight are ranked by how specific they
//     are (rank.go): a summary line that names more (a file, a position, a
//     quoted name, a package or version, an error code, an expected/actual
//     pair) comes first, and a tool's or log's error line that names
//     nothing comes after those that name something. Then the earlier line
//     wins (the first error of a cascade is its cause; a chained Python
//     traceback prints its first exception first), compared by per-stream
//     line number, then by the order the streams are given: the recording
//     does not keep the order between streams, and a low line number is
//     the best guess of an early line.
//
//  6. Blocks are read as units: a heading that announces its detail (it
//     ends with ':', or is a tool's "Error: Summary" over an indented
//     excerpt) brings the detail line below it; a test runner's failure
//     heading ("● suite › test") and the expectation under an assertion
//     ("expected: 31", then "got: 30") are causes; the message printed
//     just before a "stack traceback:" is; so is the last line a failed
//     test printed under its result line; so are two values whose labels
//     line up under a failed assertion ("  left: 5" over " right: 4"). A
//     linter's coded line ranks by its code's letter (E and F are errors),
//     not by the words it holds. A banner framed by marks ("*** ... ***")
//     brings the block under it.
//
//  7. Findings are known by their form, not their words (located.go): a
//     line led by a file and a position, a row of a table of findings, the
//     heading of a record located by a field, a heading ruled off to the
//     line's end and its message, the message above a position alone.
//
// Lines that say a test passed ("--- PASS: TestErrorHandling", "ok  pkg/errors")
// and counts of zero ("0 failed") are never candidates, nor is code that
// pytest quotes in a failure section, nor a word inside a path.
const (
	tierNone    = -1
	tierContext = 0
	tierSummary = 1
	tierTerm    = 2
	tierCause   = 3
	nTiers      = 4
)

// Kinds say, in the report, why a line was picked.
const (
	kindCompiler  = "compiler"  // file:line[:col]: error ... from a compiler, vet or linter
	kindException = "exception" // the exception line of a traceback or an uncaught error
	kindPanic     = "panic"     // a Go or Rust panic and its message
	kindTest      = "test"      // a failing test's own message (t.Errorf, pytest's E lines)
	kindTool      = "tool"      // a tool's own error line: "error: ...", "fatal: ...", "Error from server"
	kindGit       = "git"       // a status tag (git's "! [rejected]") and "CONFLICT (...)"
	kindLog       = "log"       // a log line at ERROR or FATAL level
	kindMake      = "make"      // make's own errors ("*** No rule to make target")
	kindReport    = "report"    // a report's banner, or the heading of a block of frames under it
	kindTerm      = "term"      // a line that contains an error term
	kindDetail    = "detail"    // the detail a heading announced, or values under a failed assertion ("left: 5", "right: 4")
	kindSummary   = "summary"   // a consequence or summary line
	kindContext   = "context"   // a hint, note, warning or info line that mentions a term
	kindTail      = "tail"      // a tail line (no line matched)
	kindShape     = "shape"     // a line of a kind of its own between blocks of one template, or a list under the sentence announcing it (shape.go)
	kindPass      = "pass"      // a passing run's pass line, shown above its last lines when a teardown log follows it
)

// Go test markers, remembered per stream to tell whose log lines follow.
const (
	goNone = iota
	goRun  // "=== RUN/CONT/NAME": -v output, log lines belong to a running test
	goPass // "--- PASS/SKIP"
	goFail // "--- FAIL": the indented lines that follow are its messages
)

// maxPending bounds the log lines kept for one running go test (-v output
// prints them before the test's "--- FAIL"/"--- PASS" line), and
// maxPendingTests the tests they are kept for: subtests and parallel tests
// print their lines under their own "=== RUN"/"=== CONT" marker, and their
// "--- FAIL" comes after the other tests' lines, when the parent ends.
const (
	maxPending      = 4
	maxPendingTests = 16
)

type pendingLine struct {
	line int
	text string
}

// lineState is what classification remembers between lines of one stream.
type lineState struct {
	goTest      int
	test        []byte                   // the test whose lines follow ("=== RUN/CONT/NAME"); a buffer reused for each marker
	pending     map[string][]pendingLine // log lines of tests that have not ended
	traceback   bool                     // inside a Python traceback: the next unindented line is the exception
	next        string                   // the next line is a message of this kind ("thread ... panicked at ...:" is followed by its message)
	heading     bool                     // the line before is a term line that heads a block if this one is indented deeper
	headLine    int                      // its number
	headText    []byte                   // its text, in a buffer reused: most such lines head nothing
	headDepth   int                      // its indent
	detail      int                      // lines left to find the detail of a heading that announced one
	body        bool                     // that heading's indented body comes before its detail
	locate      bool                     // that heading names no position: its detail is the first line below that does
	label       bool                     // a label alone ("Message:") was seen below it: the next line is the detail
	pair        bool                     // the line before was an expectation ("Expected: 3"): an actual value may follow
	values      int                      // lines left to look for a pair of values under a failed assertion
	value       *pendingLine             // the first of such a pair, until the second shows it is one
	valueCol    int                      // the column of its colon
	frames      bool                     // inside a stack trace printed after its message: indented lines are frames
	prevCause   bool                     // the line before this one is the message its stack trace belongs to
	pyCode      int                      // pytest's failure sections run to this line: their source excerpts are code
	output      *pendingLine             // the last line a failed test printed under its result line
	inOutput    bool                     // inside that output
	outputLines int                      // the lines of it seen
	cont        bool                     // the line before is a candidate: this one may continue it ("{1001348003}>:" under a wrapped heading)
	contDepth   int                      // that candidate's indent: a continuation is indented deeper
	lastCand    int                      // the number of the last line that was a candidate of tier term or above
	diffSign    byte                     // under a diff's legend ("+++ actual", "(- actual, + expected)"): the sign of the actual lines
	diffLines   int                      // lines left to look for the first of them
	block       int                      // lines left in the block under a framed banner (framed)
}

// hold keeps a log line of the running test until its end says whether
// it failed.
func (s *lineState) hold(line int, text []byte) {
	if s.pending == nil {
		s.pending = make(map[string][]pendingLine)
	}
	p, ok := s.pending[string(s.test)]
	if !ok && len(s.pending) == maxPendingTests || len(p) == maxPending {
		return
	}
	s.pending[string(s.test)] = append(p, pendingLine{line, string(text)})
}

// testName is the test named after a go test marker: "  TestX/sub (0.00s)"
// gives "TestX/sub".
func testName(t []byte) string { return string(testNameBytes(t)) }

// testNameBytes is testName without the copy: most markers only replace
// the test being followed, or name one that holds nothing.
func testNameBytes(t []byte) []byte {
	for len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	if i := bytes.IndexByte(t, ' '); i >= 0 {
		t = t[:i]
	}
	return t
}

// wantAll says the next line must be classified even without an anchor.
func (s *lineState) wantAll() bool {
	return s.traceback || s.next != "" || s.heading || s.detail > 0 || s.pair || s.frames || s.inOutput || s.values > 0 || s.cont || s.diffLines > 0 || s.block > 0
}

// continues says whether raw, the line after a candidate, is its wrapped
// continuation ending a heading: indented deeper than the candidate, and
// ending with ':'. Checked on the raw bytes before the line is read, so
// the lines after most candidates are left to the prefilter.
func (s *lineState) continues(raw []byte) bool {
	t := bytes.TrimRight(raw, " \t\r")
	if len(t) == 0 || t[len(t)-1] != ':' {
		return false
	}
	return len(t)-len(trimIndent(t)) > s.contDepth
}

// maxValueLook bounds how far below a failed assertion its values are
// looked for.
const maxValueLook = 3

// valuePair follows the lines under a failed assertion for two values
// whose labels line up ("  left: 5" over " right: 4", "expected: 1" over
// "actual  : 2"): the pair says what differed, whatever the labels are. It
// reports whether s is the second of such a pair, after adding the first.
func (sc *scanner) valuePair(s []byte, line int) bool {
	st := &sc.state
	if st.values == 0 {
		return false
	}
	st.values--
	col := labelColon(s)
	if col < 0 {
		st.values, st.value = 0, nil
		return false
	}
	if v := st.value; v != nil && col == st.valueCol {
		st.values, st.value = 0, nil
		sc.addText(tierTerm, kindDetail, v.line, []byte(v.text))
		return true
	}
	st.value, st.valueCol = &pendingLine{line: line, text: string(s)}, col
	return false
}

// labelColon is the column of the colon of a line shaped "label: value"
// (a short word, maybe padded with spaces, a colon, a value), or -1.
func labelColon(s []byte) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	start := i
	for i < len(s) && isLetter(s[i]) {
		i++
	}
	if i == start || i-start > 12 {
		return -1
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i+2 >= len(s) || s[i] != ':' || s[i+1] != ' ' {
		return -1
	}
	return i
}

// shapes are compiled on first use: rac run never explains, and its
// start-up must not pay for these.
type shapeRegexps struct {
	goFrame     *regexp.Regexp
	goFrameFile *regexp.Regexp
	klog        *regexp.Regexp
	makeRecipe  *regexp.Regexp
	cargoTest   *regexp.Regexp
	tapCount    *regexp.Regexp
	tapOK       *regexp.Regexp
	pytestBar   *regexp.Regexp
}

var shapes = sync.OnceValue(func() *shapeRegexps {
	return &shapeRegexps{
		// goFrame matches a function line of a Go stack trace, "panic({0x1?})"
		// or "main.main()": context, whatever words the names hold.
		goFrame: regexp.MustCompile(`^(?:created by )?[\w./*()\[\]-]+\([^()]*\)(?: in goroutine \d+)?$`),
		// goFrameFile matches the file line under it, "/src/x.go:12 +0x1d".
		goFrameFile: regexp.MustCompile(`^\S+\.go:\d+(?: \+0x[0-9a-f]+)?$`),
		// klog matches Kubernetes' log prefix "E1130 05:54:29.625498 5910 x.go:265]".
		klog: regexp.MustCompile(`^([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ \S+:\d+\] `),
		// makeRecipe matches make's "*** [target] Error 1" (and its other ends).
		makeRecipe: regexp.MustCompile(`\*\*\* \[[^\]]*\] `),
		// cargoTest matches "test tests::name ... ok" and its other outcomes.
		cargoTest: regexp.MustCompile(`^test \S+ \.\.\. (ok|ignored|FAILED)\b`),
		// tapCount matches TAP's closing count of failures "# fail 1" (node --test).
		tapCount: regexp.MustCompile(`^# (?:fail|cancelled) [1-9]\d*$`),
		// tapOK matches TAP's passing test line "ok 2 - handles error input".
		tapOK: regexp.MustCompile(`^ok \d+ `),
		// pytestBar matches pytest's "==== 1 failed, 2 passed in 0.1s ====".
		pytestBar: regexp.MustCompile(`^=+ .* =+$`),
	}
})

// classify decides whether a cleaned line is a candidate and how strong
// (tierNone if not), and advances the stream's state. The log lines of a go
// test that has not ended yet are held in the state, and added when the
// test's "--- FAIL" arrives.
func (sc *scanner) classify(s []byte, line int) (int, string) {
	t := trimIndent(s)
	if len(t) == 0 {
		return tierNone, ""
	}
	indent := len(s) - len(t)
	if tier, kind, ok := sc.carried(s, t, indent, line); ok {
		return tier, kind
	}
	if tier, kind, ok := sc.goTestLine(t, indent); ok {
		return tier, kind
	}

	// Every regexp below is behind a literal test: most lines that reach
	// classify are false hits of the prefilter and must leave cheaply.
	file, nums, rest, isLoc := parseLoc(t)
	if isLoc && nums <= 2 && bytes.HasSuffix(file, []byte(".go")) && len(rest) > 0 && rest[0] == ' ' {
		rest = bytes.TrimLeft(rest, " ")
		if tier, kind, ok := sc.goLocLine(s, t, rest, indent, nums == 2, line); ok {
			return tier, kind
		}
	}

	if tier, kind, ok := klogLine(t); ok {
		return tier, kind
	}
	if tier, kind, ok := toolShape(t, indent, &sc.state); ok {
		return tier, kind
	}

	if isLoc {
		if tier, kind, ok := diagnostic(t, rest); ok {
			return tier, kind
		}
	}
	if isToolError(t) {
		if hasPrefix(t, "collect2: ") {
			return tierSummary, kindSummary // "ld returned 1 exit status": the undefined reference above it is the cause
		}
		return tierCause, kindTool
	}
	if isElixirException(t) {
		return tierCause, kindException
	}
	if tier, kind, ok := sc.valueShape(t, indent, line); ok {
		return tier, kind
	}
	if name, ok := exceptionPrefix(t); ok && (indent == 0 || !bytes.HasSuffix(name, []byte("Warning"))) {
		// Test runners indent the error of a failed test under its name.
		if bytes.HasSuffix(name, []byte("Warning")) {
			return contextIfTerm(t)
		}
		return tierCause, kindException
	}
	switch logLevel(t) {
	case levelError:
		return tierCause, kindLog
	case levelOther:
		return contextIfTerm(t)
	}
	if hasTerm(t) {
		return tierTerm, kindTerm
	}
	return expectation(t)
}

// expectation judges a line that sets what was expected against what
// came ("expected:<8080> but was:<8008>"): what a failed check says, with
// no error word; the prefilter admits it by its "expected:".
func expectation(t []byte) (int, string) {
	if bytes.Contains(t, []byte("xpected:")) && hasPair(t) {
		return tierTerm, kindDetail
	}
	return tierNone, ""
}

// carried judges a line by what earlier lines of the stream began: a
// traceback's frames, a value pair, a message announced by the line
// before, a stack trace's frames, a pytest failure section, the second
// half of an expectation. ok is false when they leave the line to the
// rules after.
func (sc *scanner) carried(s, t []byte, indent, line int) (tier int, kind string, ok bool) {
	st := &sc.state
	if st.traceback {
		if indent > 0 {
			return tierNone, "", true // a frame or its source line
		}
		st.traceback = false
		if isExceptionName(t) {
			return tierCause, kindException, true
		}
		// Not shaped like an exception: the traceback was cut short;
		// judge the line on its own.
	}
	if sc.valuePair(s, line) {
		return tierTerm, kindDetail, true
	}
	if st.next != "" {
		kind := st.next
		st.next = ""
		return tierCause, kind, true
	}
	if st.frames {
		if indent > 0 {
			return tierNone, "", true // a frame of the stack trace
		}
		st.frames = false
	}
	if line < st.pyCode {
		// Inside a pytest failure section only its "E" lines speak; the
		// source it quotes and its locals are code, whatever words they hold.
		switch {
		case indent == 0 && t[0] == '=' && shapes().pytestBar.Match(t):
			st.pyCode = 0
		case indent == 0 && hasPrefix(t, "E "), isPytestSection(t):
		default:
			return tierNone, "", true
		}
	}
	if isPytestSection(t) {
		st.pyCode = line + maxPytestSection
	}
	if st.pair {
		st.pair = false
		if hasPrefixFold(t, "received:") || hasPrefixFold(t, "got:") || hasPrefixFold(t, "actual:") {
			return tierCause, kindDetail, true
		}
	}
	return tierNone, "", false
}

// goTestLine judges go test's markers ("=== RUN", "--- FAIL:", the
// package's "ok" or "FAIL") and the lines of passing tests. A failed
// test's held log lines are added when its "--- FAIL" arrives.
func (sc *scanner) goTestLine(t []byte, indent int) (tier int, kind string, ok bool) {
	st := &sc.state
	switch {
	case goMarker(t) > 0:
		st.goTest, st.test = goRun, append(st.test[:0], testNameBytes(t[goMarker(t):])...)
		return tierNone, "", true
	case hasPrefix(t, "--- PASS:") || hasPrefix(t, "--- SKIP:"):
		st.goTest = goPass
		if len(st.pending) > 0 {
			delete(st.pending, testName(t[len("--- PASS:"):]))
		}
		return tierNone, "", true
	case hasPrefix(t, "--- FAIL:"):
		// The test's own messages are more telling than this header:
		// -v output printed them before it, maybe far before.
		name := testName(t[len("--- FAIL:"):])
		for _, p := range st.pending[name] {
			sc.addText(testMessageTier([]byte(p.text)), kindTest, p.line, []byte(p.text))
		}
		delete(st.pending, name)
		st.goTest = goFail
		return tierSummary, kindSummary, true
	case indent == 0 && (string(t) == "PASS" || hasPrefix(t, "ok  ") || hasPrefix(t, "?   ")):
		st.goTest = goNone
		return tierNone, "", true
	case indent == 0 && (string(t) == "FAIL" || hasPrefix(t, "FAIL\t") || hasPrefix(t, "FAIL ")):
		st.goTest = goNone
		return tierSummary, kindSummary, true
	}
	return tierNone, "", false
}

// goLocLine judges a line that starts with a Go file's location (rest is
// what follows it): a test's log line (t.Errorf, t.Fatal, t.Log:
// indented, no column), held while its test runs, or the compiler's
// diagnostic (not indented).
func (sc *scanner) goLocLine(s, t, rest []byte, indent int, hasCol bool, line int) (tier int, kind string, ok bool) {
	if indent > 0 && !hasCol {
		switch sc.state.goTest {
		case goFail:
			return testMessageTier(rest), kindTest, true
		case goRun:
			sc.state.hold(line, s[indent:])
		}
		return tierNone, "", true
	}
	if indent == 0 {
		switch {
		case severity(rest) == tierContext:
			tier, kind = contextIfTerm(t)
			return tier, kind, true
		case string(rest) == "too many errors":
			return tierSummary, kindSummary, true
		}
		return tierCause, kindCompiler, true
	}
	return tierNone, "", false
}

// klogLine judges a line in klog's format ("E0102 15:04:05.000000 1
// file.go:12] msg"): its letter is its level.
func klogLine(t []byte) (tier int, kind string, ok bool) {
	if len(t) <= 5 || strings.IndexByte("IWEF", t[0]) < 0 || !isDigit(t[1]) {
		return tierNone, "", false
	}
	m := shapes().klog.FindSubmatch(t)
	if m == nil {
		return tierNone, "", false
	}
	if m[1][0] == 'E' || m[1][0] == 'F' {
		return tierCause, kindLog, true
	}
	tier, kind = contextIfTerm(t)
	return tier, kind, true
}

// diagnostic judges a line that starts with a location by what follows
// it (rest): a linter's code or a compiler's severity word.
func diagnostic(t, rest []byte) (tier int, kind string, ok bool) {
	if code := lintCode(rest); code != 0 {
		// A linter's coded line ("E0602: Undefined variable"): the
		// letter is its severity, whatever words the message holds.
		if code == 'E' || code == 'F' {
			return tierCause, kindCompiler, true
		}
		tier, kind = contextIfTerm(t)
		return tier, kind, true
	}
	switch diagSeverity(rest) {
	case tierCause:
		return tierCause, kindCompiler, true
	case tierContext:
		tier, kind = contextIfTerm(t)
		return tier, kind, true
	}
	return tierNone, "", false
}

// toolShape recognises the literal shapes of the tools rac wraps.
//
//nolint:funlen // one ordered table of the tools' shapes: its order is their precedence, read in one place
func toolShape(t []byte, indent int, st *lineState) (int, string, bool) {
	if g := max(boxGutter(t), markPrefix(t)); g > 0 {
		// inside an exception group's box ("  | ValueError: ..."), or
		// behind a tool's mark ("[!] RollupError: ...")
		if name, ok := exceptionPrefix(t[g:]); ok && !bytes.HasSuffix(name, []byte("Warning")) {
			return tierCause, kindException, true
		}
	}
	// Most lines hold no '*': make's and ctest's shapes below need one.
	star := bytes.IndexByte(t, '*') >= 0
	switch {
	// Lines that say a test passed, stack frames, empty npm error lines.
	case hasPrefix(t, "ok ") && shapes().tapOK.Match(t), hasPrefix(t, "# Subtest: "):
		return tierNone, "", true
	case t[len(t)-1] == ')' && mayBeGoFrame(t) && shapes().goFrame.Match(t), indent > 0 && bytes.Contains(t, []byte(".go:")) && shapes().goFrameFile.Match(t):
		return tierNone, "", true
	case string(t) == "npm error" || string(t) == "npm ERR!":
		return tierNone, "", true

	// A report's banner ("WARNING: DATA RACE"): a heading in capitals
	// that names a failure, whatever level word it starts with.
	case isBanner(t) && hasTerm(t):
		return tierCause, kindReport, true
	// A summary of a report ("ERROR SUMMARY: 1 errors") comes after what
	// it counts.
	case hasWordFold(t, "summary") && hasTerm(t):
		return tierSummary, kindSummary, true

	// Summaries and consequences: several start like causes.
	case hasPrefix(t, "error: could not compile"), hasPrefix(t, "error: aborting due to"),
		hasPrefix(t, "error: test failed"), hasPrefix(t, "error: process didn't exit successfully"),
		hasPrefix(t, "error: Recipe `"),
		hasPrefix(t, "test result: FAILED"), string(t) == "failures:",
		hasPrefix(t, "npm ERR!"), hasPrefix(t, "npm error"),
		hasPrefix(t, "During handling of the above exception"),
		hasPrefix(t, "FAILED "), string(t) == "FAILED",
		exitLine(t), isCountLine(t):
		return tierSummary, kindSummary, true
	case hasPrefix(t, "Traceback (most recent call last)"):
		st.traceback = true
		return tierSummary, kindSummary, true
	case hasPrefix(t, "test ") && shapes().cargoTest.Match(t):
		if bytes.HasSuffix(t, []byte("FAILED")) {
			return tierSummary, kindSummary, true
		}
		return tierNone, "", true
	case indent == 0 && t[0] == '=' && shapes().pytestBar.Match(t):
		if hasTerm(t) {
			return tierSummary, kindSummary, true
		}
		return tierNone, "", true
	case star && bytes.Contains(t, []byte("***")) &&
		(hasPrefix(t, "make") || hasPrefix(t, "gmake") || bytes.Contains(t, []byte(": ***"))):
		switch {
		case shapes().makeRecipe.Match(t):
			return tierSummary, kindSummary, true
		case bytes.Contains(t, []byte("*** Waiting for unfinished jobs")):
			return tierNone, "", true
		}
		return tierCause, kindMake, true

	// Context: hints, notes, warnings and source frames.
	case hasPrefixFold(t, "hint:"), hasPrefixFold(t, "note:"), hasPrefixFold(t, "help:"),
		hasPrefixFold(t, "warning:"), hasPrefixFold(t, "warn:"), hasPrefix(t, "= note:"), hasPrefix(t, "= help:"),
		hasPrefix(t, "npm warn"), hasPrefix(t, "npm WARN"), hasPrefix(t, "For more information about this error"):
		tier, kind := contextIfTerm(t)
		return tier, kind, true
	case isCodeFrame(t):
		return tierNone, "", true

	// A stack trace printed after its message (Lua's "stack traceback:"):
	// the line before it is the message, its frames are context.
	case hasPrefixFold(t, "stack traceback:"):
		st.frames, st.prevCause = true, true
		return tierSummary, kindSummary, true
	// A test runner's failure heading ("● suite › test") and the
	// expectation under a failed assertion ("Expected: 3", "expected: 31").
	case indent <= 4 && hasPrefix(t, "● "):
		return tierCause, kindTest, true
	case hasPrefixFold(t, "expected:") && len(t) > len("expected:"):
		st.pair = true
		return tierCause, kindDetail, true
	// The output of a failed test, under its result line (ctest's
	// "***Failed"): the last line it printed is most often its reason.
	case star && (bytes.Contains(t, []byte("***Failed")) || bytes.Contains(t, []byte("***Exception"))):
		st.inOutput, st.output, st.outputLines = true, nil, 0
		return tierSummary, kindSummary, true

	// Causes.
	case hasPrefix(t, "panic: "), hasPrefix(t, "fatal error: "):
		return tierCause, kindPanic, true
	case hasPrefix(t, "thread '") && bytes.Contains(t, []byte(" panicked at ")):
		// Rust 1.73+ prints the message on the next line.
		if bytes.HasSuffix(t, []byte(":")) {
			st.next = kindPanic
		}
		return tierCause, kindPanic, true
	case string(t) == "error: |-" || string(t) == "error: >-":
		// A TAP YAML block (node --test): the message is on the next line.
		st.next = kindTest
		return tierNone, "", true
	case hasPrefix(t, "not ok ") || hasPrefix(t, "# ") && shapes().tapCount.Match(t):
		return tierSummary, kindSummary, true
	case indent == 0 && hasPrefix(t, "E ") && len(t) >= 4 && string(t[1:4]) == "   ":
		return tierCause, kindTest, true
	case hasPrefix(t, "error[E"), hasPrefix(t, "error: "), hasPrefix(t, "fatal: "),
		hasPrefix(t, "Error from server"), hasPrefix(t, "ERROR: "), hasPrefix(t, "FATAL: "):
		return tierCause, kindTool, true
	case isStatusTag(t):
		return tierCause, kindGit, true
	case hasPrefix(t, "CONFLICT ("):
		return tierCause, kindGit, true
	case hasPrefix(t, "Exception in thread "), hasPrefix(t, "Caused by: "):
		return tierCause, kindException, true
	}
	return 0, "", false
}

// mayBeGoFrame says whether a line that ends in ')' can be a function line
// of a Go stack trace, as goFrame needs: the text before its last '(' is
// a name, which holds no space (unless the line starts "created by ").
// It keeps the regexp off the calls and parentheses of ordinary lines.
func mayBeGoFrame(t []byte) bool {
	i := bytes.LastIndexByte(t, '(')
	return i > 0 && (hasPrefix(t, "created by ") || bytes.IndexByte(t[:i], ' ') < 0)
}

// goMarker is the length of a go test -v marker ("=== RUN", "=== CONT",
// "=== PAUSE", "=== NAME": three '=', a word in capitals, the test's
// name), or 0 when t is not one. pytest's bars ("=== 1 failed in 0.1s
// ===") hold no such word.
func goMarker(t []byte) int {
	if !hasPrefix(t, "=== ") {
		return 0
	}
	i := 4
	for i < len(t) && 'A' <= t[i] && t[i] <= 'Z' {
		i++
	}
	if i-4 < 3 || i < len(t) && t[i] != ' ' || bytes.HasSuffix(t, []byte(" ===")) {
		return 0
	}
	return i
}

// isStatusTag recognises a status printed as a tag at the start of a line,
// after at most a mark: " ! [rejected]  main -> main", "[FAILED] x",
// "* [remote rejected] x". An error term inside the brackets is the
// outcome of the item the line names.
func isStatusTag(t []byte) bool {
	for len(t) > 0 && isMark(t[0]) {
		t = t[1:]
	}
	if len(t) < 3 || t[0] != '[' {
		return false
	}
	end := bytes.IndexByte(t, ']')
	return end > 1 && hasTerm(t[1:end])
}

// isMark reports the marks isStatusTag allows before a tag.
func isMark(c byte) bool {
	switch c {
	case '!', '*', '+', '-', 'x', ' ':
		return true
	}
	return false
}

// isCountLine recognises "3 errors", "2 errors generated.", "1 warning".
func isCountLine(t []byte) bool {
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 || i == len(t) || t[i] != ' ' || i == 1 && t[0] == '0' {
		return false
	}
	r := t[i+1:]
	for _, w := range []string{"errors", "error", "warnings", "warning"} {
		if hasPrefix(r, w) {
			return len(r) == len(w) || !isIdent(r[len(w)])
		}
	}
	return false
}

// maxPytestSection bounds the lines a pytest failure section is taken to
// run, should its closing bar never come.
const maxPytestSection = 1000

// isPytestSection recognises the rule that opens a pytest failure section,
// "____ test_name ____", or divides its frames, "_ _ _ _".
func isPytestSection(t []byte) bool {
	if hasPrefix(t, "_ _ _ _") {
		return true
	}
	return hasPrefix(t, "___") && bytes.HasSuffix(t, []byte("___")) && bytes.IndexByte(t, ' ') > 0 &&
		len(bytes.Trim(t, "_ ")) > 0
}

// lintCode reads a linter's message code after a position, a capital
// letter and four digits before a colon ("C0103: ...", "E0602: ..."), and
// returns its letter, or 0 when there is none.
func lintCode(rest []byte) byte {
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) < 6 || rest[0] < 'A' || rest[0] > 'Z' || rest[5] != ':' {
		return 0
	}
	for _, c := range rest[1:5] {
		if !isDigit(c) {
			return 0
		}
	}
	return rest[0]
}

// exitLine recognises a line that reports an exit status or a count of
// errors: a consequence ("exit status 2", "too many errors").
func exitLine(t []byte) bool {
	if i := bytes.Index(t, []byte("exit ")); i >= 0 {
		r := t[i+5:]
		return hasPrefix(r, "status ") || hasPrefix(r, "code ")
	}
	return bytes.Contains(t, []byte("too many errors"))
}

// testMessageTier ranks a failing test's log line: one that reads like a
// failed expectation is the cause; a plain t.Log line is context for it.
func testMessageTier(t []byte) int {
	if hasTerm(t) || bytes.Contains(t, []byte("!=")) {
		return tierCause
	}
	for _, w := range []string{"want", "got", "expect", "should", "mismatch", "unexpected", "differ"} {
		if containsFold(t, w) {
			return tierCause
		}
	}
	return tierTerm
}

// parseLoc splits a position prefix "file:12:3:" off t: the file, how many
// numbers follow it, and the rest after the last colon.
func parseLoc(t []byte) (file []byte, nums int, rest []byte, ok bool) {
	i := 0
	for i < len(t) && t[i] != ' ' && t[i] != '\t' && t[i] != ':' {
		i++
	}
	if i == 0 {
		return nil, 0, nil, false
	}
	file = t[:i]
	for i+1 < len(t) && t[i] == ':' && isDigit(t[i+1]) {
		i++
		for i < len(t) && isDigit(t[i]) {
			i++
		}
		nums++
	}
	if nums == 0 || i >= len(t) || t[i] != ':' {
		return nil, 0, nil, false
	}
	return file, nums, t[i+1:], true
}

// diagSeverity reads the severity word of a compiler diagnostic after its
// position: tierCause for errors, tierContext for warnings and notes,
// tierNone when there is none.
func diagSeverity(rest []byte) int {
	rest = bytes.TrimLeft(rest, " \t")
	for _, w := range []struct {
		word string
		tier int
	}{{"fatal error", tierCause}, {"error", tierCause}, {"warning", tierContext}, {"note", tierContext}, {"remark", tierContext}} {
		if hasPrefixFold(rest, w.word) && (len(rest) == len(w.word) || !isIdent(rest[len(w.word)])) {
			return w.tier
		}
	}
	return tierNone
}

// isToolError recognises "tool: error: ..." and "tool[12]: fatal: ...".
func isToolError(t []byte) bool {
	// The tool's name runs to the first ": ": read the name's bytes, not
	// the line (':' is none of them).
	i := 0
	for i < len(t) && isToolNameByte(t[i]) {
		i++
	}
	if i == 0 || !hasPrefix(t[i:], ": ") {
		return false
	}
	rest := t[i+2:]
	for _, p := range []string{"error:", "fatal:", "Error:", "ERROR:"} {
		if hasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// isToolNameByte reports a byte of a tool's name as isToolError reads
// it: "cc1plus", "ld.lld", "x86_64-linux-gnu-g++", "git[12]", "./run".
func isToolNameByte(c byte) bool {
	switch c {
	case '.', '+', '/', '-', '[', ']':
		return true
	}
	return isIdent(c)
}

// severity reads the word after a compiler position: tierContext for
// warnings and notes, tierCause otherwise (go prints errors without a
// severity word).
func severity(rest []byte) int {
	for _, w := range []string{"warning", "note", "remark", "help"} {
		if hasPrefixFold(rest, w) {
			return tierContext
		}
	}
	return tierCause
}

func contextIfTerm(t []byte) (int, string) {
	if hasTerm(t) {
		return tierContext, kindContext
	}
	return tierNone, ""
}

// isCodeFrame reports a source excerpt as compilers print it under a
// diagnostic ("  |", "3 |     code"): context, and often quoting words
// like "error" from the code itself.
func isCodeFrame(t []byte) bool {
	i := 0
	for i < len(t) && '0' <= t[i] && t[i] <= '9' {
		i++
	}
	for i < len(t) && t[i] == ' ' {
		i++
	}
	return i < len(t) && t[i] == '|' && (i+1 == len(t) || t[i+1] == ' ')
}

// isExceptionName reports whether t starts the way the last line of a
// Python traceback does: a dotted name alone or followed by ':'.
func isExceptionName(t []byte) bool {
	if !isIdentStart(t[0]) {
		return false
	}
	for i := 1; i < len(t); i++ {
		c := t[i]
		switch {
		case c == ':':
			return true
		case isIdent(c) || c == '.':
		default:
			return false
		}
	}
	return true
}

// exceptionPrefix recognises an uncaught error printed by Python, Node or
// the JVM at column 0: "ValueError: ...", "TypeError [ERR_X]: ...",
// "java.io.IOException: ...", "Uncaught Error: ...".
func exceptionPrefix(t []byte) ([]byte, bool) {
	t = bytes.TrimPrefix(t, []byte("Uncaught "))
	i := 0
	for i < len(t) && (isIdent(t[i]) || t[i] == '.' || t[i] == '$') {
		i++
	}
	name := t[:i]
	if i == 0 || !(bytes.HasSuffix(name, []byte("Error")) || bytes.HasSuffix(name, []byte("Exception")) ||
		bytes.HasSuffix(name, []byte("Warning"))) {
		return nil, false
	}
	rest := t[i:]
	if len(rest) > 2 && rest[0] == ' ' && rest[1] == '[' { // node: "TypeError [ERR_INVALID_ARG_TYPE]: ..."
		if j := bytes.IndexByte(rest, ']'); j > 0 {
			rest = rest[j+1:]
		}
	}
	if len(rest) == 0 || rest[0] == ':' {
		return name, true
	}
	return nil, false
}

// Log levels.
const (
	levelNone = iota
	levelError
	levelOther // WARN, INFO, DEBUG, ...: a term in such a line is context
)

// logLevel finds a level among the first words of a log line: a bare
// upper-case ERROR/FATAL/..., or any case after "level=", inside [] or <>.
func logLevel(t []byte) int {
	if len(t) > 80 {
		t = t[:80]
	}
	words := 0
	for i := 0; i < len(t) && words < 6; {
		if !isIdent(t[i]) {
			i++
			continue
		}
		j := i
		digits := true
		for j < len(t) && isIdent(t[j]) {
			digits = digits && isDigit(t[j])
			j++
		}
		if digits { // timestamps and pids do not count as words
			i = j
			continue
		}
		words++
		if w := t[i:j]; len(w) >= 3 && len(w) <= 8 && levelMarked(t, i, w) {
			if level := levelOf(w); level != levelNone && (string(w) != "ERR" || j == len(t) || t[j] != '!') { // npm ERR!, handled before
				return level
			}
		}
		i = j
	}
	return levelNone
}

// levelMarked reports whether the word w at t[i:] stands where a level
// does: in upper case, inside [] or <>, or after "level=" (or lvl,
// severity, quoted or not).
func levelMarked(t []byte, i int, w []byte) bool {
	upper := true
	for _, c := range w {
		if 'a' <= c && c <= 'z' {
			upper = false
			break
		}
	}
	if upper || i == 0 {
		return upper
	}
	switch t[i-1] {
	case '[', '<':
		return true
	case '=', '"':
		k := t[:i]
		for len(k) > 0 && (k[len(k)-1] == '"' || k[len(k)-1] == ':' || k[len(k)-1] == '=') {
			k = k[:len(k)-1]
		}
		return bytes.HasSuffix(k, []byte("level")) || bytes.HasSuffix(k, []byte("lvl")) ||
			bytes.HasSuffix(k, []byte("severity"))
	}
	return false
}

// levelOf is the level a word of 3 to 8 letters names, in any case.
func levelOf(w []byte) int {
	var buf [8]byte
	for k, c := range w {
		buf[k] = lower[c]
	}
	switch string(buf[:len(w)]) {
	case "error", "err", "fatal", "critical", "crit", "panic", "severe", "emerg", "alert":
		return levelError
	case "warn", "warning", "info", "notice", "debug", "trace", "fine":
		return levelOther
	}
	return levelNone
}

// Words that matter before a term: the first half of a two-word term, or
// a word that turns a term into a statement that all went well.
const (
	prevOther = iota
	prevNot
	prevTimed
	prevNo
	prevCould
	prevCan
	prevSegmentation
	prevUndefined
	prevNegation // "zero"
	prevData
)

// hasTerm reports whether t holds an error term as a word of its own:
// "TestErrorHandling" and "error_pages" hold none, "0 failed" and
// "errors: 0" do not count.
func hasTerm(t []byte) bool { return termIndex(t) >= 0 }

// termIndex is the offset of the first error term in t, or -1.
//
//nolint:funlen // a state machine over words: the term table and the word before it (prev) read best in one switch, on every candidate line
func termIndex(t []byte) int {
	prev := prevOther
	var buf [20]byte // a word in lower case; only its first n bytes are read
	for i := 0; i < len(t); {
		if !isLetter(t[i]) {
			i++
			continue
		}
		start := i
		for i < len(t) && (isLetter(t[i]) || t[i] == '\'' && i+1 < len(t) && isLetter(t[i+1])) {
			i++
		}
		// A word glued to digits or '_' is part of an identifier; one inside
		// a path or file name ("/api/errors", "panic.go") names a thing.
		glued := start > 0 && (isDigit(t[start-1]) || t[start-1] == '_' || t[start-1] == '/' || t[start-1] == '\\' || t[start-1] == '.') ||
			i < len(t) && (isDigit(t[i]) || t[i] == '_' || t[i] == '/' || t[i] == '\\' || t[i] == '.' && i+1 < len(t) && isLetter(t[i+1])) ||
			start >= 4 && hasPrefixFold(t[start-4:], "non-")
		n := i - start
		if glued || n < 2 || n > len(buf) { // no word that matters here is a single letter
			prev = prevOther
			continue
		}
		for k := 0; k < n; k++ {
			buf[k] = lower[t[start+k]]
		}
		term, next := false, prevOther
		w := buf[:n]
		switch string(w) {
		case "errored", "failed", "failing", "panicked", "denied", "cannot", "can't", "couldn't", "unable",
			"refused", "rejected", "aborted", "aborting", "crashloopbackoff", "imagepullbackoff", "errimagepull",
			"invalid", "unhandled", "uncaught":
			term = true
		case "race":
			term = prev == prevData
		case "data":
			next = prevData
		case "found":
			term = prev == prevNot
		case "out":
			term = prev == prevTimed
		case "such":
			term, prev = prev == prevNo, prevOther // "no such" is the term, not a negation
		case "not":
			term = prev == prevCould || prev == prevCan
			next = prevNot
		case "fault":
			term = prev == prevSegmentation
		case "reference":
			term = prev == prevUndefined
		case "timed":
			next = prevTimed
		case "no":
			next = prevNo
		case "could":
			next = prevCould
		case "can":
			next = prevCan
		case "segmentation":
			next = prevSegmentation
		case "undefined":
			term, next = true, prevUndefined
		case "zero":
			next = prevNegation
		default:
			// A term, its plural or its third person ("errors", "fails").
			term = isTermWord(w) || n > 3 && w[n-1] == 's' && isTermWord(w[:n-1])
		}
		if term && !zeroCount(t, start, i, prev) && !inPath(t, start) {
			return start
		}
		prev = next
	}
	return -1
}

// isTermWord reports a term that takes an -s ("error", "fail").
func isTermWord(w []byte) bool {
	switch string(w) {
	case "error", "fatal", "fail", "failure", "panic", "exception", "traceback", "timeout", "conflict",
		"reject", "abort":
		return true
	}
	return false
}

// inPath reports a word that is part of a path ("/tmp/ci/failing-tests/x"):
// a name, not a statement.
func inPath(t []byte, start int) bool {
	for k := start - 1; k >= 0; k-- {
		switch t[k] {
		case '/':
			return true
		case ' ', '\t', '"', '\'', '(', '=':
			return false
		}
	}
	return false
}

// isBanner reports a heading in capitals: at least two words of letters,
// and no lower-case letter.
func isBanner(t []byte) bool {
	words, in := 0, false
	for _, c := range t {
		switch {
		case 'a' <= c && c <= 'z':
			return false
		case 'A' <= c && c <= 'Z':
			if !in {
				words++
			}
			in = true
		default:
			in = false
		}
	}
	return words >= 2
}

// hasWordFold reports whether t holds the lower-case word w, in any case,
// as a word of its own.
func hasWordFold(t []byte, w string) bool {
	for i := 0; i+len(w) <= len(t); i++ {
		j := indexFold(t[i:len(t)-len(w)+1], w)
		if j < 0 {
			return false
		}
		i += j
		if hasPrefixFold(t[i:], w) &&
			(i == 0 || !isLetter(t[i-1])) && (i+len(w) == len(t) || !isLetter(t[i+len(w)])) {
			return true
		}
	}
	return false
}

// indexFold is the offset of the first byte of t that folds to w[0], and
// the byte after it to w[1] when t has one, or -1; w is lower case. For a
// word that starts with two letters it compares eight places at a time,
// and stops only where the pair is: classify looks for words through most
// of every candidate line, and their first letters alone are common.
func indexFold(t []byte, w string) int {
	i := 0
	if len(w) >= 2 && isLower(w[0]) && isLower(w[1]) {
		if i = indexFoldPair(t, w[0], w[1]); i >= 0 || len(t) == 0 {
			return i
		}
		i = len(t) - 1 // the pairs are all read: only the last byte is left
	}
	for ; i < len(t); i++ {
		if lower[t[i]] == w[0] && (i+1 == len(t) || len(w) < 2 || lower[t[i+1]] == w[1]) {
			return i
		}
	}
	return -1
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// indexFoldPair is the first i where t[i] and t[i+1] fold to the
// lower-case letters c0 and c1, or -1. A letter folds to c when it equals
// c once its case bit is set, so a round reads two words of eight bytes
// (at i and i+1), sets the case bits, and xors them with c0 and c1
// repeated: a place matches where both are zero, and the lowest byte the
// zero test flags is the first such place (a borrow flags only bytes
// above a zero).
func indexFoldPair(t []byte, c0, c1 byte) int {
	const ones, highs, caseBits = 0x0101010101010101, 0x8080808080808080, 0x2020202020202020
	p0, p1 := uint64(c0)*ones, uint64(c1)*ones
	i := 0
	for ; i+9 <= len(t); i += 8 {
		w := t[i : i+9 : i+9]
		v := ((binary.LittleEndian.Uint64(w) | caseBits) ^ p0) | ((binary.LittleEndian.Uint64(w[1:]) | caseBits) ^ p1)
		if z := (v - ones) &^ v & highs; z != 0 {
			return i + bits.TrailingZeros64(z)/8
		}
	}
	for ; i+1 < len(t); i++ {
		if t[i]|0x20 == c0 && t[i+1]|0x20 == c1 {
			return i
		}
	}
	return -1
}

// reportPrefix is the length of a memory checker's line prefix "==123== "
// (and "==123==" alone): the report's lines are judged without it.
func reportPrefix(t []byte) int {
	if len(t) < 5 || t[0] != '=' || t[1] != '=' || !isDigit(t[2]) {
		return 0
	}
	i := 2
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i+2 > len(t) || t[i] != '=' || t[i+1] != '=' {
		return 0
	}
	i += 2
	if i < len(t) && t[i] == ' ' {
		i++
	}
	return i
}

// zeroCount reports a term used to say that nothing went wrong: "0 errors",
// "no errors", "without errors", "failures: 0", "failed=0".
func zeroCount(t []byte, start, end, prev int) bool {
	if prev == prevNo || prev == prevNegation {
		return true
	}
	if start >= 2 && t[start-1] == ' ' && t[start-2] == '0' && (start == 2 || !isDigit(t[start-3])) {
		return true
	}
	// A key and its value: "failures: 0", "errors=0", "panicked=false".
	i, sep := end, false
	for i < len(t) && (t[i] == ':' || t[i] == '=' || t[i] == ' ' || t[i] == '"') {
		sep = sep || t[i] == ':' || t[i] == '='
		i++
	}
	if i == end || i == len(t) {
		return false
	}
	if t[i] == '0' && (i+1 == len(t) || sep && !isWord(t[i+1]) && t[i+1] != '.') {
		return true // a zero at the end of the line needs no separator: "# fail 0"
	}
	if !sep {
		return false
	}
	for _, v := range []string{"false", "none", "nil"} {
		if hasPrefixFold(t[i:], v) && (i+len(v) == len(t) || !isIdent(t[i+len(v)])) {
			return true
		}
	}
	return false
}

// hasPrefix compares the first byte before the rest: classify tries
// dozens of prefixes on every line, and most differ there.
func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && (len(p) == 0 || b[0] == p[0]) && string(b[:len(p)]) == p
}

func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lower[b[i]] != lower[p[i]] {
			return false
		}
	}
	return true
}

// containsFold reports whether t contains the lower-case word w in any case.
func containsFold(t []byte, w string) bool {
	for i := 0; i+len(w) <= len(t); i++ {
		if lower[t[i]] == w[0] && hasPrefixFold(t[i:], w) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool     { return class[c]&clsLetter != 0 }
func isDigit(c byte) bool      { return class[c]&clsDigit != 0 }
func isWord(c byte) bool       { return class[c]&(clsLetter|clsDigit) != 0 }
func isIdent(c byte) bool      { return class[c]&(clsLetter|clsDigit|clsUnder) != 0 }
func isIdentStart(c byte) bool { return class[c]&(clsLetter|clsUnder) != 0 }

// Classes of bytes, looked up in one table rather than compared range by
// range: classify and the fold key ask them of most bytes of every
// candidate line.
const (
	clsLetter = 1 << iota // a-z, A-Z
	clsDigit              // 0-9
	clsUnder              // '_'
	clsHex                // a-f, A-F
	clsSpace              // ' ', '\t': between the tokens of a fold key
	clsSep                // '/', '\\': a path
	clsDot                // '.': maybe a file name
)

var class = func() (t [256]uint8) {
	for i := range t {
		c := byte(i)
		switch {
		case 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F':
			t[i] = clsLetter | clsHex
		case 'g' <= c && c <= 'z' || 'G' <= c && c <= 'Z':
			t[i] = clsLetter
		case '0' <= c && c <= '9':
			t[i] = clsDigit
		case c == '_':
			t[i] = clsUnder
		case c == ' ' || c == '\t':
			t[i] = clsSpace
		case c == '/' || c == '\\':
			t[i] = clsSep
		case c == '.':
			t[i] = clsDot
		}
	}
	return t
}()

// trimIndent is bytes.TrimLeft(b, " \t"), which builds its set of bytes
// anew on every call: it runs on every candidate line, more than once.
func trimIndent(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// boxGutter is the length of a box's left edge before a line's text
// ("| " under Python's "+ Exception Group Traceback"), 0 when there is
// none.
func boxGutter(t []byte) int {
	if len(t) < 3 || t[0] != '|' || t[1] != ' ' {
		return 0
	}
	return 1 + len(t[1:]) - len(trimIndent(t[1:]))
}

// isElixirException recognises Elixir's and Erlang's report of an
// exception: "** (ArgumentError) message".
func isElixirException(t []byte) bool {
	if !hasPrefix(t, "** (") {
		return false
	}
	j := bytes.IndexByte(t, ')')
	return j > 4 && 'A' <= t[4] && t[4] <= 'Z'
}

// actualLabels are the labels under which test runners of many
// ecosystems print the value a failed assertion got: the line a reader
// looks at first, though it holds no error word.
var actualLabels = []string{"got:", "actual:", "left:", "received:", "found:", "value:"}

// actualLabel recognises a failed assertion's actual value, "got: '80'"
// (also behind a TAP comment's "#"), or its label alone, "Got:", over the
// value: it opens with one of actualLabels, in any case.
func actualLabel(t []byte) bool {
	if len(t) > 0 && t[0] == '#' {
		t = trimIndent(t[1:])
	}
	if len(t) < 4 || len(t) > 200 {
		return false
	}
	for _, l := range actualLabels {
		w := len(l) - 1 // the label's word; its colon may be padded to line up with the label beside it ("actual  : 7")
		if len(t) < len(l) || !bytes.EqualFold(t[:w], []byte(l[:w])) {
			continue
		}
		i := w
		for i < len(t) && t[i] == ' ' {
			i++
		}
		if i < len(t) && t[i] == ':' && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t') {
			return true
		}
	}
	return false
}

// jsonEvent holds the fields of a JSON line that carry text: a test
// runner's event ("Output" of go test -json) or a structured logger's
// record ("msg", "message", "level", "error"). Field names match in any
// case.
type jsonEvent struct {
	Output   string
	Msg      string
	Message  string
	Error    string
	Err      string
	Reason   string
	Level    string
	Lvl      string
	Severity string
}

// jsonText decodes a JSON-lines record for ranking: ok when t is one JSON
// object, and then the text a person would read, the level first when
// the record has one ("ERROR replica lag exceeds the budget"), and empty
// when it has no text field. The report shows this text.
func jsonText(t []byte) ([]byte, bool) {
	t = bytes.TrimSpace(t)
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' || t[1] != '"' {
		return nil, false
	}
	var e jsonEvent
	if err := json.Unmarshal(t, &e); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, false
		}
	}
	text := strings.TrimRight(e.Output, "\n")
	if text == "" {
		text = cmp.Or(e.Msg, e.Message)
		if reason := cmp.Or(e.Error, e.Err, e.Reason); reason != "" {
			text = strings.TrimSpace(text + ": " + reason)
		}
		if level := cmp.Or(e.Level, e.Lvl, e.Severity); level != "" && text != "" {
			text = strings.ToUpper(level) + " " + text
		}
	}
	return []byte(text[:min(len(text), maxLine)]), true
}

// maxFieldLook bounds how far below a candidate a record's message field
// is looked for.
const maxFieldLook = 20

// messageField recognises a record's message field: msg, message or
// reason, quoted or not, then ':' ("msg: ...", "\"message\": \"...\"").
func messageField(t []byte) bool {
	if len(t) > 0 && t[0] == '"' {
		t = t[1:]
	}
	for _, f := range []string{"msg", "message", "reason"} {
		if hasPrefix(t, f) {
			r := t[len(f):]
			if len(r) > 0 && r[0] == '"' {
				r = r[1:]
			}
			return len(r) > 1 && r[0] == ':' && r[1] == ' '
		}
	}
	return false
}

// maxDiffLook bounds how far below a diff's legend its first actual line
// is looked for.
const maxDiffLook = 6

// diffLegend recognises the legend of a diff a test runner prints for a
// failed assertion, and returns the sign that marks the actual value:
// '+' under "+++ actual", '-' under "Difference (- actual, + expected):"
// or "- Received" style legends; 0 when t is no legend.
func diffLegend(t []byte) byte {
	switch {
	case hasPrefix(t, "+++ actual"), hasPrefix(t, "+++ received"):
		return '+'
	case hasPrefix(t, "--- actual"), hasPrefix(t, "--- received"):
		return '-'
	}
	if i := bytes.Index(t, []byte("- actual")); i >= 0 && i < 20 {
		return '-'
	}
	if i := bytes.Index(t, []byte("+ actual")); i >= 0 && i < 20 {
		return '+'
	}
	return 0
}

// valueShape judges the lines that say what a failed check got, whatever
// words they hold: the first actual line of a diff under its legend, an
// actual value's label, a record's message field under a heading; and
// Elixir's exception line. ok is false when it leaves the line to the
// rules after.
func (sc *scanner) valueShape(t []byte, indent, line int) (tier int, kind string, ok bool) {
	if isElixirException(t) {
		return tierCause, kindException, true
	}
	if st := &sc.state; st.diffLines > 0 {
		st.diffLines--
		if t[0] == st.diffSign && !hasPrefix(t, "+++") && !hasPrefix(t, "---") {
			st.diffLines = 0
			return tierCause, kindDetail, true // the actual value in a diff of a failed assertion
		}
	}
	if sign := diffLegend(t); sign != 0 {
		sc.state.diffSign, sc.state.diffLines = sign, maxDiffLook
		return tierNone, "", true
	}
	if actualLabel(t) {
		return tierCause, kindDetail, true
	}
	if indent > 0 && sc.state.lastCand > 0 && line-sc.state.lastCand <= maxFieldLook && messageField(t) {
		// A record printed under its heading ("fatal: [host]: FAILED! =>"
		// over "msg: ...", "data.json invalid" over "message: '...'"):
		// its message field says what was wrong.
		return tierCause, kindDetail, true
	}
	return tierNone, "", false
}

// markPrefix is the length of a short mark in brackets that opens a
// line, with the blank after it ("[!] ", "(!) ", "[E] "); 0 when there is
// none.
func markPrefix(t []byte) int {
	if len(t) < 4 || t[0] != '[' && t[0] != '(' {
		return 0
	}
	end := byte(']')
	if t[0] == '(' {
		end = ')'
	}
	i := bytes.IndexByte(t[:min(len(t), 5)], end)
	if i < 2 || i+1 >= len(t) || t[i+1] != ' ' {
		return 0
	}
	return i + 2
}
