package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	t0   = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	t0p2 = t0.Add(2310 * time.Millisecond)
)

func exited(code int) Meta {
	return Meta{Ref: "s1/7", Argv: []string{"tool", "run"}, Cwd: "/src/app", Status: StatusExited,
		ExitCode: &code, StartedAt: t0, EndedAt: &t0p2}
}

// explainOut explains stdout and stderr given as strings.
func explainOut(t *testing.T, stdout, stderr string) *Report {
	t.Helper()
	rep, err := Explain(Input{Meta: exited(1), Streams: []Stream{
		{Name: "stdout", R: strings.NewReader(stdout)},
		{Name: "stderr", R: strings.NewReader(stderr)},
	}})
	require.NoError(t, err)
	return rep
}

func texts(r *Report) []string {
	var out []string
	for _, l := range r.Lines {
		out = append(out, l.Text)
	}
	return out
}

func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

// passedRules is a dozen lines of passing checks, so that an output that
// starts with them is too long to be shown whole.
var passedRules = strings.Repeat("  checked ledger rule\n", 12)

// TestToolShapes: for each tool, the line explain must put first.
func TestToolShapes(t *testing.T) {
	for _, tc := range []struct {
		name           string
		stdout, stderr string
		first          string // the first line shown
		kind           string // its kind
		also           string // another line that must be shown ("" = none)
	}{
		{name: "git fatal", stderr: lines("Cloning into 'x'...", "fatal: repository '/nope' does not exist"),
			first: "fatal: repository '/nope' does not exist", kind: kindTool},
		{name: "git error", stderr: lines("error: pathspec 'release' did not match any file(s) known to git"),
			first: "error: pathspec 'release' did not match any file(s) known to git", kind: kindTool},
		{name: "git conflict", stdout: lines("Auto-merging f.txt", "CONFLICT (content): Merge conflict in f.txt",
			"Automatic merge failed; fix conflicts and then commit the result."),
			first: "CONFLICT (content): Merge conflict in f.txt", kind: kindGit, also: "Automatic merge failed; fix conflicts and then commit the result."},
		{name: "git push rejected", stderr: lines("To /srv/remote.git", " ! [rejected]        main -> main (fetch first)",
			"error: failed to push some refs to '/srv/remote.git'", "hint: Updates were rejected because the remote contains work that you do"),
			first: "! [rejected]        main -> main (fetch first)", kind: kindGit, also: "error: failed to push some refs to '/srv/remote.git'"},
		{name: "kubectl error from server", stderr: lines(`Error from server (NotFound): pods "web-0" not found`),
			first: `Error from server (NotFound): pods "web-0" not found`, kind: kindTool},
		{name: "kubectl error", stderr: lines(`error: the path "web.yaml" does not exist`),
			first: `error: the path "web.yaml" does not exist`, kind: kindTool},
		{name: "kubectl CrashLoopBackOff", stdout: lines("NAME    READY   STATUS             RESTARTS   AGE",
			"web-0   1/1     Running            0          3m", "web-1   0/1     CrashLoopBackOff   5          3m"),
			first: "web-1   0/1     CrashLoopBackOff   5          3m", kind: kindTerm},
		{name: "kubectl ImagePullBackOff", stdout: lines("NAME    READY   STATUS             RESTARTS   AGE",
			"api-0   0/1     ImagePullBackOff   0          1m"),
			first: "api-0   0/1     ImagePullBackOff   0          1m", kind: kindTerm},
		{name: "klog error", stderr: lines(`E1130 05:54:29.625498    5910 memcache.go:265] "Unhandled Error" err="connect: connection refused"`),
			first: `E1130 05:54:29.625498    5910 memcache.go:265] "Unhandled Error" err="connect: connection refused"`, kind: kindLog},
		{name: "go test failure", stdout: lines("--- FAIL: TestAdd (0.00s)", "    add_test.go:8: Add(2, 2) = 5, want 4",
			"FAIL", "FAIL\texample.com/m/add\t0.003s"),
			first: "add_test.go:8: Add(2, 2) = 5, want 4", kind: kindTest, also: "--- FAIL: TestAdd (0.00s)"},
		{name: "go test -v failure", stdout: lines("=== RUN   TestAdd", "    add_test.go:8: Add(2, 2) = 5, want 4",
			"--- FAIL: TestAdd (0.00s)", "=== RUN   TestSub", "    sub_test.go:3: fine", "--- PASS: TestSub (0.00s)", "FAIL",
			"FAIL\texample.com/m/add\t0.003s"),
			first: "add_test.go:8: Add(2, 2) = 5, want 4", kind: kindTest},
		{name: "go build failure summary", stdout: lines("FAIL\texample.com/m/api [build failed]"),
			first: "FAIL\texample.com/m/api [build failed]", kind: kindSummary},
		{name: "go panic", stderr: lines("panic: runtime error: index out of range [2] with length 2", "",
			"goroutine 1 [running]:", "main.main()", "\t/src/main.go:8 +0x8d", "exit status 2"),
			first: "panic: runtime error: index out of range [2] with length 2", kind: kindPanic},
		{name: "go compiler", stderr: lines("# example.com/m", "./main.go:8:7: undefined: NewServer"),
			first: "./main.go:8:7: undefined: NewServer", kind: kindCompiler},
		{name: "go runtime fatal error", stderr: lines("fatal error: all goroutines are asleep - deadlock!", "", "goroutine 1 [chan receive]:"),
			first: "fatal error: all goroutines are asleep - deadlock!", kind: kindPanic},
		{name: "rustc error code", stderr: lines("   Compiling calc v0.1.0 (/src/calc)",
			"error[E0308]: mismatched types", " --> src/main.rs:2:18", "  |", "2 |     let x: i32 = \"a\";",
			"  |            ---   ^^^ expected `i32`, found `&str`", "",
			"For more information about this error, try `rustc --explain E0308`.",
			"error: could not compile `calc` (bin \"calc\") due to 1 previous error"),
			first: "error[E0308]: mismatched types", kind: kindTool, also: "error: could not compile `calc` (bin \"calc\") due to 1 previous error"},
		{name: "rust panic with message", stdout: lines("running 1 test", "test tests::adds ... FAILED", "",
			"thread 'tests::adds' (26304) panicked at src/lib.rs:10:9:", "assertion `left == right` failed", "  left: 5", " right: 4",
			"", "test result: FAILED. 0 passed; 1 failed; 0 ignored"),
			first: "thread 'tests::adds' (26304) panicked at src/lib.rs:10:9:", kind: kindPanic, also: " right: 4"},
		{name: "npm error", stderr: lines(`npm error Missing script: "deploy"`, "npm error", "npm error To see a list of scripts, run:"),
			first: `npm error Missing script: "deploy"`, kind: kindSummary},
		{name: "npm ERR!", stderr: lines("npm ERR! code ENOENT", "npm ERR! syscall open", "npm ERR! path /src/package.json"),
			first: "npm ERR! code ENOENT", kind: kindSummary},
		{name: "pytest", stdout: lines("tests/test_cart.py::test_total FAILED                [ 50%]",
			"tests/test_cart.py::test_error_message PASSED        [100%]", "",
			"    def test_total():", ">       assert total([10, 20]) == 30", "E       assert 31 == 30",
			"E        +  where 31 = total([10, 20])", "", "tests/test_cart.py:5: AssertionError",
			"=========================== short test summary info ============================",
			"FAILED tests/test_cart.py::test_total - assert 31 == 30",
			"========================= 1 failed, 1 passed in 0.03s ========================="),
			first: "E       assert 31 == 30", kind: kindTest, also: "E        +  where 31 = total([10, 20])"},
		{name: "make after compiler", stderr: lines("b.c: In function 'b':",
			"b.c:4:20: error: 'total' undeclared (first use in this function)",
			"b.c:4:20: note: each undeclared identifier is reported only once for each function it appears in",
			"make: *** [<builtin>: b.o] Error 1", "make: Target 'all' not remade because of errors."),
			first: "b.c:4:20: error: 'total' undeclared (first use in this function)", kind: kindCompiler, also: "make: *** [<builtin>: b.o] Error 1"},
		{name: "make own error", stderr: lines("make: *** No rule to make target 'src/index.js', needed by 'bundle.js'.  Stop."),
			first: "make: *** No rule to make target 'src/index.js', needed by 'bundle.js'.  Stop.", kind: kindMake},
		{name: "javac cascade", stderr: lines("Main.java:1: error: package com.example.missing does not exist",
			"import com.example.missing.Widget;", "                          ^", "Main.java:5: error: cannot find symbol",
			"        Widget w = new Widget();", "        ^", "  symbol:   class Widget", "2 errors"),
			first: "Main.java:1: error: package com.example.missing does not exist", kind: kindCompiler, also: "Main.java:5: error: cannot find symbol"},
		{name: "python traceback", stderr: lines("Traceback (most recent call last):", `  File "/src/app.py", line 4, in <module>`,
			`    raise ValueError("bad port")`, "ValueError: bad port"),
			first: "ValueError: bad port", kind: kindException},
		{name: "python exception without Error in its name", stderr: lines("Traceback (most recent call last):",
			`  File "/src/app.py", line 4, in <module>`, `    raise Boom("disk full")`, "__main__.Boom: disk full"),
			first: "__main__.Boom: disk full", kind: kindException},
		{name: "python chained traceback: the first exception", stderr: lines("Traceback (most recent call last):",
			`  File "/src/app.py", line 9, in main`, `    load("settings.json")`,
			"FileNotFoundError: [Errno 2] No such file or directory: 'settings.json'", "",
			"The above exception was the direct cause of the following exception:", "", "Traceback (most recent call last):",
			`  File "/src/app.py", line 13, in <module>`, `    raise RuntimeError("cannot start") from e`, "RuntimeError: cannot start"),
			first: "FileNotFoundError: [Errno 2] No such file or directory: 'settings.json'", kind: kindException, also: "RuntimeError: cannot start"},
		{name: "node uncaught", stderr: lines("/src/app.js:2", "    throw new Error('config missing');", "    ^", "",
			"Error: config missing", "    at Object.<anonymous> (/src/app.js:2:11)", "", "Node.js v20.20.2"),
			first: "Error: config missing", kind: kindException},
		{name: "node error code", stderr: lines("TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string"),
			first: "TypeError [ERR_INVALID_ARG_TYPE]: The \"path\" argument must be of type string", kind: kindException},
		{name: "java exception", stderr: lines(`Exception in thread "main" java.lang.IllegalStateException: bad port`,
			"\tat App.main(App.java:10)", `Caused by: java.lang.NumberFormatException: For input string: "80a"`),
			first: `Exception in thread "main" java.lang.IllegalStateException: bad port`, kind: kindException,
			also: `Caused by: java.lang.NumberFormatException: For input string: "80a"`},
		{name: "log ERROR level", stdout: lines("2025-01-02T03:04:05Z INFO starting", "2025-01-02T03:04:06Z ERROR db: connection lost",
			"2025-01-02T03:04:07Z INFO stopping"),
			first: "2025-01-02T03:04:06Z ERROR db: connection lost", kind: kindLog},
		{name: "log FATAL level", stdout: lines("[2025-01-02 03:04:05] [FATAL] out of disk"),
			first: "[2025-01-02 03:04:05] [FATAL] out of disk", kind: kindLog},
		{name: "logfmt level=error", stdout: lines(`time=2025-01-02T03:04:05Z level=info msg="up"`, `time=2025-01-02T03:04:06Z level=error msg="disk full"`),
			first: `time=2025-01-02T03:04:06Z level=error msg="disk full"`, kind: kindLog},
		{name: "json level", stdout: lines(`{"level":"info","msg":"up"}`, `{"level":"error","msg":"quota reached"}`),
			first: "ERROR quota reached", kind: kindLog},
		{name: "python logging", stderr: lines("ERROR:root:could not reach broker"),
			first: "ERROR:root:could not reach broker", kind: kindLog},
		{name: "gcc link", stderr: lines("/usr/bin/ld: /tmp/cc1.o: in function `main':", "main.c:(.text+0xa): undefined reference to `flush'",
			"collect2: error: ld returned 1 exit status"),
			first: "main.c:(.text+0xa): undefined reference to `flush'", kind: kindTerm, also: "collect2: error: ld returned 1 exit status"},
		{name: "sh not found", stderr: lines("deploy.sh: 41: deployctl: not found"),
			first: "deploy.sh: 41: deployctl: not found", kind: kindTerm},
		{name: "permission denied", stderr: lines("bash: ./run.sh: Permission denied"),
			first: "bash: ./run.sh: Permission denied", kind: kindTerm},
		{name: "timed out", stderr: lines("dial tcp 10.0.0.5:443: i/o timeout"),
			first: "dial tcp 10.0.0.5:443: i/o timeout", kind: kindTerm},
		{name: "coloured error", stderr: lines("\x1b[1m\x1b[31merror\x1b[0m: could not read \x1b[1mconfig.toml\x1b[0m"),
			first: "error: could not read config.toml", kind: kindTool},
		{name: "progress overwritten by the error", stderr: lines("Rebasing (1/1)\rerror: could not apply 2a730ef... side"),
			first: "error: could not apply 2a730ef... side", kind: kindTool},
		{name: "TAP", stdout: lines("TAP version 13", "# Subtest: adds", "not ok 1 - adds", "  ---", "  error: |-",
			"    Expected values to be strictly equal:", "  ...", "# Subtest: handles error input", "ok 2 - handles error input", "# fail 1"),
			first: "Expected values to be strictly equal:", kind: kindTest, also: "not ok 1 - adds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := explainOut(t, tc.stdout, tc.stderr)
			require.Equal(t, ShowsCause, rep.Shows, "report:\n%s", rep)
			require.NotEmpty(t, rep.Lines)
			assert.Equal(t, strings.TrimSpace(tc.first), rep.Lines[0].Text, "report:\n%s", rep)
			assert.Equal(t, tc.kind, rep.Lines[0].Kind, "report:\n%s", rep)
			if tc.also != "" {
				assert.Contains(t, texts(rep), strings.TrimSpace(tc.also), "report:\n%s", rep)
			}
			assert.LessOrEqual(t, len(rep.Lines), MaxCause)
		})
	}
}

