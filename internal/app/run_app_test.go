package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/runspec"
)

// runFiles are a run's streams: stdin on /dev/null, stdout and stderr two
// files of the test (two pipes then, as under an agent).
type runFiles struct {
	in, out, err *os.File
}

func newRunFiles(t *testing.T) runFiles {
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	t.Cleanup(func() { null.Close() })
	dir := t.TempDir()
	mk := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return f
	}
	return runFiles{in: null, out: mk("out"), err: mk("err")}
}

func (r runFiles) text(f *os.File) string {
	b, err := os.ReadFile(f.Name())
	if err != nil {
		return "read: " + err.Error()
	}
	return string(b)
}

func (f *fixture) runReq(files runFiles, argv ...string) RunRequest {
	return RunRequest{
		Argv: argv, Stdin: files.in, Stdout: files.out, Stderr: files.err,
		Announce: runspec.AnnounceBoth, Mode: "pipe", DrainTimeout: time.Second, KillAfter: time.Second,
	}
}

// rac run feeds its recording from the child: the output is forwarded as
// without rac and recorded redacted, and the result says what happened.
func TestRunRecordsTheChild(t *testing.T) {
	for _, tc := range []struct {
		name     string
		script   string
		status   string
		code     int
		signal   string
		endLine  bool
		out, err string
	}{
		{name: "exit 0", script: `echo out; echo err >&2`, status: StatusExited, out: "out\n", err: "err\n"},
		{name: "exit 3", script: `echo "key $` + testSecretVar + `"; exit 3`, status: StatusExited, code: 3, endLine: true,
			out: "key " + testSecret + "\n"},
		{name: "killed", script: `echo last; kill -KILL $$`, status: StatusSignaled, signal: "SIGKILL", endLine: true, out: "last\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			files := newRunFiles(t)
			a := f.app()
			var started string
			var ended *CommandEnded
			req := f.runReq(files, "sh", "-c", tc.script)
			req.Announce = runspec.AnnounceFailed
			req.OnStart = func(ref string) { started = ref }
			req.OnExit = func(e CommandEnded) { ended = &e }
			res, err := a.Run(context.Background(), req)
			require.NoError(t, err)
			assert.Empty(t, started, "failed prints no start line")
			require.NotNil(t, ended)
			assert.Empty(t, ended.StartErr)
			assert.Equal(t, tc.status, res.Outcome.Status)
			assert.Equal(t, tc.code, res.Outcome.ExitCode)
			assert.Equal(t, tc.signal, res.Outcome.Signal)
			assert.Equal(t, tc.endLine, res.EndLine())
			assert.Equal(t, RecordPipes, res.Mode)
			assert.Equal(t, "test/0001-sh", res.Ref)
			assert.Equal(t, tc.out, files.text(files.out), "forwarded as without rac")
			assert.Equal(t, tc.err, files.text(files.err))
			assert.Equal(t, int64(len(tc.out)), res.Outcome.Received[StreamStdout].Bytes)

			stored := f.read(ReadRequest{Ref: res.Ref, Stream: StreamStdout})
			assert.NotContains(t, stored, testSecret)
			assert.Equal(t, strings.Count(tc.out, "\n"), strings.Count(stored, "\n"))

			v := res.View()
			assert.Equal(t, tc.status, v.Status)
			require.NotNil(t, v.Ref)
			assert.Equal(t, res.Ref, *v.Ref)
			if tc.signal != "" {
				require.NotNil(t, v.Signal)
				assert.Equal(t, tc.signal, *v.Signal)
				assert.Nil(t, v.ExitCode)
			} else {
				require.NotNil(t, v.ExitCode)
				assert.Equal(t, tc.code, *v.ExitCode)
			}
		})
	}
}

// A command that cannot start: 127, a redacted reason for the front end
// before anything else, and a recording that says so.
func TestRunFailedToStart(t *testing.T) {
	f := newFixture(t)
	files := newRunFiles(t)
	var ended CommandEnded
	req := f.runReq(files, "./no-such-"+testSecret)
	req.OnExit = func(e CommandEnded) { ended = e }
	res, err := f.app().Run(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, StatusFailedToStart, res.Outcome.Status)
	assert.Equal(t, ExitNoCommand, res.Outcome.ExitCode)
	assert.Equal(t, ExitCode{Code: ExitNoCommand}, RunExit(res))
	assert.NotEmpty(t, ended.StartErr)
	assert.NotContains(t, ended.StartErr, testSecret)
	require.NotEmpty(t, res.Notes)
	assert.NotContains(t, strings.Join(res.Notes, " "), testSecret)
	list, err := f.app().List(context.Background(), Scope{})
	require.NoError(t, err)
	require.Len(t, list.Entries, 1)
	assert.Equal(t, StatusFailedToStart, list.Entries[0].Status)
}

