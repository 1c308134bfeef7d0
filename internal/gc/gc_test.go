package gc

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/gc/gctest"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/store/tomb"
	"github.com/rac-cli/rac/internal/units"
)

type fixture struct {
	t    *testing.T
	dir  string // holds the store and things outside it
	root string
	st   *store.Store
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	st, err := store.CreateStore(root)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return &fixture{t: t, dir: dir, root: root, st: st}
}

func (f *fixture) session(name string) *store.Session {
	sd, err := f.st.Session(name, true)
	require.NoError(f.t, err)
	return sd
}

// record makes a finished recording with out on stdout and returns its name.
func (f *fixture) record(sess string, out string, argv ...string) string {
	sd := f.session(sess)
	defer sd.Close()
	if len(argv) == 0 {
		argv = []string{"echo", "x"}
	}
	w, err := record.Create(record.CreateOptions{Session: sd, Argv: argv, Streams: []string{record.Stdout, record.Stderr}, Mode: record.ModePipes})
	require.NoError(f.t, err)
	_, err = w.Sink(record.Stdout).Write([]byte(out))
	require.NoError(f.t, err)
	code := 0
	require.NoError(f.t, w.Finish(record.Footer{Status: record.StatusExited, ExitCode: &code, EndedAt: time.Now()}))
	return w.Name
}

// running starts a recording that stays running (its lock held) until
// the test ends.
func (f *fixture) running(sess string) string {
	sd := f.session(sess)
	defer sd.Close()
	w, err := record.Create(record.CreateOptions{Session: sd, Argv: []string{"sleep", "1000"}, Streams: []string{record.Stdout}})
	require.NoError(f.t, err)
	_, _ = w.Sink(record.Stdout).Write([]byte("started\n"))
	f.t.Cleanup(func() { _ = w.Finish(record.Footer{Status: record.StatusExited}) })
	return w.Name
}

func (f *fixture) path(rel ...string) string {
	return filepath.Join(append([]string{f.root, store.SessionsDir}, rel...)...)
}

// backdate sets the times of everything under rel (store-relative, under
// sessions/) to d before now.
func (f *fixture) backdate(d time.Duration, rel ...string) {
	t := time.Now().Add(-d)
	require.NoError(f.t, filepath.Walk(f.path(rel...), func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, t, t)
	}))
}

func (f *fixture) run(o Options) *Result {
	l, err := Lock(f.st, true)
	require.NoError(f.t, err)
	defer l.Close()
	res, err := Run(f.st, o)
	require.NoError(f.t, err)
	return res
}

func exists(p string) bool { _, err := os.Lstat(p); return err == nil }

// onDisk is what du -s --block-size=1 says of p: the blocks of every file
// and folder under it, p included (gc counts the same, on its own code).
func onDisk(t *testing.T, p string) int64 {
	var n int64
	require.NoError(t, filepath.Walk(p, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && (fi.Mode().IsRegular() || fi.IsDir()) {
			n += fi.Sys().(*syscall.Stat_t).Blocks * 512
		}
		return err
	}))
	return n
}

func names(t *testing.T, f *fixture, sess string) []string {
	sd, err := f.st.Session(sess, false)
	require.NoError(t, err)
	defer sd.Close()
	n, err := record.ListNames(sd)
	require.NoError(t, err)
	return n
}

