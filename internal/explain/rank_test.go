package explain

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpecificity: what a line names, counted.
func TestSpecificity(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{"npm error A complete log of this run can be found in: /home/u/.npm/_logs/x-debug-0.log", 0},
		{"npm error ERESOLVE unable to resolve dependency tree", 0},
		{"npm error Run with --force to accept an incorrect resolution", 0},
		{"--- FAIL: TestTotal (0.01s)", 0},                         // a duration is no version
		{"unable to update /src/ledger-core", 0},                   // a path is where to look
		{"npm error code ERESOLVE", 1},                             // an error code
		{"npm error While resolving: app@1.0.0", 1},                // a package's version
		{"error: the file package-lock.json is missing", 1},        // a file's name
		{"error: failed to read `/src/ledger-core/Cargo.toml`", 1}, // a quoted name
		{"warning: deprecated in v1.2", 1},
		{`npm error peer ui-kit@"^1.0.0" from ui-charts@1.0.0`, 3},   // quoted, two packages
		{"b.c:4:20: error: 'total' undeclared", 3},                   // file, position, quoted
		{"a.go:9: Total(10, 20) = 31, want 30, got 31", 3},           // file, position, a pair
		{"x.rs:2:18: error[E0308]: expected `i32`, found `&str`", 5}, // file, position, quoted, code, pair
	} {
		assert.Equal(t, tc.want, specificity([]byte(tc.line)), "%q", tc.line)
	}
	assert.False(t, hasQuoted([]byte("don't stop, it's fine")), "apostrophes are no quotes")
}

// TestRankEqualWeight: among lines of equal weight the one that names
// more wins; the causes of a cascade keep their order.
func TestRankEqualWeight(t *testing.T) {
	for _, tc := range []struct {
		name, out, first string
		order            []string // lines shown, in this order, when set
	}{
		{name: "a package manager's block of error lines", out: lines("npm error code ERESOLVE",
			"npm error ERESOLVE unable to resolve dependency tree", "npm error", "npm error While resolving: app@1.0.0",
			"npm error Found: host@2.0.0", "npm error node_modules/host", "npm error", "npm error Could not resolve dependency:",
			`npm error peer host@"^1.0.0" from plugin@1.0.0`, "npm error node_modules/plugin", "npm error",
			"npm error Fix the upstream dependency conflict, or retry", "npm error",
			"npm error A complete log of this run can be found in: /home/u/.npm/_logs/x-debug-0.log"),
			first: `npm error peer host@"^1.0.0" from plugin@1.0.0`},
		{name: "a tool's generic error line after its specific one", out: lines(
			"error: build failed, see the log above", "error: cannot read `config/app.toml`: permission denied"),
			first: "error: cannot read `config/app.toml`: permission denied"},
		{name: "a compiler cascade keeps its order", out: lines("./a.go:3:2: undefined: Widget",
			`./a.go:5:9: cannot use "x" (untyped string constant) as int value in return statement`),
			order: []string{"./a.go:3:2: undefined: Widget", `./a.go:5:9: cannot use "x" (untyped string constant) as int value in return statement`}},
		{name: "an exception before a more specific detail", out: lines("Error: config missing", "    at load (/src/app.js:3:9)",
			"Node.js v20.1.0"),
			first: "Error: config missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := explainOut(t, "", tc.out)
			require.Equal(t, ShowsCause, rep.Shows, "report:\n%s", rep)
			if tc.first != "" {
				assert.Equal(t, tc.first, rep.Lines[0].Text, "report:\n%s", rep)
			}
			if tc.order != nil {
				assert.Equal(t, tc.order, texts(rep))
			}
		})
	}
}

// TestRankBounded: a later, more specific line displaces a kept one, and
// the store still keeps no more than MaxCause lines a tier.
func TestRankBounded(t *testing.T) {
	var out []string
	for i := 0; i < 500; i++ {
		out = append(out, "npm error retry "+string(rune('a'+i%26))+string(rune('a'+i/26%26)))
	}
	out = append(out, "npm error missing dependency ledger@2.1.0")
	s := newStore()
	for i, l := range out {
		s.add(tierSummary, kindSummary, 0, i+1, []byte(l))
	}
	assert.LessOrEqual(t, len(s.tiers[tierSummary]), MaxCause)
	assert.Equal(t, "npm error missing dependency ledger@2.1.0", s.top(1)[0].text)
}

// TestGoMarker: every go test -v marker says whose lines follow.
func TestGoMarker(t *testing.T) {
	for _, tc := range []struct {
		line, test string
	}{
		{"=== RUN   TestA/one", "TestA/one"},
		{"=== PAUSE TestA/two", "TestA/two"},
		{"=== CONT  TestA/two", "TestA/two"},
		{"=== NAME  TestA", "TestA"},
		{"=== 1 failed, 2 passed in 0.10s ===", ""},
		{"=== FAILURES ===", ""},
		{"=== x", ""},
	} {
		got := ""
		if n := goMarker([]byte(tc.line)); n > 0 {
			got = testName([]byte(tc.line)[n:])
		}
		assert.Equal(t, tc.test, got, "%q", tc.line)
	}
}

// TestStatusTag: an error term in a tag at a line's start is the outcome
// of what the line names.
func TestStatusTag(t *testing.T) {
	for line, want := range map[string]bool{
		" ! [rejected]        main -> main (fetch first)":   true,
		" ! [remote rejected] main -> main (hook declined)": true,
		"[FAILED] checkout › pays by card":                  true,
		" * [new branch]      main -> main":                 false,
		"[1/3] Compiling main.c":                            false,
		"see [error] above":                                 false,
	} {
		assert.Equal(t, want, isStatusTag([]byte(line)), "%q", line)
	}
}

// TestTermInflections: a term's -s form is the term; its zero count is not.
func TestTermInflections(t *testing.T) {
	for line, want := range map[string]bool{
		"the check fails on empty input": true,
		"3 timeouts in the last minute":  true,
		"the worker panics on start":     true,
		"conflicts in 2 files":           true,
		"0 failures":                     false,
		"exceptions: 0":                  false,
		"loaded pass/fails.txt":          false,
	} {
		assert.Equal(t, want, hasTerm([]byte(line)), "%q", line)
	}
}

// TestValuePair: two values whose labels line up under a failed assertion
// are shown with it, whatever the labels say.
func TestValuePair(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		also      []string
	}{
		{name: "assert_eq's left and right", out: lines("thread 'tests::adds' (7) panicked at src/lib.rs:10:9:",
			"assertion `left == right` failed", "  left: 5", " right: 4", "note: run with `RUST_BACKTRACE=1`"),
			also: []string{"left: 5", "right: 4"}},
		{name: "labels padded to line up", out: lines("    a_test.go:12: Error: Not equal",
			"panic: values differ", "    expected: 1", "    actual  : 2"),
			also: []string{"expected: 1", "actual  : 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := explainOut(t, tc.out, "")
			for _, a := range tc.also {
				assert.Contains(t, texts(rep), a, "report:\n%s", rep)
			}
		})
	}
	// labels that do not line up are two lines, not a pair
	rep := explainOut(t, lines("panic: values differ", "  port: 5", " host: x"), "")
	assert.NotContains(t, texts(rep), "port: 5", "report:\n%s", rep)
}