// The summary replaces the output: nothing is forwarded, and its lines
// hold the command, the outcome, each stream's head and tail and the
// reference, built from redacted output even with --no-redact.
func TestRunSummary(t *testing.T) {
	for _, redactOn := range []bool{true, false} {
		t.Run(map[bool]string{true: "redact", false: "no-redact"}[redactOn], func(t *testing.T) {
			f := newFixture(t)
			f.set.RedactEnabled = redactOn
			files := newRunFiles(t)
			req := f.runReq(files, "sh", "-c", `for i in 1 2 3 4 5 6; do echo line $i; done; echo "tok $`+testSecretVar+`" >&2; exit 1`)
			req.Summary, req.SummaryHead, req.SummaryTail = true, 2, 2
			res, err := f.app().Run(context.Background(), req)
			require.NoError(t, err)
			assert.Empty(t, files.text(files.out), "the summary replaces the output")
			assert.Empty(t, files.text(files.err))
			require.NotEmpty(t, res.Summary)
			all := strings.Join(res.Summary, "\n")
			assert.NotContains(t, all, testSecret)
			assert.Equal(t, "exec sh -c "+res.Summary[0][len("exec sh -c "):], res.Summary[0])
			assert.Equal(t, "exited with code 1", res.Summary[1])
			assert.Contains(t, all, "stdout: (6 lines, 42 bytes)")
			assert.Contains(t, all, "lines truncated")
			// the line that says how to read more takes one of the 4
			assert.Contains(t, all, "stdout: (6 lines, 42 bytes)\n  ... (5 lines truncated)\n  line 6\n", "stdout gets what stderr leaves of the shared window")
			assert.Contains(t, all, "stderr: (1 lines")
			assert.Equal(t, "rac: more: rac out explain "+res.Ref+"; rac out read "+res.Ref+" (all of it)", res.Summary[len(res.Summary)-2], "no line matched: no cause")
			assert.Nil(t, res.Cause)
			assert.Equal(t, "rac: ref "+res.Ref, res.Summary[len(res.Summary)-1])
		})
	}
}

// A failed run whose output the summary cuts carries the cause explain
// finds, with its stream and line number, and the command that reads
// around it, in the same number of lines; a run that passed never does.
func TestRunSummaryCarriesTheCause(t *testing.T) {
	f := newFixture(t)
	script := `seq 1 1500; echo "src/parser.c:217:14: error: 'tok' undeclared"; seq 1502 3000; exit %d`
	for _, code := range []int{2, 0} {
		req := f.runReq(newRunFiles(t), "sh", "-c", fmt.Sprintf(script, code))
		req.Summary, req.SummaryHead, req.SummaryTail = true, 10, 10
		res, err := f.app().Run(context.Background(), req)
		require.NoError(t, err)
		all := strings.Join(res.Summary, "\n")
		assert.Len(t, res.Summary, 25, all)
		if code == 0 {
			assert.NotContains(t, all, "cause")
			assert.NotContains(t, all, "rac: more:")
			assert.Nil(t, res.Cause)
			continue
		}
		assert.Equal(t, "exited with code 2", res.Summary[1])
		assert.Equal(t, "cause (1 of 1 matching lines):", res.Summary[2], all)
		assert.Equal(t, "  stdout:1501: src/parser.c:217:14: error: 'tok' undeclared", res.Summary[3])
		assert.Equal(t, &RunCause{Stream: "stdout", Line: 1501}, res.Cause)
		assert.Equal(t, "rac: more: rac out read "+res.Ref+" --stream stdout --lines 1491:1511 (around the cause); rac out explain "+res.Ref, res.Summary[23])
		assert.Contains(t, all, "  3000\nrac: more:", "the tail stays whole")
		assert.Equal(t, &RunCause{Stream: "stdout", Line: 1501}, res.View().Cause)
	}
}