// TestRanking: each ranking rule, as the order of the lines shown.
func TestRanking(t *testing.T) {
	for _, tc := range []struct {
		name           string
		stdout, stderr string
		want           []string // the lines shown, in order
	}{
		{name: "first error of a cascade over its consequences",
			stderr: lines("x.c:3:1: error: unknown type name 'config_t'", "x.c:5:5: error: request for member 'port' in something not a structure",
				"x.c:9:1: error: storage size of 'cfg' isn't known"),
			want: []string{"x.c:3:1: error: unknown type name 'config_t'", "x.c:5:5: error: request for member 'port' in something not a structure",
				"x.c:9:1: error: storage size of 'cfg' isn't known"}},
		{name: "a failing test's message over the FAIL lines",
			stdout: lines("ok  \texample.com/m/a\t0.01s", "--- FAIL: TestTotal (0.00s)", "    billing_test.go:7: Total(10, 20) = 31, want 30",
				"FAIL", "FAIL\texample.com/m/billing\t0.02s", "ok  \texample.com/m/errors\t0.01s", "FAIL"),
			want: []string{"billing_test.go:7: Total(10, 20) = 31, want 30", "--- FAIL: TestTotal (0.00s)", "FAIL", "FAIL\texample.com/m/billing\t0.02s"}},
		{name: "a failed expectation over a plain t.Log line",
			stdout: lines("=== RUN   TestPort", "    parse_test.go:12: parsing 8080", "    parse_test.go:14: Port(8080) = 80; want 8080",
				"--- FAIL: TestPort (0.00s)", "FAIL"),
			want: []string{"parse_test.go:14: Port(8080) = 80; want 8080", "parse_test.go:12: parsing 8080", "--- FAIL: TestPort (0.00s)", "FAIL"}},
		{name: "compiler error over make's Error 1",
			stdout: lines("cc -c -o b.o b.c"),
			stderr: lines("make: *** [Makefile:4: a.o] Error 1", "b.c:4:20: error: 'total' undeclared"),
			want:   []string{"b.c:4:20: error: 'total' undeclared", "make: *** [Makefile:4: a.o] Error 1"}},
		{name: "error over warning",
			stderr: lines("main.c:3:9: warning: unused variable 'failed_count' failed", "main.c:7:1: error: expected ';' before '}' token",
				"warning: deprecated option --timeout"),
			want: []string{"main.c:7:1: error: expected ';' before '}' token", "main.c:3:9: warning: unused variable 'failed_count' failed",
				"warning: deprecated option --timeout"}},
		{name: "an ERROR log line over INFO and WARN lines that mention a term",
			stderr: lines("2025-01-02 03:04:05,100 INFO orders: error budget 99.9%", "2025-01-02 03:04:05,200 WARNING orders: request timeout raised",
				"2025-01-02 03:04:05,300 ERROR db: connection refused"),
			want: []string{"2025-01-02 03:04:05,300 ERROR db: connection refused", "2025-01-02 03:04:05,100 INFO orders: error budget 99.9%",
				"2025-01-02 03:04:05,200 WARNING orders: request timeout raised"}},
		{name: "a shaped cause over a line that only holds a term",
			stderr: lines("retrying: request failed", "fatal: unable to access 'https://example.com/x.git/'"),
			want:   []string{"fatal: unable to access 'https://example.com/x.git/'", "retrying: request failed"}},
		{name: "a term over a summary",
			stdout: lines("Ran 3 tests", "FAILED (failures=1)"),
			stderr: lines("cp: cannot stat 'build/app': No such file or directory"),
			want:   []string{"cp: cannot stat 'build/app': No such file or directory", "FAILED (failures=1)"}},
		{name: "across streams the earlier line number wins",
			stdout: lines("a", "b", "c", "error: late in stdout"),
			stderr: lines("error: early in stderr"),
			want:   []string{"error: early in stderr", "error: late in stdout"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := explainOut(t, tc.stdout, tc.stderr)
			assert.Equal(t, tc.want, texts(rep), "report:\n%s", rep)
		})
	}
}

