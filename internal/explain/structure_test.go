package explain

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shapes that carry a cause by their structure rather than by an
// error word: each output is padded past ShortOutput so that the line is
// shown because it was picked, not because the output was shown whole.
func TestStructuralShapes(t *testing.T) {
	pad := strings.Repeat("step done\n", ShortOutput+1)
	code := 1
	for _, tc := range []struct{ name, out, want string }{
		{"a banner ending in '!' brings its message", "rake aborted!\nthe tag exists\n/x/Rakefile:3:in 'block'\n", "the tag exists"},
		{"a heading ending in ' : ' brings its message", "Error in load(\"p\") : \n  column 'price' is missing\nExecution halted\n", "column 'price' is missing"},
		{"a banner between == brings its message", "== Compilation error in file lib/a.ex ==\n** (CompileError) lib/a.ex:2: undefined function f/1\n", "** (CompileError) lib/a.ex:2: undefined function f/1"},
		{"a wrapped heading brings the message under its continuation", "Unhandled SIMPLE-ERROR in thread #<THREAD RUNNING\n                  {100}>:\n  the inventory has 3 items\n\nBacktrace:\n", "the inventory has 3 items"},
		{"an exception inside an exception group's box", "  + Exception Group Traceback (most recent call last):\n  | ExceptionGroup: check failed (2 sub-exceptions)\n  +-+---- 1 ----\n    | ValueError: shard 3 has no replicas\n", "| ValueError: shard 3 has no replicas"},
		{"an actual value under a failed test", "not ok 2 - reads the port\n#   Failed test 'reads the port'\n#   at t/port.t line 7.\n#          got: '80'\n#     expected: '8080'\n", "#          got: '80'"},
		{"a label alone over the value", "Failed example:\n    fmt(1250)\nExpected:\n    'EUR 12.50'\nGot:\n    'EUR 12.5'\n", "'EUR 12.5'"},
		{"a record's msg field under its heading", "failed: [web1] (item=9100) => {\n    \"ansible_loop_var\": \"item\",\n    \"changed\": false,\n    \"item\": 9100,\n    \"msg\": \"port 9100 is reserved\"\n}\n", "\"msg\": \"port 9100 is reserved\""},
		{"a message field in a dumped object", "conf.json invalid\n[\n  {\n    instancePath: '/port',\n    keyword: 'type',\n    message: 'must be integer'\n  }\n]\n", "message: 'must be integer'"},
		{"the actual line of a diff under its legend", "  1) Failure:\nTermsTest#test_terms [terms_test.rb:5]:\n--- expected\n+++ actual\n@@ -1 +1 @@\n-\"net-60\"\n+\"net-30\"\n", "+\"net-30\""},
		{"the actual line of a legend that names it first", "  Difference (- actual, + expected):\n\n  - 'net-30'\n  + 'net-60'\n", "- 'net-30'"},
		{"an error type behind a tool's mark", "src/main.js → dist/out.js...\n[!] RollupError: \"missing\" is not exported by \"src/lib.js\", imported by \"src/main.js\".\n", "[!] RollupError"},
		{"a line led by a file and its position, with no error word", "guide.texi:6: unknown command `emphh'\n", "guide.texi:6: unknown command"},
		{"a position led by a quoted file name", "\"notes.tex\", line 5: <- unmatched \"\\end{enumerate}\"\n", "\"notes.tex\", line 5: <- unmatched"},
		{"a file and its line in words", "ssh_config line 3: Bad port 'eighty'.\n", "ssh_config line 3: Bad port"},
		{"a file, then its line and column in words", "app.js: line 1, col 16, Missing semicolon.\n\n1 error\n", "app.js: line 1, col 16, Missing semicolon."},
		{"a position in parentheses", "Main.cs(4,9): ';' expected\n", "Main.cs(4,9): ';' expected"},
		{"a position-led line beside the generic verdict about it", "dhcpd.conf line 4: semicolon expected.\n  option \n   ^\nConfiguration file errors encountered -- exiting\n", "dhcpd.conf line 4: semicolon expected."},
		{"the message under a heading ruled off to the line's end", "cfg.js:1:45 parse ━━━━━━━━\n\n  × expected `,` but instead found `;`\n\n  > 1 │ export const cfg = { port: 8080 ;\n", "× expected `,` but instead found `;`"},
		{"a heading ruled off to the line's end names the file", "app.js format ━━━━━━━━\n\n  × Formatter would have printed the following content:\n", "app.js format"},
		{"the message above a position alone in parentheses", "Message from the compiler:\nUndefined backend api, first reference:\n('/src/site.vcl' Line 4 Pos 28)\n    set req.backend_hint = api;\n", "Undefined backend api, first reference:"},
		{"the message above a program line alone in parentheses", "Expected ';' got '}'\n(program line 417), at\n('/src/default.vcl' Line 5 Pos 1)\n", "Expected ';' got '}'"},
		{"an actual value whose label is padded to line up with the next", "not ok 1 cart > total\n  ---\n  message: total\n  severity: failed\n  actual  : 7\n  expected: 6\n  ...\n", "actual  : 7"},
		{"an expectation set against what came, with no error word", "testPort\nASSERT:port of the config expected:<8080> but was:<8008>\ntestC\n", "expected:<8080> but was:<8008>"},
		{"the block under a banner framed by marks", "\n*** FATAL CONFIG FILE ERROR (Server 7.0) ***\nReading the configuration file, at line 3\n>>> 'appendonly maybe'\nargument must be 'yes' or 'no'\n", "argument must be 'yes' or 'no'"},
		{"a row of a table of findings under its count", "FILE: /src/Cart.php\n----------------------------------------\nFOUND 1 ERROR AFFECTING 1 LINE\n----------------------------------------\n 9 | ERROR | [x] Expected 1 space(s) after IF keyword; 0 found\n----------------------------------------\n", "Expected 1 space(s) after IF keyword"},
		{"rows of findings whose first cell labels its line number", "== [orders.sql] FAIL\nL:   1 | P:  11 | L012 | Implicit aliasing of columns.\nL:   1 | P:  17 |  PRS | Line 1, Position 17: Found unparsable section: 'FROM'\nAll Finished!\n", "Found unparsable section: 'FROM'"},
		{"a type at a position in parentheses", "reading rates\ncore.exception.RangeError@rates.d(5): index [3] is out of bounds\n----------------\n??:? _Dmain [0x5635e13003b4]\n", "index [3] is out of bounds"},
		{"the heading of a record whose field is a position", "Test results:\n>> Issue: [B602:subprocess_shell] subprocess call with shell=True identified.\n   Severity: High   Confidence: High\n   Location: deploy.py:5\n   More Info: https://example.org/b602.html\n4\tdef deploy(host):\n", ">> Issue: [B602:subprocess_shell]"},
		{"the message above a stack's first frame, with no error word", "Failed tests:\n\n  1) cart totals the items:\n\n      76\n\n      Expected 7 to equal specified value: 6\n\n      at /src/test/cart.js:6:55\n\n1 of 2 tests failed\n", "Expected 7 to equal specified value: 6"},
		{"a line that stands out by its shape beside a verdict that names nothing", strings.Repeat("[ci] step 4/40: preparing module-4 ok\n", 5) + "recieved\ncheck failed: the checker reported problems\n" + strings.Repeat("[ci] post 2/25: archived report-2.xml\n", 5), "recieved"},
		{"an undefined step's snippet under its announcement", "Failing scenarios:\n  features/cart.feature:2  total of the cart\n\nYou can implement step definitions for undefined steps with these snippets:\n\n@when(u'I compute the total with tax')\ndef step_impl(context):\n", "@when(u'I compute the total with tax')"},
		{"a step that passed is not the detail of a failure's heading", "Failures:\n\n1) Scenario: checkout # features/cart.feature:2\n   ✔ Given a cart with 2 items # features/steps.js:2\n   ? When the customer checks out\n       Undefined. Implement with the following snippet:\n\n         When('the customer checks out', function () {\n", "Undefined. Implement"},
		{"a list item led by a file and a range in brackets, beside the verdict on the other side", "Clone found (javascript)\n - \x1b[1ma.js\x1b[22m [2:1 - 11:28] (10 lines, 52 tokens)\n   b.js [2:1 - 11:28]\nERROR: too many duplicates (45.5%) over threshold (1.0%)\n", "a.js [2:1 - 11:28] (10 lines, 52 tokens)"},
		{"the message above a checker's first frame at an address", "==26090== HEAP SUMMARY:\n==26090==     in use at exit: 192 bytes in 3 blocks\n==26090== \n==26090== 192 bytes in 3 blocks are definitely lost in loss record 1 of 1\n==26090==    at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)\n==26090==    by 0x10914A: name (prog.c:3)\n==26090== \n==26090== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)\n", "are definitely lost in loss record 1 of 1"},
		{"a log level in brackets", "2026/12/07 15:30:14 [emerg] 7949#7949: unknown directive \"locaton\" in ./nginx.conf:9\nnginx: configuration file ./nginx.conf test failed\n", "[emerg]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
				Streams: []Stream{{Name: "stderr", R: strings.NewReader(pad + tc.out)}}})
			require.NoError(t, err)
			require.Equal(t, ShowsCause, rep.Shows, rep.String())
			assert.Empty(t, rep.Rest)
			var shown []string
			for _, l := range rep.Lines {
				shown = append(shown, l.Text)
			}
			assert.True(t, containsAny(shown, tc.want), "%q not shown:\n%s", tc.want, rep.String())
		})
	}
}

