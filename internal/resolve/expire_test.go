package resolve

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/gc"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/store/tomb"
)

func addRecording(t *testing.T, st *store.Store, sess string, argv ...string) string {
	sd, err := st.Session(sess, true)
	require.NoError(t, err)
	defer sd.Close()
	w, err := record.Create(record.CreateOptions{Session: sd, Argv: argv, Streams: []string{record.Stdout}})
	require.NoError(t, err)
	require.NoError(t, w.Finish(record.Footer{Status: record.StatusExited}))
	return w.Name
}

func expiredErr(t *testing.T, err error) *ExpiredError {
	t.Helper()
	require.ErrorIs(t, err, ErrExpired)
	assert.NotErrorIs(t, err, ErrNotFound)
	var e *ExpiredError
	require.True(t, errors.As(err, &e))
	return e
}

// gcRemoveOldest makes gc remove the one recording dated an hour back,
// by the store-wide cap.
func gcRemoveOldest(t *testing.T, st *store.Store, root, sess, name string) {
	old := time.Now().Add(-time.Hour)
	require.NoError(t, filepath.Walk(filepath.Join(root, "sessions", sess, name), func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
	l, err := gc.Lock(st, true)
	require.NoError(t, err)
	defer l.Close()
	dry, err := gc.Run(st, gc.Options{DryRun: true})
	require.NoError(t, err)
	res, err := gc.Run(st, gc.Options{MaxStoreBytes: dry.Stores[0].BytesBefore - 1})
	require.NoError(t, err)
	require.Len(t, res.Recordings, 1)
	require.Equal(t, sess+"/"+name, res.Recordings[0].Ref)
}

func TestExpiredRecording(t *testing.T) {
	st, root := newStore(t)
	defer st.Close()
	stores := []*store.Store{st}
	gitStatus := addRecording(t, st, "alpha", "git", "status") // 0002-git-status
	addRecording(t, st, "alpha", "make")                       // 0003-make
	gcRemoveOldest(t, st, root, "alpha", gitStatus)

	day := time.Now().Format("2006-01-02")
	for _, ref := range []string{"alpha/0002-git-status", "alpha/2", "2", "0002", "git-status", "0002-g", "alpha/git-st"} {
		_, err := Open(stores, "alpha", ref)
		e := expiredErr(t, err)
		assert.Equal(t, "alpha", e.Session, ref)
		assert.Equal(t, gitStatus, e.Name, ref)
		assert.Equal(t, "git status", e.Command, ref)
		assert.Equal(t, "recording alpha/0002-git-status expired (removed by gc on "+day+": store over "+
			strings.TrimSuffix(strings.SplitAfter(err.Error(), "store over ")[1], ")")+")", err.Error(), ref)
	}
	// what still exists resolves as before; unknown numbers are not found
	r, err := Open(stores, "alpha", "3")
	require.NoError(t, err)
	r.Close()
	_, err = Open(stores, "alpha", "99")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = Open(stores, "beta", "2")
	assert.ErrorIs(t, err, ErrNotFound, "never another session's tombstones")
}

// A removal by the user keeps no name, only its number and hash: the
// number and the full name still answer, a prefix does not.
func TestExpiredByUser(t *testing.T) {
	st, _ := newStore(t)
	defer st.Close()
	stores := []*store.Store{st}
	name := addRecording(t, st, "alpha", "echo", "hunter2") // 0002-echo-hunter2
	l, err := gc.Lock(st, true)
	require.NoError(t, err)
	_, err = gc.Remove(st, "alpha", []string{name}, gc.Options{})
	l.Close()
	require.NoError(t, err)
	day := time.Now().Format("2006-01-02")
	for ref, want := range map[string]string{
		"alpha/2":                 "recording alpha/0002 expired (removed by user on " + day + ")",
		"alpha/0002-echo-hunter2": "recording alpha/0002-echo-hunter2 expired (removed by user on " + day + ")",
	} {
		_, err := Open(stores, "beta", ref)
		expiredErr(t, err)
		assert.Equal(t, want, err.Error(), ref)
	}
	_, err = Open(stores, "alpha", "echo-hun")
	assert.ErrorIs(t, err, ErrNotFound)
	b, err := os.ReadFile(filepath.Join(st.Path, "sessions", "alpha", tomb.File))
	require.NoError(t, err)
	assert.NotContains(t, string(b), "hunter2")
}

func TestExpiredSession(t *testing.T) {
	st, root := newStore(t)
	defer st.Close()
	stores := []*store.Store{st}
	addRecording(t, st, "alpha", "git", "push") // 0002-git-push
	// age the session past gc.max_age
	old := time.Now().Add(-8 * 24 * time.Hour)
	require.NoError(t, filepath.Walk(filepath.Join(root, "sessions", "alpha"), func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
	l, err := gc.Lock(st, true)
	require.NoError(t, err)
	res, err := gc.Run(st, gc.Options{MaxAge: 7 * 24 * time.Hour})
	l.Close()
	require.NoError(t, err)
	require.Equal(t, 1, res.RemovedSessions)

	_, err = Open(stores, "beta", "alpha/2")
	e := expiredErr(t, err)
	assert.Equal(t, "0002-git-push", e.Name)
	assert.Contains(t, err.Error(), "recording alpha/0002-git-push expired (removed by gc on ")
	assert.Contains(t, err.Error(), ": session older than 7 days)")
	assert.Equal(t, "git push", e.Command)
	for _, ref := range []string{"alpha/last", "alpha/nothing-like-it", "alpha/0001-echo-alpha"} {
		_, err = Open(stores, "beta", ref)
		expiredErr(t, err)
	}
	// last names the last recording the session had
	_, err = Open(stores, "alpha", "last")
	e = expiredErr(t, err)
	assert.Equal(t, "0002-git-push", e.Name)
	// a reference no tombstone names still says the session went
	_, err = Open(stores, "alpha", "nothing-like-it")
	assert.Contains(t, expiredErr(t, err).Error(), "recording alpha/nothing-like-it expired (session removed by gc on ")
	// numbers past the counter it had were never used: not found
	_, err = Open(stores, "beta", "alpha/3")
	assert.ErrorIs(t, err, ErrNotFound)

	// the session is used again: numbering continues, old references stay expired
	next := addRecording(t, st, "alpha", "ls")
	assert.Equal(t, "0003-ls", next)
	r, err := Open(stores, "alpha", "last")
	require.NoError(t, err)
	assert.Equal(t, "0003-ls", r.Name)
	r.Close()
	_, err = Open(stores, "alpha", "2")
	expiredErr(t, err)
}

func TestExpiredAmbiguousAndDamaged(t *testing.T) {
	st, root := newStore(t)
	defer st.Close()
	stores := []*store.Store{st}
	addRecording(t, st, "alpha", "git", "push")
	addRecording(t, st, "alpha", "git", "pull")
	l, err := gc.Lock(st, true)
	require.NoError(t, err)
	_, err = gc.Run(st, gc.Options{MaxStoreBytes: 1})
	l.Close()
	require.NoError(t, err)
	_, err = Open(stores, "alpha", "git")
	assert.ErrorIs(t, err, ErrAmbiguous)
	assert.Contains(t, err.Error(), "all of them expired")

	// a damaged tombstone file only loses the nicer message
	require.NoError(t, os.WriteFile(filepath.Join(root, "sessions", "alpha", tomb.File), []byte("not json\n{\n"), 0o600))
	_, err = Open(stores, "alpha", "2")
	assert.ErrorIs(t, err, ErrNotFound)
}