// TestNotErrors: lines that mention a term without reporting an error.
func TestNotErrors(t *testing.T) {
	for _, tc := range []struct{ name, out string }{
		{"passing go tests named Error", lines("=== RUN   TestErrorHandling", "    errors_test.go:5: error path ok",
			"--- PASS: TestErrorHandling (0.00s)", "=== RUN   TestFailover", "--- PASS: TestFailover (0.00s)", "PASS",
			"ok  \texample.com/m/errors\t0.01s", "?   \texample.com/m/failure\t[no test files]")},
		{"cargo passing tests", lines("test tests::error_message_is_stable ... ok", "test tests::fails_gracefully ... ignored",
			"test result: ok. 1 passed; 0 failed; 1 ignored")},
		{"TAP passing", lines("# Subtest: handles error input", "ok 1 - handles error input", "# fail 0")},
		{"zero counts", lines("0 errors, 0 warnings", "failures: 0", "Build succeeded with no errors", "errors=0 failed=0",
			"panicked=false")},
		{"identifiers and paths", lines("GET /api/errors 200", "loaded error_pages.html", "handler=TestErrorHandling",
			"wrote panic.go", "ErrNotFoundHandling registered", "non-fatal: skipped", "rootdir: /ci/failed-builds/x",
			"cd \"/srv/timeout-tests\"")},
		{"linter conventions", lines("a.py:4:4: C0103: Variable name \"T\" has an invalid name")},
		{"a position-led warning", lines("shop.c:3: warning: unused variable 'tax'")},
		{"go stack frames", lines("panic({0x55a7a0?, 0x6cadd0?})", "\t/usr/local/go/src/runtime/panic.go:860 +0x13a")},
		{"info and warning lines only", lines("INFO retry after timeout", "WARN: disk almost full, writes may fail")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := explainOut(t, tc.out, "")
			assert.Equal(t, ShowsTail, rep.Shows, "report:\n%s", rep)
		})
	}
}

// TestFold: lines that differ only in numbers, hex ids, paths or
// timestamps are one line with a count; the first is shown.
func TestFold(t *testing.T) {
	rep := explainOut(t, "", lines(
		"2025-01-02T03:04:05.123Z ERROR request 8f3a9c21d4 failed after 120ms",
		"2025-01-02T03:04:06.456Z ERROR request 0b71e6aa93 failed after 98ms",
		"2025-01-02T03:04:07.789Z ERROR request 5d5d0c0ffe failed after 7ms",
		"./pkg/a.go:12:3: undefined: openDB",
		"./internal/b.go:40:9: undefined: openDB",
		"./internal/b.go:41:9: undefined: closeDB",
		"error: cannot open /var/lib/app/one.db",
		"error: cannot open /tmp/two.db",
	))
	require.Equal(t, ShowsCause, rep.Shows)
	// the log and tool lines name nothing specific: the diagnostics come first
	want := []Line{
		{Stream: "stderr", Line: 4, Text: "./pkg/a.go:12:3: undefined: openDB", Count: 2, Kind: kindCompiler},
		{Stream: "stderr", Line: 6, Text: "./internal/b.go:41:9: undefined: closeDB", Count: 1, Kind: kindCompiler},
		{Stream: "stderr", Line: 1, Text: "2025-01-02T03:04:05.123Z ERROR request 8f3a9c21d4 failed after 120ms", Count: 3, Kind: kindLog},
		{Stream: "stderr", Line: 7, Text: "error: cannot open /var/lib/app/one.db", Count: 2, Kind: kindTool},
	}
	assert.Equal(t, want, rep.Lines)
	assert.Equal(t, 8, rep.Matched)
	assert.Contains(t, rep.String(), "stderr:1: 2025-01-02T03:04:05.123Z ERROR request 8f3a9c21d4 failed after 120ms (x3)\n")
}

func TestFoldKey(t *testing.T) {
	same := [][2]string{
		{"took 12ms at 2025-01-02T03:04:05Z", "took 7ms at 2024-12-31T23:59:59Z"},
		{"commit 1a2b3c4d failed", "commit deadbeef99 failed"},
		{"id 123e4567-e89b-12d3-a456-426614174000 lost", "id 00000000-0000-0000-0000-000000000001 lost"},
		{"open /a/b/c.txt: denied", "open ./d.txt: denied"},
		{"main.c:3:5: error: x", "util.c:40:1: error: x"},
		{"addr 0x7ffd1234 bad", "addr 0x1 bad"},
		{"a   b", "a b"},
	}
	for _, p := range same {
		assert.Equal(t, string(appendKey(nil, []byte(p[0]))), string(appendKey(nil, []byte(p[1]))), "%q vs %q", p[0], p[1])
	}
	different := [][2]string{
		{"error: cannot find symbol", "error: cannot find value"},
		{"ValueError: bad", "KeyError: bad"},
		{"E0425 x", "E0425 y"},
	}
	for _, p := range different {
		assert.NotEqual(t, string(appendKey(nil, []byte(p[0]))), string(appendKey(nil, []byte(p[1]))), "%q vs %q", p[0], p[1])
	}
	long := bytes.Repeat([]byte("word "), 1000)
	assert.LessOrEqual(t, len(appendKey(nil, long)), maxKey+8)
}