func TestSessionOverLimitKeepsNewest(t *testing.T) {
	f := newFixture(t)
	var all []string
	for i := range 10 {
		all = append(all, f.record("s", strings.Repeat(fmt.Sprint(i), 2000)))
	}
	limit := onDisk(t, f.path("s")) / 2
	res := f.run(Options{MaxSessionBytes: limit})
	assert.LessOrEqual(t, onDisk(t, f.path("s")), limit)
	left := names(t, f, "s")
	require.NotEmpty(t, left)
	assert.Equal(t, all[len(all)-len(left):], left, "the newest recordings are kept")
	assert.Equal(t, len(all)-len(left), res.RemovedRecordings)
	assert.Zero(t, res.RemovedSessions)
	assert.Equal(t, "session over "+units.Bytes(limit), res.Recordings[0].Reason)
	assert.Equal(t, "s/"+all[0], res.Recordings[0].Ref)
	assert.Equal(t, res.Stores[0].BytesAfter, onDisk(t, f.root), "the projected size is the real one")
	assert.Equal(t, res.Stores[0].BytesBefore-res.Stores[0].BytesAfter, res.FreedBytes)

	sd := f.session("s")
	defer sd.Close()
	entries, err := tomb.Load(sd.Root())
	require.NoError(t, err)
	require.Len(t, entries, res.RemovedRecordings)
	assert.Equal(t, all[0], entries[0].Name)
	assert.Equal(t, "echo x", entries[0].Command)
	assert.Equal(t, tomb.ByGC, entries[0].By)
}

func TestAgeRemovesOldSessionKeepsYoung(t *testing.T) {
	f := newFixture(t)
	old1 := f.record("old", "a\n")
	f.record("old", "b\n")
	young := f.record("young", "c\n")
	f.backdate(8*24*time.Hour, "old")
	f.backdate(6*24*time.Hour, "young")
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour})

	assert.Empty(t, names(t, f, "old"))
	assert.Equal(t, []string{young}, names(t, f, "young"))
	assert.Equal(t, 1, res.RemovedSessions)
	assert.Equal(t, 2, res.RemovedRecordings)
	assert.Equal(t, "session older than 7 days", res.Sessions[0].Reason)
	// the folder keeps its counter, so numbering continues
	for _, keep := range []string{"seq", "lock", tomb.File} {
		assert.FileExists(t, f.path("old", keep), keep)
	}
	sd := f.session("old")
	n, err := sd.NextSeq()
	sd.Close()
	require.NoError(t, err)
	assert.EqualValues(t, 3, n)
	sd = f.session("old")
	entries, err := tomb.Load(sd.Root())
	sd.Close()
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, old1, entries[0].Name)
	assert.Equal(t, tomb.KindSession, entries[2].Kind)
	assert.EqualValues(t, 2, entries[2].Seq)
	// bookkeeping written by the pass does not make the session young again
	res = f.run(Options{MaxAge: 7 * 24 * time.Hour})
	assert.Zero(t, res.RemovedSessions)
}

func TestStoreCapRemovesOldestStoreWide(t *testing.T) {
	f := newFixture(t)
	a1 := f.record("a", strings.Repeat("a", 4000))
	a2 := f.record("a", strings.Repeat("a", 4000))
	b1 := f.record("b", strings.Repeat("b", 4000))
	b2 := f.record("b", strings.Repeat("b", 4000))
	f.backdate(3*time.Hour, "a", a1)
	f.backdate(2*time.Hour, "b", b1)
	f.backdate(1*time.Hour, "a", a2)
	// each removal frees a recording (rec on disk, over two blocks) and
	// adds a tombstone line (a block for a session's first)
	rec := onDisk(t, f.path("a", a1))
	require.Greater(t, rec, int64(2*store.FallbackBlock))
	limit := onDisk(t, f.root) - rec/2
	res := f.run(Options{MaxStoreBytes: limit, MaxSessionBytes: 1 << 30, MaxAge: 7 * 24 * time.Hour})
	assert.Equal(t, []string{a2}, names(t, f, "a"))
	assert.Equal(t, []string{b1, b2}, names(t, f, "b"))
	assert.LessOrEqual(t, onDisk(t, f.root), limit)
	require.Len(t, res.Recordings, 1)
	assert.Equal(t, "store over "+units.Bytes(limit), res.Recordings[0].Reason)

	limit = onDisk(t, f.root) - rec - rec/2
	f.run(Options{MaxStoreBytes: limit})
	assert.Empty(t, names(t, f, "a"))
	assert.Equal(t, []string{b2}, names(t, f, "b"))
	assert.LessOrEqual(t, onDisk(t, f.root), limit)
}

