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
}