// TestTail: without error lines the last lines are shown, blank lines
// skipped, split between the streams, numbered per stream.
func TestTail(t *testing.T) {
	var out strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&out, "step %d done\n", i)
	}
	out.WriteString("\n   \n")
	t.Run("one stream", func(t *testing.T) {
		rep := explainOut(t, out.String(), "")
		require.Equal(t, ShowsTail, rep.Shows)
		require.Len(t, rep.Lines, MaxTail)
		assert.Equal(t, Line{Stream: "stdout", Line: 23, Text: "step 23 done", Count: 1, Kind: kindTail}, rep.Lines[0])
		assert.Equal(t, Line{Stream: "stdout", Line: 30, Text: "step 30 done", Count: 1, Kind: kindTail}, rep.Lines[7])
		assert.Contains(t, rep.String(), "\nno error lines; last 8 lines:\nstdout:23: step 23 done\n")
	})
	t.Run("two streams", func(t *testing.T) {
		rep := explainOut(t, out.String(), lines("compiling", "linking"))
		require.Len(t, rep.Lines, MaxTail)
		assert.Equal(t, "stdout", rep.Lines[0].Stream)
		assert.Equal(t, 25, rep.Lines[0].Line)
		assert.Equal(t, Line{Stream: "stderr", Line: 2, Text: "linking", Count: 1, Kind: kindTail}, rep.Lines[7])
	})
	t.Run("a stream cut to head and tail", func(t *testing.T) {
		rep, err := Explain(Input{Meta: exited(0), Streams: []Stream{
			{Name: "stdout", R: strings.NewReader("head one\nhead two\n")},
			{Name: "stdout", R: strings.NewReader("tail one\ntail two\n"), FirstLine: 5001},
		}})
		require.NoError(t, err)
		assert.Equal(t, []Line{
			{Stream: "stdout", Line: 5001, Text: "tail one", Count: 1, Kind: kindTail},
			{Stream: "stdout", Line: 5002, Text: "tail two", Count: 1, Kind: kindTail},
		}, rep.Lines)
	})
	t.Run("first line after a cut", func(t *testing.T) {
		rep, err := Explain(Input{Meta: exited(1), Streams: []Stream{
			{Name: "stdout", R: strings.NewReader("tail one\ntail two\nfailed to connect\n"), FirstLine: 1001},
		}})
		require.NoError(t, err)
		assert.Equal(t, []Line{{Stream: "stdout", Line: 1003, Text: "failed to connect", Count: 1, Kind: kindTerm}}, rep.Lines)
		assert.Equal(t, 1003, rep.Streams[0].Lines)
	})
}

// TestLineNumbers: numbers count newline-separated lines from 1, as rac
// out read does, whatever the buffer size, line length and line endings.
func TestLineNumbers(t *testing.T) {
	long := strings.Repeat("x", 3*readSize)
	in := "one\r\n" + long + "\nfatal: after a long line\r\n\nlast error: no newline"
	rep := explainOut(t, in, "")
	require.Equal(t, []Line{
		{Stream: "stdout", Line: 3, Text: "fatal: after a long line", Count: 1, Kind: kindTool},
		{Stream: "stdout", Line: 5, Text: "last error: no newline", Count: 1, Kind: kindTerm},
	}, rep.Lines)
	assert.Equal(t, 5, rep.Streams[0].Lines)
	assert.Equal(t, int64(len(in)), rep.Streams[0].Bytes)

	rep = explainOut(t, "error: in a long line "+long+"\nok\n", "")
	require.Len(t, rep.Lines, 1)
	assert.Equal(t, 1, rep.Lines[0].Line)
	assert.True(t, strings.HasPrefix(rep.Lines[0].Text, "error: in a long line xxx"))
	assert.LessOrEqual(t, len(rep.Lines[0].Text), maxLine)
}

// TestBufferSplits: where the read buffer splits lines changes nothing.
func TestBufferSplits(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "2025-01-02 INFO step %d %s\n", i, strings.Repeat("ok ", i*7))
		switch i {
		case 5:
			b.WriteString("Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'port'\n")
		case 11:
			b.WriteString("=== RUN   TestX\n    x_test.go:3: got 1, want 2\n--- FAIL: TestX (0.00s)\n")
		case 17:
			b.WriteString(strings.Repeat("y", 300) + " error: deep in a long line\n")
		case 23:
			b.WriteString("thread 'main' panicked at src/main.rs:2:5:\nboom\n")
		case 29:
			b.WriteString("\nE   assert 1 == 2\n\x1b[31mfatal\x1b[0m: red\r\n")
		}
	}
	b.WriteString("tail line without newline")
	in := b.String()
	want := explainOut(t, in, "")
	require.Equal(t, ShowsCause, want.Shows)
	defer func(n int) { readSize = n }(readSize)
	for _, n := range []int{7, 64, 301, 4099} {
		readSize = n
		got := explainOut(t, in, "")
		assert.Equal(t, want, got, "read size %d", n)
	}
}

// TestAnchorsCoverShapes: every line classify accepts holds an anchor, so
// the prefilter can never hide one.
func TestAnchorsCoverShapes(t *testing.T) {
	samples := []string{
		"fatal: x", "error: x", "CONFLICT (content): x", " ! [rejected] main", "Error from server (NotFound): x",
		"web-1 0/1 CrashLoopBackOff 5", "api-0 0/1 ImagePullBackOff", "E1130 05:54:29.625498 5910 memcache.go:265] x",
		"--- FAIL: TestX (0.00s)", "FAIL\tpkg", "FAIL", "panic: x", "./main.go:8:7: undefined: x", "fatal error: x",
		"error[E0308]: x", "thread 'main' panicked at src/main.rs:2:5:", "npm error x",
		"npm ERR! x", "E       assert 1 == 2", "FAILED tests/x.py::t - x", "make: *** [x] Error 1",
		"make: *** No rule to make target 'x'.  Stop.", "Makefile:3: *** missing separator.  Stop.",
		"Main.java:1: error: x", "Traceback (most recent call last):", "ValueError: x", "Exception in thread \"main\" x",
		"Caused by: java.io.IOException: x", "2025 ERROR x", "level=error msg=x", "ERROR:root:x", "collect2: error: x",
		"x: undefined reference to `f'", "x: not found", "x: Permission denied", "i/o timeout", "timed out", "x: No such file",
		"cannot x", "can't x", "couldn't x", "could not x", "unable to x", "connection refused", "merge conflict",
		"rejected x", "aborted", "Segmentation fault", "failed", "failure", "exception", "not ok 1 - x", "# fail 2",
		"3 errors", "error: |-", "x.c:1:2: warning: failed x", "hint: rejected x", "INFO: x failed",
		"Automatic merge failed; x", "During handling of the above exception, another exception occurred:",
		"test x ... FAILED", "failures:", "test result: FAILED. x", "TypeError [ERR_X]: x", "Uncaught Error: x",
		"● suite › x", "Expected: 3", "    expected: 31", "a.py:7:11: E0602: Undefined variable 'x'",
		"stack traceback:", "2/3 Test #2: x ....***Failed    0.00 sec",
	}
	for _, s := range samples {
		sc := &scanner{store: newStore(), ring: &ring{}}
		tier, _ := sc.classify([]byte(s), 1)
		if tier == tierNone && sc.state.next == "" {
			t.Errorf("sample %q is not a candidate: fix the sample", s)
			continue
		}
		assert.GreaterOrEqual(t, pfOnce().index([]byte(s)), 0, "no anchor in %q", s)
	}
}

