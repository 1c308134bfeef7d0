package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/search"
)

// three recordings in session test: make (two streams, failed), git
// (combined, passed) and a passthrough vim; one in session other.
func seeded(t *testing.T) *fixture {
	f := newFixture(t)
	f.record([]string{"make", "test"}, map[string]string{
		StreamStdout: "compiling\nok pkg/a\nFAIL pkg/b\n",
		StreamStderr: "error: boom at b.go:3\n",
	}, Outcome{Status: StatusExited, ExitCode: 2})
	f.record([]string{"git", "status"}, map[string]string{StreamCombined: "On branch main\nnothing to commit\n"}, Outcome{Status: StatusExited})
	f.record([]string{"vim"}, nil, Outcome{Status: StatusExited})
	f.set.Session = "other"
	f.record([]string{"ls"}, map[string]string{StreamStdout: "a\nb\n"}, Outcome{Status: StatusExited})
	f.set.Session = "test"
	return f
}

func TestList(t *testing.T) {
	f := seeded(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		scope Scope
		refs  []string
	}{
		{"current session", Scope{}, []string{"test/0001-make-test", "test/0002-git-status", "test/0003-vim"}},
		{"named session", Scope{Session: "other"}, []string{"other/0001-ls"}},
		{"all sessions, by start time", Scope{All: true}, []string{"test/0001-make-test", "test/0002-git-status", "test/0003-vim", "other/0001-ls"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := f.app().List(ctx, tc.scope)
			require.NoError(t, err)
			var refs []string
			for _, e := range res.Entries {
				refs = append(refs, e.Ref)
			}
			assert.Equal(t, tc.refs, refs)
		})
	}
	_, err := f.app().List(ctx, Scope{Session: "nobody"})
	var nf *resolve.NotFoundError
	assert.ErrorAs(t, err, &nf)
	_, err = f.app().List(ctx, Scope{Session: "Bad Name"})
	assert.True(t, IsUsage(err))

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = f.app().List(cancelled, Scope{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestRead(t *testing.T) {
	f := seeded(t)
	for _, tc := range []struct {
		name string
		req  ReadRequest
		want string
	}{
		{"both streams in arrival order", ReadRequest{Ref: "0001-make-test"}, "compiling\nok pkg/a\nFAIL pkg/b\nerror: boom at b.go:3\n"},
		{"last", ReadRequest{Ref: "last", Stream: StreamCombined}, ""},
		{"one stream", ReadRequest{Ref: "1", Stream: StreamStderr}, "error: boom at b.go:3\n"},
		{"head", ReadRequest{Ref: "0001-make-test", Stream: StreamStdout, Head: 1, HeadSet: true}, "compiling\n"},
		{"tail", ReadRequest{Ref: "0001-make-test", Stream: StreamStdout, Tail: 2, TailSet: true}, "ok pkg/a\nFAIL pkg/b\n"},
		{"head 0", ReadRequest{Ref: "0001-make-test", HeadSet: true}, ""},
		{"lines of the only stream", ReadRequest{Ref: "0002-git-status", Lines: "2"}, "nothing to commit\n"},
		{"lines range", ReadRequest{Ref: "0001-make-test", Stream: StreamStdout, Lines: "2:3"}, "ok pkg/a\nFAIL pkg/b\n"},
		{"raw", ReadRequest{Ref: "0002-git-status", Raw: true}, "On branch main\nnothing to commit\n"},
		{"other session, qualified", ReadRequest{Ref: "other/0001-ls"}, "a\nb\n"},
		{"json", ReadRequest{Ref: "0002-git-status", JSON: true, Head: 1},
			`{"stream":"combined","line":1,"text":"On branch main"}` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "last" {
				return // the newest is vim's, metadata only: see below
			}
			assert.Equal(t, tc.want, f.read(tc.req))
		})
	}
	for _, tc := range []struct {
		name string
		req  ReadRequest
		want string
	}{
		{"bad stream", ReadRequest{Ref: "1", Stream: "stdin"}, "invalid --stream"},
		{"negative head", ReadRequest{Ref: "1", Head: -1}, "--head and --tail"},
		{"bad lines", ReadRequest{Ref: "1", Lines: "x:y"}, ""},
		{"no such stream", ReadRequest{Ref: "0001-make-test", Stream: StreamCombined}, "has no combined stream"},
		{"combined only", ReadRequest{Ref: "0002-git-status", Stream: StreamStdout}, "holds one combined stream"},
		{"lines of two streams", ReadRequest{Ref: "0001-make-test", Lines: "1"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.app().Read(context.Background(), tc.req, io.Discard)
			require.Error(t, err)
			assert.True(t, IsUsage(err), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	_, err := f.app().Read(context.Background(), ReadRequest{Ref: "0009-none"}, io.Discard)
	var nf *resolve.NotFoundError
	assert.ErrorAs(t, err, &nf)

	// a passthrough recording holds no output, and the reader is told why
	f.notes = nil
	assert.Empty(t, f.read(ReadRequest{Ref: "last"}))
	assert.NotEmpty(t, f.notes)
}

// Reading stops when the caller cancels: between lines, and while a
// followed recording waits for more.
func TestReadCancelled(t *testing.T) {
	f := seeded(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.app().Read(ctx, ReadRequest{Ref: "0001-make-test"}, io.Discard)
	assert.ErrorIs(t, err, context.Canceled)

	rec, err := f.app().CreateRecording(context.Background(), RecordingRequest{Argv: []string{"tail"}, Streams: []string{StreamStdout}})
	require.NoError(t, err)
	defer func() { require.NoError(t, rec.Finish(Outcome{Status: StatusExited})) }()
	w, err := rec.Stream(StreamStdout)
	require.NoError(t, err)
	_, err = w.Write([]byte("first\n"))
	require.NoError(t, err)
	ctx, cancel = context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	go func() {
		// cancel once the first line came through: the follow then waits
		line, _ := bufio.NewReader(pr).ReadString('\n')
		if line == "first\n" {
			cancel()
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	_, err = f.app().Read(ctx, ReadRequest{Ref: rec.Ref(), Follow: true}, pw)
	pw.Close()
	assert.ErrorIs(t, err, context.Canceled)
}

// A followed recording is read to its end, and the result says how it
// ended.
func TestReadFollow(t *testing.T) {
	f := seeded(t)
	var b strings.Builder
	ended, err := f.app().Read(context.Background(), ReadRequest{Ref: "0001-make-test", Stream: StreamStderr, Follow: true}, &b)
	require.NoError(t, err)
	assert.Equal(t, "error: boom at b.go:3\n", b.String())
	require.NotNil(t, ended)
	assert.Equal(t, "test/0001-make-test", ended.Ref)
	assert.Equal(t, StatusExited, ended.Status)
	require.NotNil(t, ended.ExitCode)
	assert.Equal(t, 2, *ended.ExitCode)
}

func TestGrep(t *testing.T) {
	f := seeded(t)
	ctx := context.Background()
	var hits []string
	write := func(w io.Writer, ref string, h search.Hit, sep bool) error {
		hits = append(hits, fmt.Sprintf("%s:%s:%d:%s:%v", ref, h.Stream, h.N, h.Text, sep))
		_, err := fmt.Fprintf(w, "%s:%d\n", ref, h.N)
		return err
	}
	var out strings.Builder
	n, err := f.app().Grep(ctx, GrepRequest{Text: "b", Write: write, Context: 1}, &out)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, []string{
		"test/0001-make-test:stdout:3:FAIL pkg/b:false",
		"test/0001-make-test:stderr:1:error: boom at b.go:3:true",
		"test/0002-git-status:combined:1:On branch main:true",
	}, hits)
	assert.Equal(t, "test/0001-make-test:3\ntest/0001-make-test:1\ntest/0002-git-status:1\n", out.String())

	out.Reset()
	n, err = f.app().Grep(ctx, GrepRequest{Text: "A", IgnoreCase: true, JSON: true, Scope: Scope{All: true}}, &out)
	require.NoError(t, err)
	assert.Equal(t, 5, n) // other's "a"; make's "ok pkg/a", "FAIL pkg/b", "boom at"; git's "On branch main"
	var first GrepHit
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(out.String(), "\n", 2)[0]), &first))
	assert.Equal(t, GrepHit{Ref: "other/0001-ls", Session: "other", Name: "0001-ls", Stream: StreamStdout, Line: 1,
		Text: "a", Before: []GrepLine{}, After: []GrepLine{}}, first)

	n, err = f.app().Grep(ctx, GrepRequest{Text: "no such text", JSON: true}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, ExitCode{Code: ExitNotFound}, GrepExit(n, err))

	_, err = f.app().Grep(ctx, GrepRequest{Text: ""}, io.Discard)
	assert.True(t, IsUsage(err))
	_, err = f.app().Grep(ctx, GrepRequest{Text: "x", Context: -1}, io.Discard)
	assert.True(t, IsUsage(err))
	_, err = f.app().Grep(ctx, GrepRequest{Text: "x"}, io.Discard)
	assert.ErrorContains(t, err, "no writer")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = f.app().Grep(cancelled, GrepRequest{Text: "b", JSON: true}, io.Discard)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = f.app().GrepEach(cancelled, GrepRequest{Text: "b"}, 100, func(GrepHit) error { return nil })
	assert.ErrorIs(t, err, context.Canceled)
}

func TestExplainAndPath(t *testing.T) {
	f := seeded(t)
	ctx := context.Background()
	rep, err := f.app().Explain(ctx, "0001-make-test")
	require.NoError(t, err)
	assert.Equal(t, StatusExited, rep.Meta.Status)
	var texts []string
	for _, l := range rep.Lines {
		texts = append(texts, l.Text)
	}
	assert.Contains(t, texts, "error: boom at b.go:3", "the cause")

	dir, err := f.app().Path(ctx, "0001-make-test", "")
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(f.home, "sessions", "test", "0001-make-test"), dir)
	p, err := f.app().Path(ctx, "0001-make-test", StreamStderr)
	require.NoError(t, err)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "error: boom at b.go:3\n", string(b))
	_, err = f.app().Path(ctx, "0001-make-test", "both")
	assert.True(t, IsUsage(err))

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = f.app().Explain(cancelled, "0001-make-test")
	assert.ErrorIs(t, err, context.Canceled)
	_, err = f.app().Path(cancelled, "0001-make-test", "")
	assert.ErrorIs(t, err, context.Canceled)
}

// gc.max_age removes the sessions nothing was recorded in for longer; a
// dry run only says what it would remove.
func TestGC(t *testing.T) {
	f := seeded(t)
	ctx := context.Background()
	f.set.GC.MaxAge = 24 * time.Hour
	f.mu.Lock()
	f.clock = time.Now().Add(48 * time.Hour)
	f.mu.Unlock()

	res, err := f.app().GC(ctx, true, false)
	require.NoError(t, err)
	assert.True(t, res.DryRun)
	assert.Equal(t, 2, res.RemovedSessions)
	list, err := f.app().List(ctx, Scope{All: true})
	require.NoError(t, err)
	assert.Len(t, list.Entries, 4, "a dry run removes nothing")

	res, err = f.app().GC(ctx, false, false)
	require.NoError(t, err)
	assert.Equal(t, 2, res.RemovedSessions)
	assert.Equal(t, 4, res.RemovedRecordings)
	list, err = f.app().List(ctx, Scope{All: true})
	require.NoError(t, err)
	assert.Empty(t, list.Entries)

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = f.app().GC(cancelled, false, false)
	assert.ErrorIs(t, err, context.Canceled)
	res, err = f.app().GC(ctx, false, true)
	require.NoError(t, err, "the background rest of an automatic pass")
	assert.Zero(t, res.RemovedSessions)
}

// Automatic gc runs at most once per gc.interval, and not at all when it
// is off or the caller has gone.
func TestAutoGC(t *testing.T) {
	f := seeded(t)
	f.set.GC.MaxAge = 24 * time.Hour
	f.set.GC.Interval = time.Hour
	f.set.GC.Off = false
	f.mu.Lock()
	f.clock = time.Now().Add(48 * time.Hour)
	f.mu.Unlock()
	// the in-process pass gets the time it needs: past autoBudget it
	// would go to the background, which the fixture has none of
	auto := func(a *App) *App { a.autoBudget = time.Hour; return a }
	count := func() int {
		list, err := f.app().List(context.Background(), Scope{All: true})
		require.NoError(t, err)
		return len(list.Entries)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	f.app().AutoGC(cancelled)
	assert.Equal(t, 4, count(), "a cancelled caller runs no gc")
	off := f.set
	off.GC.Off = true
	New(f.appEnv(), off).AutoGC(context.Background())
	assert.Equal(t, 4, count(), "gc off")

	auto(f.app()).AutoGC(context.Background())
	assert.Equal(t, 0, count(), "due: the old sessions go")
	f.record([]string{"new"}, nil, Outcome{Status: StatusExited})
	// older than gc.max_age by the clock, but half an hour after the
	// last pass
	f.advance(30 * time.Minute)
	auto(f.app()).AutoGC(context.Background())
	assert.Equal(t, 1, count(), "not due again within gc.interval")
	f.advance(time.Hour)
	auto(f.app()).AutoGC(context.Background())
	assert.Equal(t, 0, count(), "due again after gc.interval")
}

// The rest of a long automatic pass runs in a process of its own, with
// the front end's command line, in /, with the store's location made
// absolute.
func TestDetachGC(t *testing.T) {
	f := newFixture(t)
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	wd, err := os.Getwd()
	require.NoError(t, err)
	f.env["RAC_HOME"] = "rel/store"
	env := f.appEnv()
	env.BackgroundGC = func() (string, []string, error) {
		return "/bin/sh", []string{"sh", "-c", `echo "$(pwd) $RAC_HOME" > "$0"`, fifo}, nil
	}
	a := New(env, f.set)
	a.detachGC()
	r, err := os.Open(fifo) // blocks until the detached process opens it
	require.NoError(t, err)
	defer r.Close()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "/ "+filepath.Join(wd, "rel/store")+"\n", string(b))

	New(f.appEnv(), f.set).detachGC() // no command line: nothing to start
}

func TestRemoveAndPurge(t *testing.T) {
	f := seeded(t)
	ctx := context.Background()
	res, err := f.app().Remove(ctx, []string{"0001-make-test", "0009-none"})
	require.NoError(t, err)
	require.Len(t, res.RefErrors, 1)
	assert.Equal(t, ExitCode{Code: ExitNotFound}, RemoveExit(res))
	assert.Equal(t, 1, res.Total().RemovedRecordings)

	res, err = f.app().Remove(ctx, []string{"0002-git-status", "../x"})
	assert.ErrorIs(t, err, ErrNothingRemoved, "an invalid reference removes nothing")
	assert.Equal(t, ExitCode{Code: ExitUsage}, RemoveExit(res))

	asked := ""
	_, err = f.app().Purge(ctx, PurgeRequest{Session: "test", Confirm: func(what string) (bool, error) { asked = what; return false, nil }})
	assert.ErrorIs(t, err, ErrCancelled)
	assert.Equal(t, "session test", asked)

	res, err = f.app().Purge(ctx, PurgeRequest{Session: "test"})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Total().RemovedSessions)
	assert.Equal(t, 2, res.Total().RemovedRecordings)
	assert.NoError(t, RemoveExit(res))

	for _, req := range []PurgeRequest{{}, {Session: "x", All: true}, {Session: "Bad Name"}} {
		_, err = f.app().Purge(ctx, req)
		assert.True(t, IsUsage(err), "%+v: %v", req, err)
	}
	res, err = f.app().Purge(ctx, PurgeRequest{Session: "test"})
	require.NoError(t, err)
	assert.Zero(t, res.Total().RemovedRecordings, "purged already")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = f.app().Purge(cancelled, PurgeRequest{All: true})
	assert.ErrorIs(t, err, context.Canceled)
	_, err = f.app().Remove(cancelled, []string{"other/0001-ls"})
	assert.ErrorIs(t, err, context.Canceled)
	res, err = f.app().Purge(ctx, PurgeRequest{All: true})
	require.NoError(t, err)
	assert.Equal(t, 1, res.Total().RemovedSessions)
}

func TestSessionsAndCompletion(t *testing.T) {
	f := seeded(t)
	ctx := context.Background()
	id, view, err := f.app().Session()
	require.NoError(t, err)
	assert.Equal(t, "test", id.Name)
	assert.Equal(t, "test", view.Name)

	var refs []string
	for _, c := range f.app().Candidates(ctx, "", "", false) {
		refs = append(refs, c.Ref)
	}
	assert.Equal(t, []string{"last", "0001-make-test", "0002-git-status", "0003-vim"}, refs)
	cs := f.app().Candidates(ctx, "other", "other/", true)
	require.Len(t, cs, 1)
	assert.Equal(t, "other/0001-ls", cs[0].Ref)
	assert.Equal(t, []string{"other"}, f.app().SessionsStarting("o"))

	recent, err := f.app().RecentSessions(5)
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"test", "other"}, recent)

	b := f.app().WithSession("other")
	list, err := b.List(ctx, Scope{})
	require.NoError(t, err)
	require.Len(t, list.Entries, 1)
	assert.Equal(t, "other/0001-ls", list.Entries[0].Ref)
	_, ok, err := b.HarnessSession(os.Getpid(), 0)
	require.NoError(t, err)
	assert.False(t, ok, "no harness note")
}

