package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		name    string
		loc     Location
		workdir string
		want    []Place
	}{
		{"default", Location{Path: "/h/.local/state/rac", Fallback: "/tmp/rac-1"}, "",
			[]Place{{"/h/.local/state/rac", PlaceStore}, {"/tmp/rac-1", PlaceTemp}}},
		{"workdir on", Location{Path: "/h/.local/state/rac", Fallback: "/tmp/rac-1"}, "/w",
			[]Place{{"/h/.local/state/rac", PlaceStore}, {"/tmp/rac-1", PlaceTemp}, {"/w/.rac", PlaceWorkdir}}},
		{"RAC_HOME never falls back", Location{Path: "/s", Explicit: true, Fallback: "/tmp/rac-1"}, "/w",
			[]Place{{"/s", PlaceStore}}},
		{"no home: the fallback once", Location{Path: "/tmp/rac-1", Fallback: "/tmp/rac-1"}, "",
			[]Place{{"/tmp/rac-1", PlaceStore}}},
		{"relative workdir ignored", Location{Path: "/s", Fallback: "/t"}, "w",
			[]Place{{"/s", PlaceStore}, {"/t", PlaceTemp}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Places(tc.loc, tc.workdir))
		})
	}
}

func TestCreateAtWorkdirGitignore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), WorkdirStore)
	s, err := CreateAt(Place{Path: dir, Kind: PlaceWorkdir})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	b, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "*\n", string(b))
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	// a .gitignore the user edited is kept
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*\n!keep\n"), 0o600))
	s, err = CreateAt(Place{Path: dir, Kind: PlaceWorkdir})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	b, err = os.ReadFile(filepath.Join(dir, ".gitignore"))
	require.NoError(t, err)
	assert.Equal(t, "*\n!keep\n", string(b))
}

func TestCreateAtRefusesUnsafe(t *testing.T) {
	dir := filepath.Join(t.TempDir(), WorkdirStore)
	require.NoError(t, os.Mkdir(dir, 0o777))
	require.NoError(t, os.Chmod(dir, 0o777))
	_, err := CreateAt(Place{Path: dir, Kind: PlaceWorkdir})
	require.ErrorIs(t, err, ErrUnsafeStore)
	_, err = os.Lstat(filepath.Join(dir, ".gitignore"))
	assert.ErrorIs(t, err, os.ErrNotExist, "wrote into a store it refused")
}

func TestWritable(t *testing.T) {
	dir := t.TempDir()
	assert.NoError(t, Writable(filepath.Join(dir, "a", "b", "c")), "a missing path under a writable folder")
	assert.NoError(t, Writable(dir))
	if os.Geteuid() == 0 {
		t.Skip("root writes a folder whatever its mode")
	}
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o500))
	err := Writable(filepath.Join(ro, "store"))
	require.Error(t, err)
	assert.True(t, IsUnwritable(err), "%v", err)
	assert.ErrorIs(t, err, syscall.EACCES)
}

func TestRaiseSeq(t *testing.T) {
	s, err := CreateStore(filepath.Join(t.TempDir(), "s"))
	require.NoError(t, err)
	defer s.Close()
	d, err := s.Session("x", true)
	require.NoError(t, err)
	defer d.Close()
	for _, tc := range []struct {
		floor, next int64
	}{{0, 1}, {5, 6}, {3, 7}, {7, 8}, {20, 21}} {
		require.NoError(t, d.RaiseSeq(tc.floor))
		n, err := d.NextSeq()
		require.NoError(t, err)
		assert.Equal(t, tc.next, n, "after RaiseSeq(%d)", tc.floor)
	}
	assert.ErrorIs(t, d.RaiseSeq(MaxSeq+1), ErrSeqExhausted)
}

// A counter that is missing (removed by hand) or empty (an earlier rac
// killed between creating it and writing it) gives out a number above
// every recording folder present: the session keeps recording and never
// reuses a number.
func TestSeqRecoversFromFolders(t *testing.T) {
	s, err := CreateStore(filepath.Join(t.TempDir(), "s"))
	require.NoError(t, err)
	defer s.Close()
	d, err := s.Session("x", true)
	require.NoError(t, err)
	defer d.Close()
	n, err := d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(1), n, "a new session starts at 1")
	for _, name := range []string{"0001-echo", "0007-git-push", "0003-sh", "12345678901234567890-x", "seq.tmp-abc"} {
		require.NoError(t, d.Root().Mkdir(name, 0o700))
	}
	require.NoError(t, d.Root().Remove(SeqFile))
	n, err = d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(8), n, "a removed counter restarts above the folders")
	require.NoError(t, d.Root().WriteFile(SeqFile, nil, 0o600))
	n, err = d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(8), n, "an empty counter counts from the folders")
	n, err = d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(9), n, "and is written back")
	require.NoError(t, d.Root().WriteFile(SeqFile, []byte("garbage\n"), 0o600))
	_, err = d.NextSeq()
	assert.ErrorIs(t, err, ErrUnsafeFile, "a counter with text in it is damage, not an empty file")
}

// A counter rolled back by hand, or a session whose recordings were
// removed, never gives out a number a folder or a tombstone holds: an old
// reference SESSION/N must never resolve to a new execution.
func TestSeqNeverBelowFoldersOrTombstones(t *testing.T) {
	s, err := CreateStore(filepath.Join(t.TempDir(), "s"))
	require.NoError(t, err)
	defer s.Close()
	d, err := s.Session("x", true)
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, d.Root().Mkdir("0004-echo", 0o700))
	require.NoError(t, d.Root().WriteFile(SeqFile, []byte("00000000000000000001\n"), 0o600))
	n, err := d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(5), n, "a counter behind the folders counts from them")

	// recordings 5 to 9 removed (rac out rm, gc): only tombstones say so
	require.NoError(t, d.Root().WriteFile(TombFile, []byte(
		`{"kind":"recording","name_sha256":"ab","seq":6,"removed_at":"2026-12-01T00:00:00Z","by":"user","bytes":1}`+"\n"+
			`not json`+"\n"+
			`{"kind":"session","seq":9,"removed_at":"2026-12-01T00:00:00Z","by":"user","bytes":1,"recordings":3}`+"\n"), 0o600))
	require.NoError(t, d.Root().WriteFile(SeqFile, []byte("00000000000000000002\n"), 0o600))
	n, err = d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(10), n, "a rolled-back counter counts from the tombstones")
	require.NoError(t, d.Root().Mkdir("0010-git", 0o700))
	require.NoError(t, d.Root().Remove(SeqFile))
	n, err = d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(11), n, "a removed counter too")
	n, err = d.NextSeq()
	require.NoError(t, err)
	assert.Equal(t, int64(12), n, "and it only grows")
}