func TestRunningRecordingSurvives(t *testing.T) {
	f := newFixture(t)
	run := f.running("s")
	done := f.record("s", strings.Repeat("x", 5000))
	f.backdate(30*24*time.Hour, "s")
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: 1, MaxStoreBytes: 1})
	assert.Equal(t, []string{run}, names(t, f, "s"))
	assert.Equal(t, []Kept{{Store: f.root, Ref: "s/" + run, Why: "running"}}, res.Kept[:1])
	// a running recording keeps its session young: the age rule does not
	// fire, the size rules remove the finished one
	assert.Zero(t, res.RemovedSessions)
	require.Len(t, res.Recordings, 1)
	assert.Equal(t, "s/"+done, res.Recordings[0].Ref)
}

// snapshot lists every entry under p with its size, mode and times.
func snapshot(t *testing.T, p string) map[string]string {
	m := map[string]string{}
	require.NoError(t, filepath.Walk(p, func(q string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		m[q] = fmt.Sprintf("%v %d %v", fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		return nil
	}))
	return m
}

func TestDryRunChangesNothing(t *testing.T) {
	f := newFixture(t)
	for range 3 {
		f.record("old", "old\n")
		f.record("big", strings.Repeat("b", 3000))
	}
	f.backdate(10*24*time.Hour, "old")
	require.NoError(t, os.Mkdir(f.path("big", ".new-0099-x-00000000"), 0o700))
	f.backdate(48*time.Hour, "big", ".new-0099-x-00000000")
	before := snapshot(t, f.root)
	// a dry run takes no lock: it writes nothing at all
	res, err := Run(f.st, Options{DryRun: true, MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: 4000, MaxStoreBytes: 1})
	require.NoError(t, err)
	assert.Equal(t, before, snapshot(t, f.root))
	assert.True(t, res.DryRun)
	assert.Equal(t, 1, res.RemovedSessions)
	assert.Equal(t, 6, res.RemovedRecordings)
	assert.Equal(t, []string{"sessions/big/.new-0099-x-00000000"}, res.Temporaries)
	assert.Positive(t, res.FreedBytes)

	// the real pass does what the dry run said
	real := f.run(Options{MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: 4000, MaxStoreBytes: 1})
	assert.Equal(t, res.Recordings, real.Recordings)
	assert.Equal(t, res.FreedBytes, real.FreedBytes)
}

func TestUnrecognisedFilesAreReportedNotDeleted(t *testing.T) {
	f := newFixture(t)
	name := f.record("s", "x\n")
	outside := filepath.Join(f.dir, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(outside, "0001-evil"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "precious"), []byte("keep"), 0o600))
	require.NoError(t, os.WriteFile(f.path("s", "notes.txt"), []byte("mine"), 0o600))
	require.NoError(t, os.Symlink(outside, f.path("s", "0002-link")))
	require.NoError(t, os.Symlink(outside, f.path("evil")))
	require.NoError(t, syscall.Mkfifo(f.path("s", "fifo"), 0o600))
	require.NoError(t, os.Mkdir(f.path("s", "folder"), 0o700))
	// a symlink inside a recording is removed as a link, never followed
	require.NoError(t, os.Symlink(filepath.Join(outside, "precious"), f.path("s", name, "extra")))
	f.backdate(8*24*time.Hour, "s", name)

	res := f.run(Options{MaxAge: 7 * 24 * time.Hour})
	assert.Equal(t, 1, res.RemovedRecordings)
	assert.ElementsMatch(t, []string{"sessions/evil", "sessions/s/notes.txt", "sessions/s/0002-link", "sessions/s/fifo", "sessions/s/folder"}, res.Unrecognised)
	for _, p := range []string{f.path("s", "notes.txt"), f.path("s", "0002-link"), f.path("s", "fifo"), f.path("s", "folder"), f.path("evil"),
		filepath.Join(outside, "precious"), filepath.Join(outside, "0001-evil")} {
		assert.True(t, exists(p), p)
	}
	b, err := os.ReadFile(filepath.Join(outside, "precious"))
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b))
}

