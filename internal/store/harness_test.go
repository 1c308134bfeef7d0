package store

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newTestStore(t *testing.T) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	st, err := CreateStore(dir)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st, dir
}

func TestHarnessNoteRoundTrip(t *testing.T) {
	st, dir := newTestStore(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	_, ok, err := st.HarnessSession(4242, 7)
	require.NoError(t, err)
	assert.False(t, ok, "no note yet")

	n := HarnessNote{PID: 4242, Start: 7, Harness: "claude", Session: "claude-abc", At: at}
	require.NoError(t, st.NoteHarness(n))
	got, ok, err := st.HarnessSession(4242, 7)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, n, got)

	fi, err := os.Stat(filepath.Join(dir, HarnessDir, "4242.json"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(dir, HarnessDir))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
}

func TestHarnessNewestWins(t *testing.T) {
	st, _ := newTestStore(t)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	require.NoError(t, st.NoteHarness(HarnessNote{PID: 9, Start: 1, Harness: "codex", Session: "new", At: t0.Add(time.Second)}))
	// an older announcement finishing later does not replace the newer one
	require.NoError(t, st.NoteHarness(HarnessNote{PID: 9, Start: 1, Harness: "codex", Session: "old", At: t0}))
	got, ok, err := st.HarnessSession(9, 1)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "new", got.Session)
	// /clear: a later announcement replaces it
	require.NoError(t, st.NoteHarness(HarnessNote{PID: 9, Start: 1, Harness: "codex", Session: "after-clear", At: t0.Add(time.Minute)}))
	got, _, err = st.HarnessSession(9, 1)
	require.NoError(t, err)
	assert.Equal(t, "after-clear", got.Session)
}

func TestHarnessReusedPIDNeverMatches(t *testing.T) {
	tests := []struct {
		name         string
		noted, asked uint64
		want         bool
	}{
		{"same process", 100, 100, true},
		{"pid reused", 100, 200, false},
		{"start unknown when noted", 0, 200, true},
		{"start unknown when asked", 100, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, dir := newTestStore(t)
			require.NoError(t, st.NoteHarness(HarnessNote{PID: 77, Start: tt.noted, Harness: "gemini", Session: "g1", At: time.Now()}))
			_, ok, err := st.HarnessSession(77, tt.asked)
			require.NoError(t, err)
			assert.Equal(t, tt.want, ok)
			_, err = os.Stat(filepath.Join(dir, HarnessDir, "77.json"))
			assert.Equal(t, tt.want, err == nil, "a stale note is removed")
		})
	}
}

func TestNoteHarnessRefusesBadNotes(t *testing.T) {
	st, _ := newTestStore(t)
	assert.ErrorIs(t, st.NoteHarness(HarnessNote{PID: 0, Session: "s"}), ErrBadHarnessNote)
	assert.ErrorIs(t, st.NoteHarness(HarnessNote{PID: 1, Session: "../x"}), ErrBadHarnessNote)
}

func TestHarnessDamagedNote(t *testing.T) {
	st, dir := newTestStore(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, HarnessDir), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(dir, HarnessDir, "5.json"), []byte(`{"pid":6,"session":"s"}`), 0o600))
	_, _, err := st.HarnessSession(5, 0)
	assert.ErrorIs(t, err, ErrUnsafeFile, "a note naming another pid is not trusted")
	require.NoError(t, os.Symlink("/etc/passwd", filepath.Join(dir, HarnessDir, "8.json")))
	_, _, err = st.HarnessSession(8, 0)
	assert.ErrorIs(t, err, ErrUnsafeFile)
}

func TestPruneHarness(t *testing.T) {
	st, dir := newTestStore(t)
	n, err := st.PruneHarness(time.Now())
	require.NoError(t, err)
	assert.Zero(t, n, "no folder yet")
	self := os.Getpid()
	start, _ := ProcStart(self)
	old := time.Now().Add(-48 * time.Hour)
	require.NoError(t, st.NoteHarness(HarnessNote{PID: self, Start: start, Harness: "claude", Session: "old", At: old}))
	n, err = st.PruneHarness(time.Now().Add(-24 * time.Hour))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	_, err = os.Stat(filepath.Join(dir, HarnessDir, "lock"))
	assert.NoError(t, err, "the lock is not a note")
}

func TestNoteHarnessDropsGoneProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	st, dir := newTestStore(t)
	// a pid above the kernel's pid_max (at most 2^22) is never alive
	const gone = 1 << 23
	require.NoError(t, st.NoteHarness(HarnessNote{PID: gone, Start: 1, Harness: "claude", Session: "a", At: time.Now()}))
	self := os.Getpid()
	start, err := ProcStart(self)
	require.NoError(t, err)
	require.NoError(t, st.NoteHarness(HarnessNote{PID: self, Start: start, Harness: "claude", Session: "b", At: time.Now()}))
	_, err = os.Stat(filepath.Join(dir, HarnessDir, "8388608.json"))
	assert.True(t, os.IsNotExist(err), "the note of a process that is gone is removed")
	_, ok, err := st.HarnessSession(self, start)
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestProcStart(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	a, err := ProcStart(os.Getpid())
	require.NoError(t, err)
	assert.NotZero(t, a)
	b, err := ProcStart(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, a, b, "stable for one process")
	p, err := ProcStart(os.Getppid())
	require.NoError(t, err)
	assert.LessOrEqual(t, p, a, "a parent started no later than its child")
	_, err = ProcStart(1 << 23)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
