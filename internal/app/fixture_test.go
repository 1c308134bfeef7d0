package app

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testSecret is the value of testSecretVar, which redaction keeps out of
// everything rac stores and shows.
const (
	testSecretVar = "RAC_APP_TEST_API_TOKEN"
	testSecret    = "s3cr3t-Value-9f8e7d6c5b4a"
)

// fixture is an App over a store in t.TempDir(), an environment of its
// own (never the test process's) and a clock that moves one second per
// reading, so times are known and ordered.
type fixture struct {
	t     testing.TB
	home  string
	env   map[string]string
	mu    sync.Mutex
	clock time.Time
	set   Settings
	warns []string
	notes []string
}

func newFixture(t testing.TB) *fixture {
	home := filepath.Join(t.TempDir(), "store")
	require.NoError(t, os.Mkdir(home, 0o700))
	return &fixture{
		t: t, home: home,
		env:   map[string]string{"RAC_HOME": home, "PATH": os.Getenv("PATH"), testSecretVar: testSecret},
		clock: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC),
		set: Settings{
			Session: "test", RedactEnabled: true, RedactEnvNames: []string{testSecretVar},
			MaxBytes: 1 << 30, HeadBytes: 1 << 20, GC: GCLimits{Off: true},
		},
	}
}

func (f *fixture) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clock = f.clock.Add(time.Second)
	return f.clock
}

// advance moves the clock on by d.
func (f *fixture) advance(d time.Duration) {
	f.mu.Lock()
	f.clock = f.clock.Add(d)
	f.mu.Unlock()
}

func (f *fixture) appEnv() Env {
	return Env{
		Getenv: func(k string) string { return f.env[k] },
		Environ: func() []string {
			out := make([]string, 0, len(f.env))
			for k, v := range f.env {
				out = append(out, k+"="+v)
			}
			sort.Strings(out)
			return out
		},
		Now: f.now, Version: "test",
	}
}

// app is a fresh App over the fixture (its settings as they are now);
// its warnings and notes are kept.
func (f *fixture) app() *App {
	a := New(f.appEnv(), f.set)
	a.Warn = func(m string) { f.mu.Lock(); f.warns = append(f.warns, m); f.mu.Unlock() }
	a.Note = func(m string) { f.mu.Lock(); f.notes = append(f.notes, m); f.mu.Unlock() }
	return a
}

func (f *fixture) warnings() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.warns...)
}

// record makes a finished recording from text on stream, fed from a
// reader, with the outcome out.
func (f *fixture) record(argv []string, streams map[string]string, out Outcome) string {
	f.t.Helper()
	ctx := context.Background()
	var names []string
	for s := range streams {
		names = append(names, s)
	}
	sort.Strings(names)
	if len(names) == 2 {
		names = []string{StreamStdout, StreamStderr}
	}
	rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: argv, Cwd: "/work", Streams: names})
	require.NoError(f.t, err)
	for _, s := range names {
		require.NoError(f.t, rec.Feed(ctx, s, strings.NewReader(streams[s])))
	}
	require.NoError(f.t, rec.Finish(out))
	return rec.Ref()
}

// read is rac out read of ref with req's other fields.
func (f *fixture) read(req ReadRequest) string {
	f.t.Helper()
	var b strings.Builder
	_, err := f.app().Read(context.Background(), req, &b)
	require.NoError(f.t, err)
	return b.String()
}
