package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dirBytes is what dir takes on disk, as du and gc count it: the blocks
// of every file and folder under it, dir included.
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // a tail segment dropped meanwhile
		}
		if err != nil {
			return err
		}
		if fi, err := d.Info(); err == nil {
			n += fi.Sys().(*syscall.Stat_t).Blocks * 512
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}))
	return n
}

// A burst of capped recordings into one session never takes it over its
// limit by more than what the recordings running then hold: sampled
// after every write of every recording, the session less its running
// recordings is within gc.max_session_bytes, with no gc pass run. A
// recording that runs through the whole burst is never removed, and the
// oldest finished ones go first.
func TestSessionLimitHoldsDuringABurst(t *testing.T) {
	const (
		limit   = 256 << 10
		capSize = 64 << 10
	)
	f := newFixture(t)
	f.set.MaxBytes, f.set.HeadBytes = capSize, 16<<10
	f.set.GC = GCLimits{MaxSessionBytes: limit}
	ctx := context.Background()
	sess := filepath.Join(f.home, "sessions", "test")
	line := []byte(strings.Repeat("x", 99) + "\n")

	long, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"server"}, Streams: []string{StreamCombined}})
	require.NoError(t, err)
	longW, err := long.Stream(StreamCombined)
	require.NoError(t, err)
	longDir := filepath.Join(sess, long.Name())

	var first string
	for i := range 20 {
		rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"build"}, Streams: []string{StreamCombined}})
		require.NoError(t, err)
		if i == 0 {
			first = rec.Name()
		}
		w, err := rec.Stream(StreamCombined)
		require.NoError(t, err)
		dir := filepath.Join(sess, rec.Name())
		for j := range 1000 { // 100 KB: past the cap
			_, err := w.Write(line)
			require.NoError(t, err)
			if j%5 == 0 {
				_, err := longW.Write(line)
				require.NoError(t, err)
			}
			if j%100 == 0 {
				running := dirBytes(t, dir) + dirBytes(t, longDir)
				require.LessOrEqual(t, dirBytes(t, sess)-running, int64(limit), "recording %d, write %d", i, j)
			}
		}
		require.NoError(t, rec.Finish(Outcome{Status: StatusExited}))
		require.DirExists(t, dir, "the recording that just ended stays")
		require.LessOrEqual(t, dirBytes(t, sess)-dirBytes(t, dir)-dirBytes(t, longDir), int64(limit), "after recording %d", i)
	}
	assert.DirExists(t, longDir, "a running recording is never removed")
	_, err = os.Stat(filepath.Join(sess, first))
	assert.ErrorIs(t, err, fs.ErrNotExist, "the oldest finished recording went")
	require.NoError(t, long.Finish(Outcome{Status: StatusExited}))
	_, err = f.app().Read(ctx, ReadRequest{Ref: "test/1"}, &strings.Builder{})
	require.NoError(t, err, "the long recording reads")
}