// TestTextBound: the text stays under 12 lines, each line bounded, for
// any mix of long, multi-line and hostile input.
func TestTextBound(t *testing.T) {
	long := strings.Repeat("é", 500)
	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf("--flag-%d=%s", i, long)
	}
	code := 2
	for _, tc := range []struct {
		name string
		meta Meta
		out  string
	}{
		{"many distinct errors", exited(1), func() string {
			var b strings.Builder
			for i := 0; i < 100; i++ {
				fmt.Fprintf(&b, "error: problem %s number %c\n", long, 'a'+i%26)
			}
			return b.String()
		}()},
		{"many tail lines", exited(0), strings.Repeat("progress line\n", 100)},
		{"hostile meta", Meta{Argv: append([]string{"a\nb", "c\x1bd"}, many...), Cwd: "/tmp/x\ny", Status: StatusSignaled,
			Signal: "SIG\nTERM", Note: "cut\nhere\rnow", Truncated: true, Redactions: 3, StartedAt: t0, EndedAt: &t0p2}, "error: x\n"},
		{"unknown status", Meta{Status: "weird\nstatus", ExitCode: &code}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Explain(Input{Meta: tc.meta, Streams: []Stream{{Name: "stdout", R: strings.NewReader(tc.out)}}})
			require.NoError(t, err)
			var b bytes.Buffer
			require.NoError(t, rep.WriteText(&b))
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			assert.Less(t, len(got), 12, "text:\n%s", b.String())
			for _, l := range got {
				assert.LessOrEqual(t, len(l), 700, "line too long: %q", l)
			}
		})
	}
}

// TestText pins the whole text of one report.
func TestText(t *testing.T) {
	rep := explainOut(t, lines("ok  \texample.com/m/a\t0.01s", "--- FAIL: TestTotal (0.00s)",
		"    billing_test.go:7: Total(10, 20) = 31, want 30", "FAIL", "FAIL\texample.com/m/billing\t0.02s", "FAIL"), "")
	rep.Meta.Argv = []string{"go", "test", "./...", "-run", "Test Total"}
	rep.Argc = 5
	rep.Meta.Cwd = "/src/my app"
	assert.Equal(t, `$ go test ./... -run 'Test Total'  # in '/src/my app'
exited with code 1 after 2.3s
cause (4 of 5 matching lines), then the rest of the short output:
stdout:3: billing_test.go:7: Total(10, 20) = 31, want 30
stdout:2: --- FAIL: TestTotal (0.00s)
stdout:4: FAIL (x2)
stdout:5: FAIL	example.com/m/billing	0.02s
stdout:1: ok  	example.com/m/a	0.01s
stdout:6: FAIL
`, rep.String())
}

// TestTextQuoting: argv and cwd are quoted so a shell takes them back.
func TestTextQuoting(t *testing.T) {
	meta := exited(1)
	meta.Argv = []string{"echo", "", "a b", "it's", "a\nb", "\x1b[1m", "bad\xffutf8", "héllo"}
	meta.Cwd = "/src/my app"
	rep, err := Explain(Input{Meta: meta, Streams: []Stream{{Name: "stdout", R: strings.NewReader("")}}})
	require.NoError(t, err)
	first, _, _ := strings.Cut(rep.String(), "\n")
	assert.Equal(t, `$ echo '' 'a b' 'it'\''s' $'a\nb' $'\e[1m' $'bad\xffutf8' 'héllo'  # in '/src/my app'`, first)
}

// TestTextNoRawControls: nothing taken from the recording reaches the
// terminal as a control sequence: not ESC, and not the 8-bit CSI (U+009B)
// or OSC (U+009D) introducers, whether in UTF-8 or as raw bytes.
func TestTextNoRawControls(t *testing.T) {
	const hostile = "x\x1b[2J\u009b2J\u009d52;c;aGk=\u009c\x9b\x9d\a\ry"
	code := 1
	for _, tc := range []struct {
		name string
		meta Meta
		out  string
		want string // the value, escaped
	}{
		{"argv", Meta{Argv: []string{"sh", hostile}, Status: StatusExited, ExitCode: &code, StartedAt: t0, EndedAt: &t0p2}, "", `[2J`},
		{"cwd", Meta{Argv: []string{"ls"}, Cwd: "/tmp/" + hostile, Status: StatusExited, ExitCode: &code, StartedAt: t0, EndedAt: &t0p2}, "", `[2J`},
		{"note", Meta{Argv: []string{"ls"}, Note: hostile, Status: StatusExited, ExitCode: &code, StartedAt: t0, EndedAt: &t0p2}, "", `[2J`},
		{"cut note", Meta{Argv: []string{"ls"}, Note: hostile, Truncated: true, Status: StatusExited, ExitCode: &code, StartedAt: t0, EndedAt: &t0p2}, "", `[2J`},
		{"signal", Meta{Argv: []string{"ls"}, Signal: hostile, Status: StatusSignaled, StartedAt: t0, EndedAt: &t0p2}, "", `[2J`},
		{"timeout signal", Meta{Argv: []string{"ls"}, Signal: hostile, Status: StatusTimedOut, StartedAt: t0, EndedAt: &t0p2}, "", `[2J`},
		{"status", Meta{Argv: []string{"ls"}, Status: hostile}, "", `[2J`},
		{"output line", exited(1), "error: " + hostile + "\n", "x\uFFFD\uFFFD"},
		// cleaned as a terminal shows it: raw invalid bytes are U+FFFD
		{"tail line", exited(0), "ok " + hostile + "\n", "x\uFFFD\uFFFD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Explain(Input{Meta: tc.meta, Streams: []Stream{{Name: "stdout", R: strings.NewReader(tc.out)}}})
			require.NoError(t, err)
			text := rep.String()
			require.Contains(t, text, tc.want, "the value is shown, escaped")
			for _, bad := range []string{"\x1b", "\u009b", "\u009d", "\u009c", "\x9b", "\x9d", "\a", "\r"} {
				assert.NotContains(t, text, bad, "%q in:\n%s", bad, text)
			}
			assert.True(t, utf8.ValidString(text), "%q", text)
		})
	}
}

func TestCut(t *testing.T) {
	assert.Equal(t, "abc", cut("abc", 3))
	assert.Equal(t, "a…", cut("abcdef", 4))
	s := cut(strings.Repeat("é", 101), 200)
	assert.LessOrEqual(t, len(s), 200)
	assert.True(t, strings.HasSuffix(s, "…"))
	assert.True(t, utf8Valid(s))
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "?") == s }

// TestRedact: the redactor sees every string the report prints.
func TestRedact(t *testing.T) {
	const secret = "hunter2-s3cret"
	redact := func(s string) string { return strings.ReplaceAll(s, secret, "[redacted]") }
	meta := exited(1)
	meta.Argv = []string{"deploy", "--token=" + secret}
	meta.Cwd = "/home/" + secret
	meta.Note = "cut at " + secret
	meta.Truncated = true
	for _, tc := range []struct{ name, out string }{
		{"cause lines", "error: auth failed for " + secret + "\n"},
		{"tail lines", "using " + secret + "\ndone\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Explain(Input{Meta: meta, Redact: redact, Streams: []Stream{{Name: "stdout", R: strings.NewReader(tc.out)}}})
			require.NoError(t, err)
			text := rep.String()
			js, err := rep.JSON()
			require.NoError(t, err)
			for _, out := range []string{text, string(js)} {
				assert.NotContains(t, out, secret)
				assert.Contains(t, out, "[redacted]")
			}
			assert.Contains(t, text, "--token=[redacted]")
			assert.Contains(t, text, "# in '/home/[redacted]'")
			assert.Contains(t, text, "recording cut: cut at [redacted]")
		})
	}
	t.Run("a secret cut by the line bound is still redacted", func(t *testing.T) {
		line := "error: " + strings.Repeat("a", TextLineBytes-10) + secret + "\n"
		rep, err := Explain(Input{Meta: meta, Redact: redact, Streams: []Stream{{Name: "stdout", R: strings.NewReader(line)}}})
		require.NoError(t, err)
		js, err := rep.JSON()
		require.NoError(t, err)
		assert.NotContains(t, rep.String(), "hunter2")
		assert.NotContains(t, string(js), "hunter2")
	})
}