// A bad RAC_SESSION costs the recording, never the command; a bad
// --session is rac's own usage error and nothing runs.
func TestRunUnrecorded(t *testing.T) {
	f := newFixture(t)
	f.set.Session = ""
	f.env["RAC_SESSION"] = "Bad Name"
	files := newRunFiles(t)
	req := f.runReq(files, "sh", "-c", "echo ran")
	req.Summary = true
	res, err := f.app().Run(context.Background(), req)
	require.NoError(t, err)
	assert.Empty(t, res.Ref)
	assert.Equal(t, "rac: not recorded", res.Summary[len(res.Summary)-1])
	require.Len(t, f.warnings(), 1)
	assert.Contains(t, f.warnings()[0], "not recording this command")
	assert.False(t, res.EndLine() && res.Ref != "")
	assert.Nil(t, res.View().Ref)

	f = newFixture(t)
	f.set.Session = "Bad Name"
	_, err = f.app().Run(context.Background(), f.runReq(newRunFiles(t), "true"))
	assert.True(t, IsUsage(err), "%v", err)

	f = newFixture(t)
	f.set.GC.MinFreeBytes = 1 << 62
	res, err = f.app().Run(context.Background(), f.runReq(newRunFiles(t), "true"))
	require.NoError(t, err)
	assert.Empty(t, res.Ref)
	require.Len(t, f.warnings(), 1)
	assert.Contains(t, f.warnings()[0], "not recording this command: only")
}

func TestCheckRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  RunRequest
		want string
	}{
		{"no command", RunRequest{Announce: runspec.AnnounceAuto}, "missing command"},
		{"negative duration", RunRequest{Argv: []string{"x"}, Announce: runspec.AnnounceAuto, Timeout: -1}, "must not be negative"},
		{"negative summary", RunRequest{Argv: []string{"x"}, Announce: runspec.AnnounceAuto, SummaryTail: -1}, "--summary-head"},
	} {
		err := CheckRun(tc.req)
		require.Error(t, err, tc.name)
		assert.True(t, IsUsage(err), tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
		_, err = New(Env{}, Settings{}).Run(context.Background(), tc.req)
		assert.True(t, IsUsage(err), tc.name)
	}
	assert.NoError(t, CheckRun(RunRequest{Argv: []string{"x"}, Announce: runspec.AnnounceNone}))
}

// Cancelling the context stops the command as a SIGTERM to rac would,
// and the recording says so.
func TestRunCancelled(t *testing.T) {
	f := newFixture(t)
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// the command says it is up; then the caller gives up
		line, _ := bufio.NewReader(pr).ReadString('\n')
		if line == "up\n" {
			cancel()
		}
	}()
	req := RunRequest{Argv: []string{"sh", "-c", "echo up; exec sleep 60"}, Stdin: null, Stdout: pw, Stderr: pw,
		Announce: runspec.AnnounceNone, Mode: "pipe", DrainTimeout: time.Second, KillAfter: time.Second}
	res, err := f.app().Run(ctx, req)
	pw.Close()
	require.NoError(t, err)
	assert.Equal(t, StatusSignaled, res.Outcome.Status)
	assert.Equal(t, "SIGTERM", res.Outcome.Signal)
	assert.Equal(t, RecordCombined, res.Mode, "stdout and stderr were one pipe")

	_, err = f.app().Run(ctx, req)
	assert.ErrorIs(t, err, context.Canceled, "a cancelled context runs nothing")
}

// Whatever the child leaves in the environment, it runs with RAC_REF
// naming its recording, and without an inherited one when unrecorded.
func TestChildEnv(t *testing.T) {
	env := []string{"A=1", "RAC_REF=old/0001-x", "B=2"}
	assert.Equal(t, []string{"A=1", "B=2"}, childEnv(env, nil))
	f := newFixture(t)
	rec, err := f.app().CreateRecording(context.Background(), RecordingRequest{Argv: []string{"x"}})
	require.NoError(t, err)
	defer func() { require.NoError(t, rec.Finish(Outcome{Status: StatusExited})) }()
	assert.Equal(t, []string{"A=1", "B=2", "RAC_REF=" + rec.Ref()}, childEnv(env, rec))
}

// A recording made inside another names it as its parent; a RAC_REF that
// is not a qualified reference is no parent.
func TestParentRef(t *testing.T) {
	assert.Equal(t, "s/0001-make", parentRef("s/0001-make"))
	assert.Empty(t, parentRef("0001-make"), "not qualified")
	assert.Empty(t, parentRef("../../etc"), "never a path")
	f := newFixture(t)
	f.env["RAC_REF"] = "outer/0007-make"
	ref := f.record([]string{"git"}, nil, Outcome{Status: StatusExited})
	list, err := f.app().List(context.Background(), Scope{})
	require.NoError(t, err)
	assert.Equal(t, ref, list.Entries[0].Ref)
	assert.Equal(t, "outer/0007-make", list.Entries[0].Parent)
}