// JSON lines are ranked by the text of their fields, and the report shows
// that text, with a logger's level in front.
func TestJSONLines(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{`{"Action":"output","Test":"TestKeep","Output":"    cache_test.go:7: kept 3, want 2\n"}`, "    cache_test.go:7: kept 3, want 2", true},
		{`{"time":"x","level":"error","msg":"replica lag","error":"budget exceeded"}`, "ERROR replica lag: budget exceeded", true},
		{`{"Action":"fail","Test":"TestKeep","Elapsed":0}`, "", true},
		{`{"msg":{"nested":1},"level":"warn"}`, "", true},
		{`{not json}`, "", false},
		{`[1, 2]`, "", false},
	} {
		got, ok := jsonText([]byte(tc.in))
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, string(got), tc.in)
	}
	code := 1
	out := strings.Repeat(`{"level":"INFO","msg":"replicated batch","rows":500}`+"\n", 12) +
		`{"level":"ERROR","msg":"replica lag exceeds the budget","lag_ms":5400}` + "\n"
	rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
		Streams: []Stream{{Name: "stderr", R: strings.NewReader(out)}}})
	require.NoError(t, err)
	require.NotEmpty(t, rep.Lines)
	assert.Equal(t, "ERROR replica lag exceeds the budget", rep.Lines[0].Text)
}