func TestNewerFormatIsRemovedOnlyByAge(t *testing.T) {
	f := newFixture(t)
	newer := f.record("s", strings.Repeat("n", 5000))
	f.record("s", "x\n")
	meta := f.path("s", newer, record.MetaFile)
	b, err := os.ReadFile(meta)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(meta, []byte(strings.Replace(string(b), `"format": 1`, `"format": 2`, 1)), 0o600))

	res := f.run(Options{MaxSessionBytes: 1000, MaxStoreBytes: 1000})
	assert.Contains(t, names(t, f, "s"), newer)
	assert.Equal(t, "s/"+newer, res.Kept[0].Ref)
	assert.Contains(t, res.Kept[0].Why, "newer rac")

	f.backdate(8*24*time.Hour, "s")
	f.run(Options{MaxAge: 7 * 24 * time.Hour})
	assert.Empty(t, names(t, f, "s"))
}

func TestStaleTemporaries(t *testing.T) {
	f := newFixture(t)
	f.record("s", "x\n")
	for _, d := range []string{".new-0005-x-aaaaaaaa", ".new-0006-x-bbbbbbbb", ".gc-0001-x-cccccccc", ".new-0007-x-dddddddd"} {
		require.NoError(t, os.MkdirAll(f.path("s", d), 0o700))
		require.NoError(t, os.WriteFile(f.path("s", d, "meta.json"), []byte("{}"), 0o600))
	}
	require.NoError(t, os.WriteFile(f.path("s", "seq.tmp-0123456789ab"), []byte("1"), 0o600))
	require.NoError(t, os.WriteFile(f.path("s", "seq.tmp-fresh0000000"), []byte("1"), 0o600))
	f.backdate(48*time.Hour, "s", ".new-0005-x-aaaaaaaa")
	f.backdate(48*time.Hour, "s", ".new-0007-x-dddddddd")
	f.backdate(48*time.Hour, "s", "seq.tmp-0123456789ab")
	// an old temporary whose recorder still holds the lock is being created
	sd := f.session("s")
	lk, err := store.LockFile(sd.Root(), ".new-0007-x-dddddddd/lock", false)
	require.NoError(t, err)
	defer lk.Close()
	sd.Close()
	f.backdate(48*time.Hour, "s", ".new-0007-x-dddddddd")

	res := f.run(Options{})
	assert.ElementsMatch(t, []string{"sessions/s/.new-0005-x-aaaaaaaa", "sessions/s/.gc-0001-x-cccccccc", "sessions/s/seq.tmp-0123456789ab"}, res.Temporaries)
	assert.False(t, exists(f.path("s", ".new-0005-x-aaaaaaaa")))
	assert.True(t, exists(f.path("s", ".new-0006-x-bbbbbbbb")), "a fresh one is being created")
	assert.True(t, exists(f.path("s", ".new-0007-x-dddddddd")), "a locked one is being created")
	assert.True(t, exists(f.path("s", "seq.tmp-fresh0000000")))
	assert.Empty(t, res.Unrecognised)
}

func TestTombstonesDroppedAfterTTL(t *testing.T) {
	f := newFixture(t)
	f.record("s", "x\n")
	f.record("s", "y\n")
	l, err := Lock(f.st, true)
	require.NoError(t, err)
	res, err := Purge(f.st, "s", Options{})
	l.Close()
	require.NoError(t, err)
	assert.Equal(t, 2, res.RemovedRecordings)
	require.FileExists(t, f.path("s", tomb.File))

	later := time.Now().Add(29 * 24 * time.Hour)
	f.run(Options{Now: func() time.Time { return later }})
	require.FileExists(t, f.path("s", tomb.File))
	later = time.Now().Add(31 * 24 * time.Hour)
	res = f.run(Options{Now: func() time.Time { return later }})
	assert.NoFileExists(t, f.path("s", tomb.File))
	assert.FileExists(t, f.path("s", "seq"), "the counter outlives the tombstones")
	assert.Positive(t, res.FreedBytes)
}

