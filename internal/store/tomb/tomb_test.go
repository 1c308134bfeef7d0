package tomb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteLoadPrune(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer r.Close()

	got, err := Load(r)
	require.NoError(t, err)
	assert.Empty(t, got, "no file: no tombstones")

	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	in := []Entry{
		{Kind: KindRecording, Name: "0002-make", Seq: 2, RemovedAt: now, By: ByGC, Reason: "session over 256 MiB", Bytes: 10},
		{Kind: KindRecording, Name: "0001-git-push", Seq: 1, RemovedAt: now.Add(-31 * 24 * time.Hour), By: ByGC},
		{Kind: KindRecording, NameSHA256: NameHash("0003-echo-x"), Seq: 3, RemovedAt: now, By: ByUser},
		{Kind: KindSession, Seq: 3, RemovedAt: now, By: ByUser, Recordings: 3},
	}
	require.NoError(t, Write(r, in))
	got, err = Load(r)
	require.NoError(t, err)
	require.Len(t, got, 4)
	assert.Equal(t, "0001-git-push", got[0].Name, "oldest first")

	kept := Prune(got, now, TTL)
	assert.Len(t, kept, 3)
	assert.Len(t, got, 4, "pruning leaves its input alone")

	// lines it does not understand are skipped, not fatal
	b, err := os.ReadFile(filepath.Join(dir, File))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, File), append([]byte("{broken\n{\"kind\":\"future\"}\n{\"kind\":\"recording\"}\n"), b...), 0o600))
	got, err = Load(r)
	require.NoError(t, err)
	assert.Len(t, got, 4)

	require.NoError(t, Write(r, nil))
	assert.NoFileExists(t, filepath.Join(dir, File))
	require.NoError(t, Write(r, nil), "removing what is not there is fine")
}

func TestCommand(t *testing.T) {
	assert.Equal(t, "git push origin main", Command([]string{"git", "push", "origin", "main"}, nil))
	red := func(s string) string { return strings.ReplaceAll(s, "hunter2", "[REDACTED]") }
	assert.Equal(t, "login --password=[REDACTED]", Command([]string{"login", "--password=hunter2"}, red))
	long := Command([]string{"echo", strings.Repeat("é", 300)}, nil)
	assert.LessOrEqual(t, len(long), MaxCommand)
	assert.True(t, strings.HasSuffix(long, "..."))
	assert.True(t, strings.HasPrefix(long, "echo é"))
	assert.Equal(t, "a\uFFFDb", Command([]string{"a\xffb"}, nil))
	// words with blanks or quotes read back as the same words
	assert.Equal(t, "deploy --password 'two words' 'it'\\''s'", Command([]string{"deploy", "--password", "two words", "it's"}, nil))
}

// TestWriteAndLoadDeDuplicate: a pass killed between writing tombstones
// and removing the recordings writes them again on the next pass; the
// file keeps one entry per recording (the first written), and a file that
// already holds duplicates reads clean.
func TestWriteAndLoadDeDuplicate(t *testing.T) {
	dir := t.TempDir()
	r, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer r.Close()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	later := now.Add(time.Minute)
	gcA := Entry{Kind: KindRecording, Name: "0001-make", Seq: 1, RemovedAt: now, By: ByGC, Reason: "session older than 7 days", Command: "make"}
	gcB := Entry{Kind: KindRecording, Name: "0002-make-x", Seq: 2, RemovedAt: now, By: ByGC}
	sess := Entry{Kind: KindSession, Seq: 2, RemovedAt: now, By: ByGC, Recordings: 2, Bytes: 100}
	userC := Entry{Kind: KindRecording, NameSHA256: NameHash("0003-echo-hunter2"), Seq: 3, RemovedAt: now, By: ByUser}

	for _, tc := range []struct {
		name string
		in   []Entry
		want []Entry
	}{
		{"written again", []Entry{gcA, gcB, sess, withTime(gcA, later), withTime(gcB, later), {Kind: KindSession, Seq: 2, RemovedAt: later, By: ByGC, Recordings: 1, Bytes: 40}},
			[]Entry{gcA, gcB, sess}},
		{"same name by hash", []Entry{userC, withTime(userC, later)}, []Entry{userC}},
		{"the user's removal wins over gc's: it keeps no name", []Entry{
			{Kind: KindRecording, Name: "0003-echo-hunter2", Seq: 3, RemovedAt: now, By: ByGC, Command: "echo hunter2"}, withTime(userC, later),
		}, []Entry{withTime(userC, later)}},
		{"different numbers are different", []Entry{gcA, {Kind: KindRecording, Name: "0001-other", Seq: 1, RemovedAt: now, By: ByGC}},
			[]Entry{gcA, {Kind: KindRecording, Name: "0001-other", Seq: 1, RemovedAt: now, By: ByGC}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, Write(r, append([]Entry(nil), tc.in...)))
			b, err := os.ReadFile(filepath.Join(dir, File))
			require.NoError(t, err)
			assert.Equal(t, len(tc.want), strings.Count(string(b), "\n"), "the file holds no duplicate")
			got, err := Load(r)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)

			// a file written by an older rac, duplicates and all
			var raw []byte
			for _, e := range tc.in {
				raw = append(raw, Line(e)...)
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, File), raw, 0o600))
			got, err = Load(r)
			require.NoError(t, err)
			assert.ElementsMatch(t, tc.want, got)
		})
	}
}

func withTime(e Entry, t time.Time) Entry { e.RemovedAt = t; return e }