// TestOutcomes: every status reads as what happened, with its duration.
func TestOutcomes(t *testing.T) {
	code := 3
	now := func() time.Time { return t0.Add(5 * time.Minute) }
	end := t0.Add(30 * time.Second)
	for _, tc := range []struct {
		meta Meta
		want string
	}{
		{Meta{Status: StatusExited, ExitCode: &code, StartedAt: t0, EndedAt: &t0p2}, "exited with code 3 after 2.3s"},
		{Meta{Status: StatusExited, StartedAt: t0, EndedAt: &t0p2}, "exited (code unknown) after 2.3s"},
		{Meta{Status: StatusSignaled, Signal: "SIGTERM", StartedAt: t0, EndedAt: &t0p2}, "killed by SIGTERM after 2.3s"},
		{Meta{Status: StatusTimedOut, Signal: "SIGKILL", StartedAt: t0, EndedAt: &end}, "timed out after 30.0s (killed by SIGKILL)"},
		{Meta{Status: StatusFailedToStart, Note: "exec: \"nope\": executable file not found in $PATH"}, "failed to start"},
		{Meta{Status: StatusIncomplete, StartedAt: t0}, "incomplete: the recorder stopped before the command ended (started 5m00s ago)"},
		{Meta{Status: StatusRunning, StartedAt: t0}, "running for 5m00s"},
		{Meta{Status: StatusExited, ExitCode: &code, StartedAt: t0, EndedAt: &t0}, "exited with code 3 after 0ms"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			rep, err := Explain(Input{Meta: tc.meta, Now: now})
			require.NoError(t, err)
			assert.Equal(t, tc.want, rep.Outcome())
			assert.Equal(t, tc.want, strings.Split(rep.String(), "\n")[1][:len(tc.want)])
		})
	}
	t.Run("running recording shows its output so far", func(t *testing.T) {
		rep, err := Explain(Input{Meta: Meta{Argv: []string{"server"}, Status: StatusRunning, StartedAt: t0}, Now: now,
			Streams: []Stream{{Name: "stdout", R: strings.NewReader("listening on :8080\n")}}})
		require.NoError(t, err)
		assert.Equal(t, "$ server\nrunning for 5m00s\nno error lines; last 1 lines:\nstdout:1: listening on :8080\n", rep.String())
		js, err := rep.JSON()
		require.NoError(t, err)
		assert.Contains(t, string(js), `"status":"running"`)
		assert.Contains(t, string(js), `"duration_ms":300000`)
		assert.NotContains(t, string(js), `"ended_at"`)
		assert.NotContains(t, string(js), `"exit_code"`)
	})
	t.Run("incomplete recording keeps its partial output", func(t *testing.T) {
		rep, err := Explain(Input{Meta: Meta{Argv: []string{"build"}, Status: StatusIncomplete, StartedAt: t0}, Now: now,
			Streams: []Stream{{Name: "stderr", R: strings.NewReader("compiling\nerror: out of memory\n")}}})
		require.NoError(t, err)
		assert.Equal(t, "$ build\nincomplete: the recorder stopped before the command ended (started 5m00s ago)\ncause (1 of 1 matching lines), then the rest of the short output:\nstderr:2: error: out of memory\nstderr:1: compiling\n", rep.String())
	})
}

