package store

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func newTestSession(t *testing.T) (*Session, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "store")
	st, err := CreateStore(dir)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	sd, err := st.Session("s1", true)
	require.NoError(t, err)
	t.Cleanup(func() { sd.Close() })
	return sd, filepath.Join(dir, SessionsDir, "s1")
}

func TestNextSeqCounts(t *testing.T) {
	sd, path := newTestSession(t)
	for want := int64(1); want <= 3; want++ {
		n, err := sd.NextSeq()
		require.NoError(t, err)
		require.Equal(t, want, n)
	}
	b, err := os.ReadFile(filepath.Join(path, SeqFile))
	require.NoError(t, err)
	require.Equal(t, "00000000000000000003\n", string(b))
	n, err := sd.ReadSeq()
	require.NoError(t, err)
	require.Equal(t, int64(3), n)
}

func TestNextSeqContinuesAKeptCounter(t *testing.T) {
	sd, path := newTestSession(t)
	// a counter restored from a session tombstone, written by hand
	require.NoError(t, os.WriteFile(filepath.Join(path, SeqFile), []byte("41\n"), 0o600))
	n, err := sd.NextSeq()
	require.NoError(t, err)
	require.Equal(t, int64(42), n)
}

func TestNextSeqRefusesABadCounter(t *testing.T) {
	// (an empty counter is not refused: TestSeqRecoversFromFolders)
	for name, content := range map[string]string{
		"garbage":   "forty-two\n",
		"negative":  "-3\n",
		"oversized": string(make([]byte, 100)),
	} {
		t.Run(name, func(t *testing.T) {
			sd, path := newTestSession(t)
			p := filepath.Join(path, SeqFile)
			require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
			_, err := sd.NextSeq()
			require.ErrorIs(t, err, ErrUnsafeFile)
			b, rerr := os.ReadFile(p)
			require.NoError(t, rerr)
			require.Equal(t, content, string(b), "a refused counter is left as it was")
		})
	}
}

func TestNextSeqRefusesASymlinkedCounter(t *testing.T) {
	sd, path := newTestSession(t)
	target := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.WriteFile(target, []byte("7\n"), 0o600))
	require.NoError(t, os.Symlink(target, filepath.Join(path, SeqFile)))
	_, err := sd.NextSeq()
	require.ErrorIs(t, err, ErrUnsafeFile)
	b, rerr := os.ReadFile(target)
	require.NoError(t, rerr)
	require.Equal(t, "7\n", string(b), "nothing outside the store is written")
	require.False(t, errors.Is(err, os.ErrNotExist))
}

func TestNextSeqRewritesALongerCounter(t *testing.T) {
	sd, path := newTestSession(t)
	p := filepath.Join(path, SeqFile)
	require.NoError(t, os.WriteFile(p, []byte("   0000000000000000000000041\n"), 0o600))
	n, err := sd.NextSeq()
	require.NoError(t, err)
	require.Equal(t, int64(42), n)
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "00000000000000000042\n", string(b))
	n, err = sd.NextSeq()
	require.NoError(t, err)
	require.Equal(t, int64(43), n)
}

// TestSymlinkedRootIsRefusedHoweverSpelt: a store root that is a symlink
// is refused also when the path ends in a slash, "/." or "//" (a lookup
// of "l/" follows the link), and nothing is created through it.
func TestSymlinkedRootIsRefusedHoweverSpelt(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	require.NoError(t, os.Mkdir(target, 0o700))
	link := filepath.Join(dir, "l")
	require.NoError(t, os.Symlink(target, link))
	dangling := filepath.Join(dir, "dangling")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	for _, p := range []string{
		link, link + "/", link + "//", link + "/.", link + "/./", dir + "//l", dir + "/./l/",
		dangling + "/", dangling + "/.",
	} {
		t.Run(p, func(t *testing.T) {
			for name, open := range map[string]func(string) (*Store, error){"open": OpenStore, "create": CreateStore} {
				st, err := open(p)
				if err == nil {
					st.Close()
				}
				require.ErrorIs(t, err, ErrUnsafeStore, name)
				require.Contains(t, err.Error(), "symlink", name)
			}
			ents, err := os.ReadDir(target)
			require.NoError(t, err)
			require.Empty(t, ents, "nothing is created through the link")
			require.NoFileExists(t, filepath.Join(dir, "nowhere"))
		})
	}
}

func TestLocateCleansTheStorePath(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/l/": "/tmp/l", "/tmp/l/.": "/tmp/l", "//tmp//l//": "/tmp/l", "/tmp/./l/./": "/tmp/l",
	} {
		loc := Locate(func(k string) string {
			if k == "RAC_HOME" {
				return in
			}
			return ""
		})
		require.NoError(t, loc.Err, in)
		require.Equal(t, want, loc.Path, in)
	}
	loc := Locate(func(k string) string { return map[string]string{"XDG_STATE_HOME": "/x/state/"}[k] })
	require.Equal(t, "/x/state/rac", loc.Path)
}

// TestSymlinkedParent: a symlink above the store root (/home ->
// /data/home) is followed when it is yours or root's; one of another
// user is refused, as the kernel's protected_symlinks would in /tmp.
func TestSymlinkedParent(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	require.NoError(t, os.Mkdir(real, 0o700))
	link := filepath.Join(dir, "home")
	require.NoError(t, os.Symlink(real, link))
	st, err := CreateStore(filepath.Join(link, "store") + "/")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(link, "store"), st.Path)
	require.NoError(t, st.Close())
	require.DirExists(t, filepath.Join(real, "store"))
	st, err = OpenStore(filepath.Join(link, "store"))
	require.NoError(t, err)
	require.NoError(t, st.Close())

	if os.Geteuid() != 0 {
		t.Skip("handing a symlink to another user needs root")
	}
	require.NoError(t, os.Lchown(link, 65534, 65534))
	for name, open := range map[string]func(string) (*Store, error){"open": OpenStore, "create": CreateStore} {
		_, err := open(filepath.Join(link, "store"))
		require.ErrorIs(t, err, ErrUnsafeStore, name)
		require.Contains(t, err.Error(), "symlink owned by uid 65534", name)
		_, err = open(filepath.Join(link, "new"))
		require.ErrorIs(t, err, ErrUnsafeStore, name)
	}
	require.NoDirExists(t, filepath.Join(real, "new"))
}

func TestNextSeqStopsAtTheLastNumberANameHolds(t *testing.T) {
	sd, path := newTestSession(t)
	p := filepath.Join(path, SeqFile)
	require.NoError(t, os.WriteFile(p, fmt.Appendf(nil, "%d\n", MaxSeq-1), 0o600))
	n, err := sd.NextSeq()
	require.NoError(t, err)
	require.Equal(t, MaxSeq, n)

	for _, at := range []int64{MaxSeq, MaxSeq + 1, math.MaxInt64} {
		content := fmt.Sprintf("%020d\n", at)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		_, err = sd.NextSeq()
		require.ErrorIs(t, err, ErrSeqExhausted, "at %d", at)
		require.Contains(t, err.Error(), "start another session")
		b, rerr := os.ReadFile(p)
		require.NoError(t, rerr)
		require.Equal(t, content, string(b), "a counter at its end is left as it was")
	}
}
