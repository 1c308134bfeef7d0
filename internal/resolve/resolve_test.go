package resolve

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

func TestParse(t *testing.T) {
	for _, ok := range []string{"42", "0042", "last", "0042-git-p", "git-push", "claude-abc/0001-git", "s.1_x/last"} {
		_, err := Parse(ok)
		assert.NoError(t, err, ok)
	}
	for _, bad := range []string{"", "..", "../x", "x/..", "a/b/c", "/etc/passwd", `a\b`, "a\x00b", "a\nb", "a\x1b[31m",
		"A/1", ".hidden", "x/.y", "a//b", "a/", "/a", "a b", "a%2fb", strings.Repeat("a", MaxLen+1)} {
		_, err := Parse(bad)
		assert.ErrorIs(t, err, ErrInvalid, "%q", bad)
	}
}

func TestInSession(t *testing.T) {
	names := []string{"0001-true", "0042-git-status", "0043-git-push", "10000-make"}
	for _, tc := range []struct{ short, want string }{
		{"42", "0042-git-status"}, {"0042", "0042-git-status"}, {"000042", "0042-git-status"},
		{"last", "10000-make"}, {"10000", "10000-make"}, {"0043-g", "0043-git-push"},
		{"git-p", "0043-git-push"}, {"0001-true", "0001-true"}, {"make", "10000-make"},
	} {
		got, err := InSession("s", names, tc.short)
		require.NoError(t, err, tc.short)
		assert.Equal(t, tc.want, got, tc.short)
	}
	_, err := InSession("s", names, "git")
	assert.ErrorIs(t, err, ErrAmbiguous)
	assert.Contains(t, err.Error(), "0042-git-status, 0043-git-push")
	for _, short := range []string{"7", "004", "nope"} {
		_, err := InSession("s", names, short)
		assert.ErrorIs(t, err, ErrNotFound, short)
	}
	_, err = InSession("s", nil, "last")
	assert.ErrorIs(t, err, ErrNotFound)
}

// newStore makes a store with two sessions holding one recording each.
func newStore(t testing.TB) (*store.Store, string) {
	dir := t.TempDir()
	root := filepath.Join(dir, "store")
	st, err := store.CreateStore(root)
	require.NoError(t, err)
	for _, name := range []string{"alpha", "beta"} {
		sd, err := st.Session(name, true)
		require.NoError(t, err)
		w, err := record.Create(record.CreateOptions{Session: sd, Argv: []string{"echo", name}, Streams: []string{record.Stdout}, Now: time.Now})
		require.NoError(t, err)
		_, _ = w.Sink(record.Stdout).Write([]byte(name + "\n"))
		require.NoError(t, w.Finish(record.Footer{Status: record.StatusExited}))
		require.NoError(t, sd.Close())
	}
	// a decoy outside the store that a traversal would reach
	require.NoError(t, os.WriteFile(filepath.Join(dir, "secret"), []byte("outside"), 0o600))
	return st, root
}

func TestOpenNeverCrossesSessions(t *testing.T) {
	st, _ := newStore(t)
	defer st.Close()
	stores := []*store.Store{st}
	r, err := Open(stores, "alpha", "last")
	require.NoError(t, err)
	assert.Equal(t, "alpha/0001-echo-alpha", r.Ref())
	r.Close()
	r, err = Open(stores, "alpha", "beta/1")
	require.NoError(t, err)
	assert.Equal(t, "beta", r.Session)
	r.Close()
	_, err = Open(stores, "alpha", "echo-beta")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = Open(stores, "gamma", "last")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = Open(stores, "alpha", "gamma/1")
	assert.ErrorIs(t, err, ErrNotFound)
}

// FuzzOpen asserts that no reference string ever opens a recording outside
// the store root: whatever resolves is a recording folder of a session of
// this store, named as rac names them.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{"1", "last", "alpha/1", "beta/0001-echo-beta", "../secret", "alpha/../../secret",
		"/etc/passwd", "alpha/..", "..\\secret", "alpha/\x00", "echo", "0001-e", "%2e%2e/secret", "alpha/./1"} {
		f.Add(s)
	}
	st, root := newStore(f)
	f.Cleanup(func() { st.Close() })
	// the folders a reference may open, by what they are on disk (device
	// and inode), not by a path joined from names resolve returned
	folders := map[[2]uint64]string{}
	for _, sess := range []string{"alpha", "beta"} {
		p := filepath.Join(root, store.SessionsDir, sess, "0001-echo-"+sess)
		fi, err := os.Stat(p)
		require.NoError(f, err)
		folders[devIno(f, fi)] = sess
	}
	f.Fuzz(func(t *testing.T, ref string) {
		r, err := Open([]*store.Store{st}, "alpha", ref)
		if err != nil {
			return
		}
		defer r.Close()
		fi, err := r.DirStat()
		require.NoError(t, err)
		sess, ok := folders[devIno(t, fi)]
		if !ok {
			t.Fatalf("%q opened a folder that is not a recording of the store (%s)", ref, r.Dir())
		}
		// a short reference stays in the current session; only a
		// qualified one reaches another
		if sess != "alpha" && !strings.HasPrefix(ref, sess+"/") {
			t.Fatalf("%q opened session %s's recording without naming it", ref, sess)
		}
		if sess != r.Session || !session.ValidName(r.Session) {
			t.Fatalf("%q opened %s's folder but says session %q", ref, sess, r.Session)
		}
		if _, ok := record.ParseName(r.Name); !ok {
			t.Fatalf("%q resolved to non-recording %q", ref, r.Name)
		}
	})
}

func devIno(t testing.TB, fi os.FileInfo) [2]uint64 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	require.True(t, ok)
	return [2]uint64{uint64(st.Dev), st.Ino}
}

// The error names the character the reference holds, not its first byte.
func TestParseNamesTheWholeCharacter(t *testing.T) {
	for ref, char := range map[string]string{"ｏther/1": `"ｏ"`, "a/é": `"é"`, "x😀": `"😀"`, "a b": `" "`} {
		_, err := Parse(ref)
		require.Error(t, err, ref)
		assert.Contains(t, err.Error(), char+" is not allowed", ref)
	}
	_, err := Parse("a/\xff")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"\xff" is not allowed`)
}