// TestEmpty: no output at all, and streams without readers.
func TestEmpty(t *testing.T) {
	for _, streams := range [][]Stream{
		nil,
		{{Name: "stdout"}, {Name: "stderr"}},
		{{Name: "stdout", R: strings.NewReader("")}, {Name: "stderr", R: strings.NewReader("\n\n  \n")}},
	} {
		rep, err := Explain(Input{Meta: exited(0), Streams: streams})
		require.NoError(t, err)
		assert.Equal(t, ShowsPass, rep.Shows)
		assert.Empty(t, rep.Lines)
		assert.Equal(t, "$ tool run  # in /src/app\nexited with code 0 after 2.3s\npassed; no output\n", rep.String())
		js, err := rep.JSON()
		require.NoError(t, err)
		var obj map[string]any
		require.NoError(t, json.Unmarshal(js, &obj))
		assert.Equal(t, "pass", obj["shows"])
		assert.Equal(t, []any{}, obj["lines"])
		assert.Equal(t, []any{}, obj["cut"])
	}
	rep, err := Explain(Input{})
	require.NoError(t, err)
	assert.Equal(t, "$ (no command recorded)\nstatus unknown\nno error lines; no output\n", rep.String())
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

func TestReadError(t *testing.T) {
	_, err := Explain(Input{Streams: []Stream{{Name: "stderr", R: io.MultiReader(strings.NewReader("a\n"), failingReader{})}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "read stderr: disk on fire")
}

// TestJSON pins the shape of one object.
func TestJSON(t *testing.T) {
	rep := explainOut(t, "", lines("b.c:4:20: error: 'total' undeclared", "make: *** [<builtin>: b.o] Error 1"))
	rep.Meta.Redactions = 2
	js, err := rep.JSON()
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"ref": "s1/7", "argv": ["tool", "run"], "argc": 2, "cwd": "/src/app",
		"status": "exited", "exit_code": 1,
		"started_at": "2025-01-02T03:04:05Z", "ended_at": "2025-01-02T03:04:07.31Z", "duration_ms": 2310,
		"outcome": "exited with code 1 after 2.3s", "truncated": false, "redactions": 2,
		"shows": "cause", "matched": 2,
		"lines": [
			{"stream": "stderr", "line": 1, "text": "b.c:4:20: error: 'total' undeclared", "count": 1, "kind": "compiler"},
			{"stream": "stderr", "line": 2, "text": "make: *** [<builtin>: b.o] Error 1", "count": 1, "kind": "summary"}
		],
		"streams": [{"name": "stdout", "lines": 0, "bytes": 0}, {"name": "stderr", "lines": 2, "bytes": 71}],
		"cut": []
	}`, string(js))
}

// TestJSONCuts: cuts happen in the stated order, only as far as needed,
// and each is named.
func TestJSONCuts(t *testing.T) {
	longLine := func(tag string, n int) string { return "error: " + tag + " " + strings.Repeat("z", n) + "\n" }
	arg := strings.Repeat("a", 900)
	for _, tc := range []struct {
		name string
		argv []string
		cwd  string
		out  string
		want []string
	}{
		{"nothing to cut", []string{"ls"}, "/", "error: short\n", []string{}},
		{"long texts", []string{"ls"}, "/", longLine("a", 300), []string{CutTexts200}},
		{"argv of 3 KiB fits", []string{arg, arg, arg}, "/", "error: x\n", []string{}},
		{"argv over 8 KiB", repeat(arg, 12), "/", "error: x\n", []string{CutArgv8KiB, CutArgv64}},
		{"argv of 10,000 elements", repeat("--x", 10000), "/", "error: x\n", []string{CutArgv8KiB, CutArgv8}},
		{"control characters inflate escaping", repeat(strings.Repeat("\x01", 1000), 9), strings.Repeat("\x02", 1000),
			longLine("b", 300) + longLine("c", 300) + longLine("d", 300) + longLine("e", 300),
			[]string{CutTexts200, CutTexts80, CutArgv64, CutArgv8, CutCwdNote256}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := exited(1)
			meta.Argv, meta.Cwd = tc.argv, tc.cwd
			rep, err := Explain(Input{Meta: meta, Streams: []Stream{{Name: "stdout", R: strings.NewReader(tc.out)}}})
			require.NoError(t, err)
			js, err := rep.JSON()
			require.NoError(t, err)
			assert.LessOrEqual(t, len(js), MaxJSON)
			var obj struct {
				Argc int      `json:"argc"`
				Cut  []string `json:"cut"`
			}
			require.NoError(t, json.Unmarshal(js, &obj))
			assert.Equal(t, tc.want, obj.Cut)
			assert.Equal(t, len(tc.argv), obj.Argc)
		})
	}
	t.Run("last resort", func(t *testing.T) {
		rep := &Report{Meta: Meta{Ref: strings.Repeat("\x03", 300), Signal: strings.Repeat("\x04", 3000),
			Status: strings.Repeat("\x05", 3000)}, Shows: ShowsCause}
		for i := 0; i < 40; i++ {
			rep.Streams = append(rep.Streams, StreamStat{Name: strings.Repeat("\x06", 100)})
		}
		js, err := rep.JSON()
		require.NoError(t, err)
		assert.LessOrEqual(t, len(js), MaxJSON)
		assert.Contains(t, string(js), CutAll32)
	})
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// distinctErrors yields n distinct error lines of about size bytes in all,
// generated as read, so the test holds no 50 MiB buffer of its own.
type distinctErrors struct {
	n, i, width int
	line        []byte
	off         int
}

func (d *distinctErrors) Read(p []byte) (int, error) {
	if d.off == len(d.line) {
		if d.i == d.n {
			return 0, io.EOF
		}
		// Distinct in letters, not only in numbers, so no two fold.
		var name [8]byte
		for k, v := 0, d.i; k < len(name); k, v = k+1, v/26 {
			name[k] = byte('a' + v%26)
		}
		d.line = append(d.line[:0], "2025-01-02T03:04:05Z ERROR worker "...)
		d.line = append(d.line, name[:]...)
		d.line = append(d.line, " failed:"...)
		for len(d.line) < d.width-1 {
			d.line = append(d.line, ' ')
			d.line = append(d.line, name[:]...)
		}
		d.line = append(d.line[:d.width-1], '\n')
		d.off = 0
		d.i++
	}
	n := copy(p, d.line[d.off:])
	d.off += n
	return n, nil
}

// TestJSONBoundOn100kDistinctErrors: 50 MiB of distinct errors still make
// one object of at most 8 KiB, read in bounded memory.
func TestJSONBoundOn100kDistinctErrors(t *testing.T) {
	const n, width = 100000, 525 // 52.5 MB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	meta := exited(1)
	meta.Argv = []string{"worker-pool", "--all"}
	rep, err := Explain(Input{Meta: meta, Streams: []Stream{{Name: "stderr", R: &distinctErrors{n: n, width: width}}}})
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(32<<20), "explain must not hold the recording")

	assert.Equal(t, int64(n*width), rep.Streams[0].Bytes)
	assert.GreaterOrEqual(t, rep.Streams[0].Bytes, int64(50<<20))
	assert.Equal(t, n, rep.Matched)
	require.Len(t, rep.Lines, MaxCause)
	assert.Equal(t, 1, rep.Lines[0].Line)
	js, err := rep.JSON()
	require.NoError(t, err)
	assert.LessOrEqual(t, len(js), MaxJSON)
	assert.True(t, json.Valid(js))
	assert.Contains(t, string(js), `"cut":["texts cut to 200 bytes"]`)
	text := rep.String()
	assert.Less(t, strings.Count(text, "\n"), 12)
}

// TestExplain64MiBFast guards the speed of explain outside the race
// detector (which slows the byte scan tenfold); the benchmark measures it.
func TestExplain64MiBFast(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("timing is meaningless under -race and skipped with -short")
	}
	data := log64MiB()
	start := time.Now()
	rep := explainLog(t, data)
	took := time.Since(start)
	t.Logf("64 MiB explained in %v", took)
	assert.Equal(t, ShowsCause, rep.Shows)
	assert.Equal(t, "ERROR db: connection to postgres://orders-db:5432 refused", rep.Lines[0].Text[25:])
	assert.Less(t, took, 3*time.Second, "well under a second is the goal; 3s allows a busy machine")
}

// TestPassed: a run that exited 0 has no cause, whatever it printed; its
// report shows its last lines (where it says it passed) after its warnings.
func TestPassed(t *testing.T) {
	out := lines("Traceback (most recent call last):", "  File \"a.py\", line 1", "ConnectionError: first try",
		"warning: the first connection failed, retried", "step 1", "step 2", "step 3", "step 4", "step 5", "Ran 3 tests", "OK")
	rep, err := Explain(Input{Meta: exited(0), Streams: []Stream{{Name: "stderr", R: strings.NewReader(out)}}})
	require.NoError(t, err)
	assert.Equal(t, ShowsPass, rep.Shows)
	assert.Equal(t, []string{"warning: the first connection failed, retried", "step 2", "step 3", "step 4", "step 5", "Ran 3 tests", "OK"}, texts(rep))
	assert.Equal(t, kindContext, rep.Lines[0].Kind)
	assert.Contains(t, rep.String(), "passed; 1 warning lines, then the last 6 lines:")
}

// TestPassLineInTail: a passing run's tail keeps the line that says it
// passed, even when another stream wrote last and a runner printed lines
// after it.
func TestPassLineInTail(t *testing.T) {
	rep, err := Explain(Input{Meta: exited(0), Streams: []Stream{
		{Name: "stdout", R: strings.NewReader(lines("console.log", "a", "b", "c", "d", "e", "f"))},
		{Name: "stderr", R: strings.NewReader(lines("PASS ./a.test.js", "Tests:       3 passed, 3 total", "Snapshots:   0 total",
			"Time:        0.5 s", "Ran all test suites."))},
	}})
	require.NoError(t, err)
	assert.Equal(t, ShowsPass, rep.Shows)
	assert.Contains(t, texts(rep), "Tests:       3 passed, 3 total", "report:\n%s", rep)
	assert.Len(t, rep.Lines, MaxPassTail)
}

// TestBlocks: failure blocks whose cause lines hold no failure word of
// their own, tied to where the failure is reported.
func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, out, first, kind string
		also                   string // another line that must be shown ("" = none)
	}{
		{name: "subtest message far above its FAIL", out: lines("=== RUN   TestA", "=== RUN   TestA/one",
			"    a_test.go:9: Parse(one) is 2", "=== RUN   TestA/two", "    a_test.go:7: parsing two", "--- FAIL: TestA (0.00s)",
			"    --- FAIL: TestA/one (0.00s)", "    --- PASS: TestA/two (0.00s)", "FAIL"),
			first: "a_test.go:9: Parse(one) is 2", kind: kindTest},
		{name: "heading of an indented block under a report prefix", out: lines("==7== Memcheck, a memory error detector",
			"==7== ", "==7== Invalid read of size 8", "==7==    at 0x1: main (m.c:3)", "==7== ",
			"==7== ERROR SUMMARY: 1 errors from 1 contexts"),
			first: "==7== Invalid read of size 8", kind: kindReport},
		{name: "banner in capitals", out: lines("==================", "WARNING: DATA RACE", "Write at 0x1 by goroutine 7:",
			"  main.f()", "--- FAIL: TestF (0.00s)", "FAIL"),
			first: "WARNING: DATA RACE", kind: kindReport},
		{name: "a test runner's failure heading", out: lines("FAIL ./a.test.js", "  ● cart › totals", "",
			"    expect(received).toBe(expected)", "", "Tests:       1 failed, 3 passed, 4 total"),
			first: "● cart › totals", kind: kindTest},
		{name: "an expectation and its actual value", out: lines("Failures:", "", "  1) cart totals",
			"     Failure/Error: expect(t).to eq(3)", "", "       expected: 3", "            got: 2", "",
			"Failed examples:", "", "rspec ./spec/a_spec.rb:4 # cart totals", "2 examples, 1 failure"),
			first: "1) cart totals", kind: kindDetail, also: "expected: 3"},
		{name: "the message before a stack traceback", out: lines("loading", "lua: a.lua:3: the index is nil",
			"stack traceback:", "	[C]: in function 'error'", "	a.lua:3: in main chunk"),
			first: "lua: a.lua:3: the index is nil", kind: kindException},
		{name: "a heading whose detail follows its body", out: lines("", "Error: Missing argument", "",
			"  on main.tf line 1:", "   1: output \"x\" {", "", "The argument \"value\" is required."),
			first: "Error: Missing argument", kind: kindException, also: "The argument \"value\" is required."},
		{name: "the output of a failed test under its result", out: lines("1/2 Test #1: a ....   Passed    0.00 sec",
			"2/2 Test #2: b ....***Failed    0.00 sec", "reading b.conf", "b.conf:4: the value is not a duration", "",
			"50% tests passed, 1 tests failed out of 2"),
			first: "b.conf:4: the value is not a duration", kind: kindTest},
		{name: "a short heading that names nothing over the line that names a position", out: lines(passedRules+"Failure -> test/ledger_test.lua @ 9",
			"ledger nets the fees", "test/ledger_test.lua:10: the net is wrong", "", "1 success / 1 failure / 0 errors"),
			first: "test/ledger_test.lua:10: the net is wrong", kind: kindDetail},
		{name: "a label alone under a test's heading announces its message", out: lines(passedRules+"Failures:", "1) ledger nets the fees",
			"  Message:", "    Expected 7 to equal 9.", "  Stack:", "    at <runner>", "", "4 specs, 1 failure"),
			first: "1) ledger nets the fees", kind: kindDetail, also: "Expected 7 to equal 9."},
		{name: "the first line of an indented block under its heading", out: lines(passedRules+"x  FAIL  ledger nets", "    The values differ",
			"        ++9", "        --7", "", "Total: 1"),
			first: "x  FAIL  ledger nets", kind: kindReport, also: "The values differ"},
		{name: "a long message over its position is not a heading", out: lines(passedRules+"There was 1 failure:", "", "1) LedgerTest::testNet",
			"Failed asserting that 7 is identical to 9.", "", "/src/tests/LedgerTest.php:12", "", "FAILURES!", "Tests: 4, Assertions: 4, Failures: 1."),
			first: "1) LedgerTest::testNet", kind: kindDetail, also: "Failed asserting that 7 is identical to 9."},
		{name: "a count of errors is about the located line above it", out: lines(passedRules+"tr.po:9: the plural forms of the entry differ",
			"potool: found 1 fatal error"),
			first: "tr.po:9: the plural forms of the entry differ", kind: kindDetail},
		{name: "a count of errors over a line that names no position", out: lines(passedRules+"the plural forms of the entry differ",
			"potool: found 1 fatal error"),
			first: "potool: found 1 fatal error", kind: kindTerm},
		{name: "a linter's error code among conventions", out: lines("a.py:1:0: C0114: Missing module docstring",
			"a.py:4:4: C0103: Variable name \"T\" has an invalid name", "a.py:7:11: E0602: Undefined variable 'x'"),
			first: "a.py:7:11: E0602: Undefined variable 'x'", kind: kindCompiler},
		{name: "code quoted in a pytest section", out: lines("____ test_x ____", "", "    def connect(timeout=2):",
			"        if timeout is not None:", "            sock.settimeout(timeout)", "E       OSError: unreachable", "",
			"==== short test summary info ====", "FAILED a.py::test_x - OSError: unreachable"),
			first: "E       OSError: unreachable", kind: kindTest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := explainOut(t, tc.out, "")
			require.NotEmpty(t, rep.Lines, "report:\n%s", rep)
			assert.Equal(t, tc.first, rep.Lines[0].Text, "report:\n%s", rep)
			assert.Equal(t, tc.kind, rep.Lines[0].Kind)
			if tc.also != "" {
				assert.Contains(t, texts(rep), tc.also, "report:\n%s", rep)
			}
		})
	}
}

// TestKeepReason: a long line whose reason lies past the shown part loses
// its preamble, not its reason; the redactor sees the whole line first.
func TestKeepReason(t *testing.T) {
	prefix := strings.Repeat("k=v ", 60)
	rep, err := Explain(Input{Meta: exited(1), Redact: func(s string) string { return strings.ReplaceAll(s, "k=v", "k=*") },
		Streams: []Stream{{Name: "stderr", R: strings.NewReader(prefix + "level=error msg=disk quota reached\n")}}})
	require.NoError(t, err)
	require.Len(t, rep.Lines, 1)
	text := rep.Lines[0].Text
	assert.True(t, strings.HasPrefix(text, ellipsis), text)
	assert.True(t, strings.HasSuffix(text, "level=error msg=disk quota reached"), text)
	assert.NotContains(t, text, "k=v")
	assert.Contains(t, rep.String(), "disk quota reached")
	assert.Equal(t, "short error line", keepReason("short error line"))
}

// A line too long to show names its files by their last element, so the
// message after two long paths is shown; a short path is kept whole.
func TestKeepReasonPaths(t *testing.T) {
	dir := "/tmp/work/" + strings.Repeat("a-section-that-is-not-closed-", 3) + "x"
	line := "apache2: Syntax error on line 9 of " + dir + "/httpd.conf: " + dir + "/httpd.conf:9: <Directory> was not closed."
	require.Greater(t, len(line), TextLineBytes)
	got := keepReason(line)
	assert.Equal(t, "apache2: Syntax error on line 9 of "+ellipsis+"/httpd.conf: "+ellipsis+"/httpd.conf:9: <Directory> was not closed.", got)
	rep := explainOut(t, lines(append(strings.Split(strings.Repeat("step\n", ShortOutput), "\n"), line)...), "")
	assert.Contains(t, rep.String(), "<Directory> was not closed.")
	short := "error: src/a.c:3: 'x' undeclared " + strings.Repeat("y", TextLineBytes)
	assert.Equal(t, short, keepReason(short), "no path to shorten")
}

// TestCutStreamListedOnce: a stream given as its head and its tail is one
// stream of the recording in the report.
func TestCutStreamListedOnce(t *testing.T) {
	rep, err := Explain(Input{Meta: exited(1), Streams: []Stream{
		{Name: "stdout", R: strings.NewReader("head one\nhead two\n")},
		{Name: "stdout", R: strings.NewReader("tail one\n"), FirstLine: 5001},
		{Name: "stderr", R: strings.NewReader("")},
	}})
	require.NoError(t, err)
	assert.Equal(t, []StreamStat{{Name: "stdout", Lines: 5001, Bytes: 27}, {Name: "stderr"}}, rep.Streams)
}

// CauseBlock is WriteText's cause block, cut to n lines; a report with no
// cause has none.
func TestCauseBlock(t *testing.T) {
	// long enough not to be shown whole (its Rest would follow the cause)
	rep := explainOut(t, lines("building", "step 1", "step 2", "step 3", "step 4", "step 5", "step 6", "step 7",
		"src/a.c:3:1: error: 'x' undeclared", "src/b.c:9:2: error: 'y' undeclared", "done"), "")
	require.Equal(t, ShowsCause, rep.Shows)
	require.Empty(t, rep.Rest)
	var b strings.Builder
	require.NoError(t, rep.WriteText(&b))
	all := rep.CauseBlock(100)
	assert.Contains(t, b.String(), strings.Join(all, "\n")+"\n", "the same lines as the text report")
	one := rep.CauseBlock(1)
	require.Len(t, one, 2)
	assert.Equal(t, fmt.Sprintf("cause (1 of %d matching lines):", rep.Matched), one[0])
	assert.Equal(t, all[1], one[1])
	assert.Nil(t, rep.CauseBlock(0))

	code := 0
	pass, err := Explain(Input{Meta: Meta{Status: StatusExited, ExitCode: &code}, Streams: []Stream{{Name: "stdout", R: strings.NewReader("error: a warning-ish line\nok\n")}}})
	require.NoError(t, err)
	assert.Nil(t, pass.CauseBlock(5), "a run that passed has no cause")
	tail := explainOut(t, lines("one", "two"), "")
	assert.Nil(t, tail.CauseBlock(5), "no line matched: no cause")

	// a short output: the block is the cause alone, its header says no more
	short := explainOut(t, lines("building", "src/a.c:3:1: error: 'x' undeclared", "done"), "")
	require.NotEmpty(t, short.Rest)
	assert.Equal(t, []string{fmt.Sprintf("cause (1 of %d matching lines):", short.Matched), "stdout:2: src/a.c:3:1: error: 'x' undeclared"}, short.CauseBlock(5))
}