func TestRemoveAndPurgeLeaveUserTombstones(t *testing.T) {
	f := newFixture(t)
	a := f.record("s", "a\n", "curl", "-H", "Authorization: Bearer secret")
	b := f.record("s", "b\n")
	run := f.running("s")
	l, err := Lock(f.st, true)
	require.NoError(t, err)
	defer l.Close()

	res, err := Remove(f.st, "s", []string{a, run}, Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, res.RemovedRecordings)
	assert.Equal(t, []Kept{{Store: f.root, Ref: "s/" + run, Why: "running"}}, res.Kept)
	assert.Equal(t, []string{b, run}, names(t, f, "s"))

	res, err = Purge(f.st, "s", Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, res.RemovedRecordings)
	assert.Equal(t, 1, res.RemovedSessions)
	assert.Equal(t, []string{run}, names(t, f, "s"))

	sd := f.session("s")
	defer sd.Close()
	entries, err := tomb.Load(sd.Root())
	require.NoError(t, err)
	require.Len(t, entries, 3)
	for _, e := range entries {
		assert.Equal(t, tomb.ByUser, e.By)
		assert.Empty(t, e.Command, "a user's removal keeps no command: it may hold the secret")
	}
	assert.Equal(t, tomb.KindSession, entries[2].Kind)
	assert.EqualValues(t, 2, entries[2].Seq, "the highest number it removed")
	n, err := sd.NextSeq()
	require.NoError(t, err)
	assert.EqualValues(t, 4, n)
}

func TestTombstoneCommandIsRedactedAndBounded(t *testing.T) {
	f := newFixture(t)
	first := f.record("s", strings.Repeat("x", 3000), "deploy", "--token=hunter2", strings.Repeat("y", 500))
	f.record("s", "x\n")
	redact := func(s string) string { return strings.ReplaceAll(s, "hunter2", "[REDACTED]") }
	// room for the second recording and the tombstone file's block
	limit := onDisk(t, f.path("s")) - onDisk(t, f.path("s", first)) + store.FallbackBlock
	f.run(Options{MaxSessionBytes: limit, Redact: redact})
	sd := f.session("s")
	defer sd.Close()
	entries, err := tomb.Load(sd.Root())
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.True(t, strings.HasPrefix(entries[0].Command, "deploy --token=[REDACTED] yyy"), entries[0].Command)
	assert.LessOrEqual(t, len(entries[0].Command), tomb.MaxCommand)
	assert.Less(t, len(tomb.Line(entries[0])), 512)
}

// GC passes beside many recorders and other passes: every recording that
// should stay is complete afterwards; the old session is gone.
func TestConcurrentPassesLoseNothing(t *testing.T) {
	f := newFixture(t)
	for range 3 {
		f.record("old", "old\n")
	}
	f.backdate(8*24*time.Hour, "old")
	var wg sync.WaitGroup
	created := make(chan string, 40)
	for i := range 20 {
		wg.Go(func() { created <- f.record("s", fmt.Sprintf("run %d\n", i)) })
	}
	var errs sync.Map
	for i := range 6 {
		wg.Go(func() {
			l, err := Lock(f.st, i%2 == 0)
			if errors.Is(err, store.ErrLocked) {
				return // an automatic pass skips when another runs
			}
			if err != nil {
				errs.Store(i, err)
				return
			}
			defer l.Close()
			if _, err := Run(f.st, Options{MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: 1 << 30, MaxStoreBytes: 1 << 30}); err != nil {
				errs.Store(i, err)
			}
		})
	}
	wg.Wait()
	close(created)
	errs.Range(func(k, v any) bool { t.Errorf("pass %v: %v", k, v); return true })
	f.run(Options{MaxAge: 7 * 24 * time.Hour})
	left := names(t, f, "s")
	assert.Len(t, left, 20)
	sd := f.session("s")
	defer sd.Close()
	for n := range created {
		r, err := record.Open(sd, n)
		require.NoError(t, err, n)
		assert.Equal(t, record.StatusExited, r.Status)
		r.Close()
	}
	assert.Empty(t, names(t, f, "old"))
	ents, err := os.ReadDir(f.path("s"))
	require.NoError(t, err)
	for _, e := range ents {
		assert.False(t, strings.HasPrefix(e.Name(), "."), "left behind: %s", e.Name())
	}
}