// A passing run's pass line above a teardown log longer than the tail is
// shown first, and the header says so.
func TestPassLineAboveTeardown(t *testing.T) {
	code := 0
	out := "checking 14 assets\n14 passed, 0 failed\n" + strings.Repeat("teardown: closed a pool connection\n", MaxPassTail+1)
	rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
		Streams: []Stream{{Name: "stdout", R: strings.NewReader(out)}}})
	require.NoError(t, err)
	require.Equal(t, ShowsPass, rep.Shows)
	require.Len(t, rep.Lines, MaxPassTail)
	assert.Equal(t, Line{Stream: "stdout", Line: 2, Text: "14 passed, 0 failed", Count: 1, Kind: kindPass}, rep.Lines[0])
	assert.Contains(t, rep.String(), "passed; pass line, then the last 5 lines:\n")
}

// With no line matched, a line of its own kind between blocks of one
// template is shown above the tail; a log of phases, each a block, has
// none.
func TestOneOffLine(t *testing.T) {
	code := 1
	run := func(out string) *Report {
		rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
			Streams: []Stream{{Name: "pty", R: strings.NewReader(out)}}})
		require.NoError(t, err)
		return rep
	}
	var b strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&b, "[stage %d/30] unpacked layer %d\n", i, i*7)
	}
	b.WriteString("\"Line\" is not defined (billing.proto, at 4:12)\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "[cleanup] released volume vol-%d\n", i)
	}
	rep := run(b.String())
	require.Equal(t, ShowsTail, rep.Shows)
	assert.Equal(t, Line{Stream: "pty", Line: 31, Text: "\"Line\" is not defined (billing.proto, at 4:12)", Count: 1, Kind: kindShape}, rep.Lines[0])
	assert.Len(t, rep.Lines, MaxTail)
	assert.Contains(t, rep.String(), "no error lines; 1 lines that stand out by their shape, then the last 7 lines:\n")

	// two lines between blocks: each stands out (a tool's partial output
	// and its message, written into one line of a combined stream)
	b.Reset()
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "[ci] step %d/25: ok\n", i)
	}
	b.WriteString("Paris\nZiconv: illegal input sequence at position 7\n")
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "[ci] post %d/25: archived\n", i)
	}
	rep = run(b.String())
	require.Equal(t, ShowsTail, rep.Shows)
	assert.Equal(t, "Ziconv: illegal input sequence at position 7", rep.Lines[1].Text)
	assert.Contains(t, rep.String(), "no error lines; 2 lines that stand out by their shape, then the last 6 lines:\n")

	b.Reset()
	for _, phase := range []string{"compiling", "linking", "packing"} {
		for i := 1; i <= 10; i++ {
			fmt.Fprintf(&b, "%s unit %d\n", phase, i)
		}
	}
	rep = run(b.String())
	for _, l := range rep.Lines {
		assert.Equal(t, kindTail, l.Kind, "a phase's first line is not a one-off: %+v", l)
	}
}