// rac doctor looks and changes nothing; a store it can write and a known
// session are not failures.
func TestDoctor(t *testing.T) {
	f := seeded(t)
	checks := f.app().Doctor(DoctorEnv{
		Self: "/opt/rac/bin/rac", Cwd: t.TempDir(),
		LookPath: func(string) (string, error) { return "/usr/bin/rac", nil },
	})
	byName := map[string]Check{}
	for _, c := range checks {
		byName[c.Name] = c
		assert.Contains(t, []string{CheckOK, CheckWarn, CheckFail}, c.Status, c.Name)
	}
	require.NotEmpty(t, checks)
	assert.Equal(t, CheckWarn, checks[0].Status, "another rac first on PATH: %+v", checks[0])
	fails := 0
	for _, c := range checks {
		if c.Status == CheckFail {
			fails++
		}
	}
	assert.Equal(t, fails > 0, DoctorExit(checks) != nil)
	list, err := f.app().List(context.Background(), Scope{All: true})
	require.NoError(t, err)
	assert.Len(t, list.Entries, 4, "doctor changes nothing")
}

// TestGrepMemoryLimit: rac out grep and the MCP server's grep set their
// soft memory limit while they search, and put the one before back,
// unless GOMEMLIMIT (the user's own) is in the environment.
func TestGrepMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	f := seeded(t)
	const outside = int64(1 << 40)
	var during []int64
	write := func(io.Writer, string, search.Hit, bool) error {
		during = append(during, debug.SetMemoryLimit(-1))
		return nil
	}
	each := func(GrepHit) error {
		during = append(during, debug.SetMemoryLimit(-1))
		return nil
	}
	debug.SetMemoryLimit(outside)
	f.env["GOMEMLIMIT"] = "100MiB"
	_, err := f.app().Grep(context.Background(), GrepRequest{Text: "b", Write: write}, io.Discard)
	require.NoError(t, err)
	_, err = f.app().GrepEach(context.Background(), GrepRequest{Text: "b"}, 100, each)
	require.NoError(t, err)
	require.NotEmpty(t, during)
	for _, l := range during {
		assert.Equal(t, outside, l, "GOMEMLIMIT set: left as it is")
	}
	delete(f.env, "GOMEMLIMIT")
	during = nil
	_, err = f.app().Grep(context.Background(), GrepRequest{Text: "b", Write: write}, io.Discard)
	require.NoError(t, err)
	_, err = f.app().GrepEach(context.Background(), GrepRequest{Text: "b"}, 100, each)
	require.NoError(t, err)
	require.NotEmpty(t, during)
	for _, l := range during {
		assert.Equal(t, int64(grepMemoryLimit), l, "while grep searches")
	}
	assert.Equal(t, outside, debug.SetMemoryLimit(-1), "the limit before, once it is done")
}