func TestDeadlineStopsAtASafePoint(t *testing.T) {
	f := newFixture(t)
	f.record("s", "x\n")
	f.backdate(8*24*time.Hour, "s")
	l, err := Lock(f.st, true)
	require.NoError(t, err)
	defer l.Close()
	_, err = Run(f.st, Options{MaxAge: 7 * 24 * time.Hour, Deadline: time.Now().Add(-time.Second)})
	assert.ErrorIs(t, err, ErrDeadline)
	assert.Len(t, names(t, f, "s"), 1)
}

func TestLockDueMark(t *testing.T) {
	f := newFixture(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	assert.True(t, Due(f.st, time.Hour, now))
	require.NoError(t, MarkRun(f.st, now))
	assert.False(t, Due(f.st, time.Hour, now.Add(59*time.Minute)))
	assert.True(t, Due(f.st, time.Hour, now.Add(time.Hour)))
	assert.True(t, Due(f.st, time.Hour, now.Add(-time.Hour)), "a clock that went back")
	assert.True(t, Due(f.st, 0, now))

	l, err := Lock(f.st, false)
	require.NoError(t, err)
	_, err = Lock(f.st, false)
	assert.ErrorIs(t, err, store.ErrLocked)
	l.Close()
	l, err = Lock(f.st, false)
	require.NoError(t, err)
	l.Close()
	fi, err := os.Stat(filepath.Join(f.root, LockName))
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm())

	assert.False(t, Large(f.st))
	require.NoError(t, os.WriteFile(filepath.Join(f.root, CacheFile), make([]byte, largeCache+1), 0o600))
	assert.True(t, Large(f.st), "a cache of thousands of recordings: a long pass")
}

func TestFreeBytes(t *testing.T) {
	dir := t.TempDir()
	n, err := FreeBytes(filepath.Join(dir, "not", "yet", "there"))
	require.NoError(t, err)
	assert.Positive(t, n)
}

func TestFormat(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 512: "512 B", 4096: "4 KiB", 1536: "1.5 KiB", 256 << 20: "256 MiB",
		2 << 30: "2 GiB", 212*(1<<20) + 300000: "212 MiB", 1<<20 - 1: "1024 KiB", 5000: "4.9 KiB"} {
		assert.Equal(t, want, units.Bytes(n), n)
	}
	for d, want := range map[time.Duration]string{7 * 24 * time.Hour: "7 days", 24 * time.Hour: "1 day", 36 * time.Hour: "36h",
		90 * time.Minute: "1h30m", 10 * time.Second: "10s"} {
		assert.Equal(t, want, FormatAge(d), d)
	}
}

func TestBenchStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	require.NoError(t, gctest.BenchStore(dir, 3, 5))
	st, err := store.OpenStore(dir)
	require.NoError(t, err)
	defer st.Close()
	sd, err := st.Session("bench-0002", false)
	require.NoError(t, err)
	defer sd.Close()
	ns, err := record.ListNames(sd)
	require.NoError(t, err)
	require.Len(t, ns, 5)
	r, err := record.Open(sd, ns[4])
	require.NoError(t, err)
	assert.Equal(t, record.StatusExited, r.Status)
	r.Close()
	seq, err := sd.NextSeq()
	require.NoError(t, err)
	assert.EqualValues(t, 6, seq)

	// laid out as rac writes them: the first pass reads each footer's
	// summary, and it adds up to what is there
	p0 := newPass(st, Options{})
	require.NoError(t, p0.scan())
	assert.EqualValues(t, 15, p0.summaryHits.Load())
	assert.Equal(t, onDisk(t, dir), p0.rootBytes+sumSessions(p0))

	res, err := Run(st, Options{MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: 256 << 20, MaxStoreBytes: 2 << 30})
	require.NoError(t, err)
	assert.Zero(t, res.RemovedRecordings)
	assert.Empty(t, res.Unrecognised)
	assert.Empty(t, res.Errors)
	assert.Equal(t, onDisk(t, dir), res.Stores[0].BytesAfter)
	fi, err := os.Stat(filepath.Join(dir, CacheFile))
	require.NoError(t, err, "its recordings are settled: the first pass remembers them")
	assert.Equal(t, -store.FileOnDisk(fi), res.FreedBytes)
	p := newPass(st, Options{})
	p.cache, err = loadCache(st, p.late)
	require.NoError(t, err)
	require.NoError(t, p.scan())
	assert.EqualValues(t, 15, p.cacheHits.Load())
}