// A line led by a warning level or mark is a failed run's likeliest cause
// when no line says that anything failed (it comes above the tail), and
// beside a generic verdict that does; a passing run does not show it.
func TestWarningLed(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"WARNING: invoice.pdf: file is damaged", true},
		{"%Warning-WIDTH: acc.v:2:27: Operator expects 4 bits", true},
		{"  ! eslint(no-unused-vars): Variable 'unused' is declared", true},
		{"W:  6:  5: Useless assignment to variable - tax.", true},
		{"[warn] the cache is cold", true},
		{"⚠ the lockfile is stale", true},
		{"Warnings are shown below", false},
		{"warning: unused variable `x`", true},
		{"warning", false},
		{"WARNING", false},
		{"! ", false},
		{"W: no position", false},
		{"[ci] step 3/40: ok", false},
	} {
		assert.Equal(t, tc.ok, warningLed(trimIndent([]byte(tc.line))), tc.line)
	}
	run := func(code int, out string) *Report {
		rep, err := Explain(Input{Meta: Meta{Argv: []string{"x"}, Status: StatusExited, ExitCode: &code},
			Streams: []Stream{{Name: "stderr", R: strings.NewReader(out)}}})
		require.NoError(t, err)
		return rep
	}
	out := "WARNING: invoice.pdf: file is damaged\n" + strings.Repeat("object 2 0: returning false\n", MaxTail+1)
	rep := run(3, out)
	require.Equal(t, ShowsTail, rep.Shows)
	assert.Equal(t, Line{Stream: "stderr", Line: 1, Text: "WARNING: invoice.pdf: file is damaged", Count: 1, Kind: kindContext}, rep.Lines[0])
	assert.Len(t, rep.Lines, MaxTail)
	assert.Contains(t, rep.String(), "no error lines; 1 warning lines, then the last 7 lines:\n")

	// a list of files under the sentence that announces it
	rep = run(1, "# MISSING INFORMATION\n\nThe following files have no licensing information:\n* /src/shop/cart.py\n\n"+strings.Repeat("* Used licenses: MIT\n", MaxTail+1))
	require.Equal(t, ShowsTail, rep.Shows)
	assert.Equal(t, "* /src/shop/cart.py", rep.Lines[1].Text, rep.String())
	assert.Contains(t, rep.String(), "no error lines; 2 lines that stand out by their shape, then the last 6 lines:\n")

	rep = run(1, "%Warning-WIDTH: acc.v:2:27: Operator expects 4 bits\n"+strings.Repeat("  ... In instance acc\n", MaxTail+1)+"%Error: Exiting due to 1 warning(s)\n")
	require.Equal(t, ShowsCause, rep.Shows)
	assert.Contains(t, rep.String(), "cause (2 of 2 matching lines):\n")
	assert.Contains(t, rep.String(), "stderr:1: %Warning-WIDTH: acc.v:2:27:")

	rep = run(0, out)
	require.Equal(t, ShowsPass, rep.Shows)
	for _, l := range rep.Lines {
		assert.Equal(t, kindTail, l.Kind, "%+v", l)
	}
}