// scanOnly scans the store as a pass does and says how many recordings
// CacheFile answered for.
func scanOnly(t *testing.T, f *fixture) (*pass, int64) {
	p := newPass(f.st, Options{})
	var err error
	p.cache, err = loadCache(f.st, p.late)
	require.NoError(t, err)
	require.NoError(t, p.scan())
	return p, p.cacheHits.Load()
}

func TestCacheStandsForUnchangedRecordings(t *testing.T) {
	f := newFixture(t)
	var names []string
	for i := range 4 {
		names = append(names, f.record("s", strings.Repeat("x", 1000*(i+1))))
	}
	f.record("young", "just now\n") // not settled: never cached
	f.backdate(2*time.Hour, "s")
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour})
	require.FileExists(t, filepath.Join(f.root, CacheFile))
	assert.Equal(t, onDisk(t, f.root), res.Stores[0].BytesAfter, "the cache is counted as it is written")

	_, hits := scanOnly(t, f)
	assert.EqualValues(t, 4, hits)
	res2 := f.run(Options{MaxAge: 7 * 24 * time.Hour})
	assert.Equal(t, res.Stores[0].BytesAfter, res2.Stores[0].BytesBefore, "same sizes from the cache as from a full scan")
	assert.Zero(t, res2.FreedBytes)

	// a file added to a recording changes its folder: measured anew
	require.NoError(t, os.WriteFile(f.path("s", names[0], "extra"), []byte("12345"), 0o600))
	p, hits := scanOnly(t, f)
	assert.EqualValues(t, 3, hits)
	extra, err := os.Lstat(f.path("s", names[0], "extra"))
	require.NoError(t, err)
	assert.Equal(t, res.Stores[0].BytesAfter+store.FileOnDisk(extra), p.rootBytes+sumSessions(p))

	// backdating (folders included) is seen by the age rule
	f.backdate(8*24*time.Hour, "s")
	res3 := f.run(Options{MaxAge: 7 * 24 * time.Hour})
	assert.Equal(t, 1, res3.RemovedSessions)
	assert.Equal(t, onDisk(t, f.root), res3.Stores[0].BytesAfter)

	// a damaged cache is ignored
	require.NoError(t, os.WriteFile(filepath.Join(f.root, CacheFile), []byte(cacheMagic+"garbage\ns/x 1 2\n"), 0o600))
	_, hits = scanOnly(t, f)
	assert.Zero(t, hits)
}

func sumSessions(p *pass) int64 {
	var n int64
	for _, s := range p.sessions {
		n += s.bytes
	}
	return n
}

// The projected size, cache included, is the real size after removals of
// cached recordings by every rule.
func TestProjectionIsExactWithCache(t *testing.T) {
	f := newFixture(t)
	for i := range 6 {
		f.record("a", strings.Repeat("a", 1500*(i+1)))
		f.record("b", strings.Repeat("b", 1000))
	}
	f.record("c", "c\n")
	f.backdate(3*time.Hour, "a")
	f.backdate(2*time.Hour, "b")
	f.backdate(10*24*time.Hour, "c")
	f.run(Options{}) // fills the cache
	b := names(t, f, "b")
	total, sessLimit := onDisk(t, f.root), onDisk(t, f.path("a"))-4000
	storeLimit := total - 4*onDisk(t, f.path("b", b[0]))
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour, MaxSessionBytes: sessLimit, MaxStoreBytes: storeLimit})
	assert.Equal(t, 1, res.RemovedSessions)
	assert.Greater(t, res.RemovedRecordings, 2)
	assert.Equal(t, onDisk(t, f.root), res.Stores[0].BytesAfter)
	assert.LessOrEqual(t, onDisk(t, f.root), storeLimit)
	assert.LessOrEqual(t, onDisk(t, f.path("a")), sessLimit)
	_, hits := scanOnly(t, f)
	assert.EqualValues(t, len(names(t, f, "a"))+len(names(t, f, "b")), hits)
}

func TestTombstoneFileThatIsNotAFileIsLeftAlone(t *testing.T) {
	f := newFixture(t)
	f.record("s", "x\n")
	outside := filepath.Join(f.dir, "elsewhere")
	require.NoError(t, os.WriteFile(outside, []byte("keep"), 0o600))
	require.NoError(t, os.Symlink(outside, f.path("s", tomb.File)))
	f.backdate(8*24*time.Hour, "s")
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour})
	assert.Equal(t, 1, res.RemovedRecordings)
	require.Len(t, res.Errors, 1)
	assert.Contains(t, res.Errors[0], "not a regular file")
	fi, err := os.Lstat(f.path("s", tomb.File))
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&fs.ModeSymlink, "still the symlink")
	b, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, "keep", string(b))
}

// TestKilledPassLeavesNoDuplicateTombstones: a pass killed after it wrote
// the tombstones and before it removed the recordings (simulated: the
// folders are put back) is run again; the file keeps one entry each.
func TestKilledPassLeavesNoDuplicateTombstones(t *testing.T) {
	f := newFixture(t)
	recs := []string{f.record("s", "a\n", "make"), f.record("s", "b\n", "make", "test")}
	backup := filepath.Join(f.dir, "backup")
	for _, r := range recs {
		require.NoError(t, os.CopyFS(filepath.Join(backup, r), os.DirFS(f.path("s", r))))
	}
	f.backdate(30*24*time.Hour, "s")
	o := Options{MaxAge: 7 * 24 * time.Hour}
	res := f.run(o)
	require.Equal(t, 2, res.RemovedRecordings)
	for _, r := range recs {
		require.NoError(t, os.CopyFS(f.path("s", r), os.DirFS(filepath.Join(backup, r))))
	}
	f.backdate(30*24*time.Hour, "s")
	require.Equal(t, recs, names(t, f, "s"), "as a kill before the removal left it")

	dry := o
	dry.DryRun = true
	plan := f.run(dry)
	res = f.run(o)
	assert.Equal(t, res.Stores[0].BytesAfter, plan.Stores[0].BytesAfter, "the dry run projects the tombstones the pass writes")
	require.Equal(t, 2, res.RemovedRecordings)
	assert.Empty(t, names(t, f, "s"))
	b, err := os.ReadFile(f.path("s", tomb.File))
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(b), "\n"), "two recordings and the session, once each:\n%s", b)
	sd := f.session("s")
	defer sd.Close()
	entries, err := tomb.Load(sd.Root())
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, res.Stores[0].BytesAfter, onDisk(t, f.root), "the projected size is the real one")
}

// Files dated in the future (a backup restored with its times, a touch
// -d) do not keep a session alive until that date: gc takes their change
// time, which no tool sets. A file whose change time is in the future too
// (written while the clock ran ahead) counts as changed now.
func TestFutureDatesDoNotKeepSessions(t *testing.T) {
	f := newFixture(t)
	f.record("restored", "a\n")
	f.record("restored", "b\n")
	f.backdate(-365*24*time.Hour, "restored") // a year ahead
	later := time.Now().Add(8 * 24 * time.Hour)
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour, Now: func() time.Time { return later }})
	assert.Empty(t, names(t, f, "restored"), "aged by when it was restored, not by its dates")
	assert.Equal(t, 1, res.RemovedSessions)

	// the clock behind the files' change times: they count as now
	f = newFixture(t)
	ahead := f.record("ahead", "a\n")
	earlier := time.Now().Add(-30 * 24 * time.Hour)
	res = f.run(Options{MaxAge: 7 * 24 * time.Hour, Now: func() time.Time { return earlier }})
	assert.Equal(t, []string{ahead}, names(t, f, "ahead"))
	assert.Zero(t, res.RemovedSessions)
}
