package gc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/store/tomb"
)

// mount mounts (a bind mount of src, or a tmpfs when src is "") on dst
// for the rest of the test, or skips it: mounting needs privilege.
func mount(t *testing.T, src, dst string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root (these tests check that gc never removes through a mount)")
	}
	var err error
	if src == "" {
		err = unix.Mount("tmpfs", dst, "tmpfs", 0, "size=1m")
	} else {
		err = unix.Mount(src, dst, "", unix.MS_BIND, "")
	}
	if err != nil {
		t.Skipf("cannot mount on %s (%v): a sandbox without mount privilege", dst, err)
	}
	base, leaf := filepath.Dir(filepath.Dir(dst)), filepath.Base(dst)
	rec := filepath.Base(filepath.Dir(dst))
	t.Cleanup(func() {
		// where it is, or where a failed removal left it (.gc-NAME-...)
		if unix.Unmount(dst, unix.MNT_DETACH) == nil {
			return
		}
		moved, _ := filepath.Glob(filepath.Join(base, gcPrefix+rec+"-*", leaf))
		for _, m := range moved {
			_ = unix.Unmount(m, unix.MNT_DETACH)
		}
	})
}

// TestRemovalStaysOnTheStoresFileSystem: gc, rm and purge never remove
// through a mount inside a recording (a bind mount of a folder or a file
// of the same file system, or another file system): the recording is kept
// and reported, what the mount shows is untouched, and the other
// recordings go as usual.
func TestRemovalStaysOnTheStoresFileSystem(t *testing.T) {
	old := time.Now().Add(-30 * 24 * time.Hour)
	for _, kind := range []string{"bind folder", "bind file", "tmpfs", "the folder itself"} {
		for _, op := range []string{"gc", "rm", "purge"} {
			t.Run(kind+"/"+op, func(t *testing.T) {
				f := newFixture(t)
				victim := f.record("s", "victim\n")
				other := f.record("s", "other\n")
				f.backdate(30*24*time.Hour, "s")

				outside := filepath.Join(f.dir, "outside")
				require.NoError(t, os.Mkdir(outside, 0o700))
				precious := filepath.Join(outside, "precious")
				require.NoError(t, os.WriteFile(precious, []byte("keep me\n"), 0o600))
				require.NoError(t, os.Chtimes(precious, old, old))
				switch kind {
				case "bind folder":
					require.NoError(t, os.Mkdir(f.path("s", victim, "sub"), 0o700))
					mount(t, outside, f.path("s", victim, "sub"))
				case "bind file":
					mount(t, precious, f.path("s", victim, "stdout"))
				case "the folder itself":
					// a bind mount of the recording on itself: its own
					// files, but another mount (rename would say EBUSY)
					mount(t, f.path("s", victim), f.path("s", victim))
					precious = f.path("s", victim, "meta.json")
				case "tmpfs":
					require.NoError(t, os.Mkdir(f.path("s", victim, "sub"), 0o700))
					mount(t, "", f.path("s", victim, "sub"))
					precious = f.path("s", victim, "sub", "precious")
					require.NoError(t, os.WriteFile(precious, []byte("keep me\n"), 0o600))
					require.NoError(t, os.Chtimes(precious, old, old))
				}
				require.NoError(t, os.Chtimes(f.path("s", victim), old, old))

				l, err := Lock(f.st, true)
				require.NoError(t, err)
				defer l.Close()
				var res *Result
				switch op {
				case "gc":
					res, err = Run(f.st, Options{MaxAge: 7 * 24 * time.Hour})
				case "rm":
					res, err = Remove(f.st, "s", []string{victim, other}, Options{})
				case "purge":
					res, err = Purge(f.st, "s", Options{})
				}
				require.NoError(t, err)

				b, rerr := os.ReadFile(precious)
				require.NoError(t, rerr, "what the mount shows is never removed")
				if kind != "the folder itself" {
					assert.Equal(t, "keep me\n", string(b))
				}
				assert.Equal(t, []string{victim}, names(t, f, "s"), "the recording holding a mount is kept, the other goes")
				require.Len(t, res.Kept, 1)
				assert.Equal(t, "s/"+victim, res.Kept[0].Ref)
				assert.Contains(t, res.Kept[0].Why, "mount")
				assert.Empty(t, res.Errors)
				assert.Equal(t, 1, res.RemovedRecordings)
				require.Len(t, res.Recordings, 1)
				assert.Equal(t, "s/"+other, res.Recordings[0].Ref)

				sd := f.session("s")
				defer sd.Close()
				entries, err := tomb.Load(sd.Root())
				require.NoError(t, err)
				for _, e := range entries {
					if e.Kind == tomb.KindRecording {
						assert.NotEqual(t, victim, e.Name, "no tombstone for a recording still there")
						assert.NotEqual(t, tomb.NameHash(victim), e.NameSHA256, "no tombstone for a recording still there")
					}
				}
			})
		}
	}
}

// TestDryRunReportsAMountAsKept: a dry run says what the pass would keep.
func TestDryRunReportsAMountAsKept(t *testing.T) {
	f := newFixture(t)
	victim := f.record("s", "victim\n")
	f.backdate(30*24*time.Hour, "s")
	outside := filepath.Join(f.dir, "outside")
	require.NoError(t, os.Mkdir(outside, 0o700))
	require.NoError(t, os.Mkdir(f.path("s", victim, "sub"), 0o700))
	old := time.Now().Add(-30 * 24 * time.Hour)
	require.NoError(t, os.Chtimes(outside, old, old))
	mount(t, outside, f.path("s", victim, "sub"))
	require.NoError(t, os.Chtimes(f.path("s", victim), old, old))
	tmp := gcPrefix + "0009-x-cccccccc"
	require.NoError(t, os.MkdirAll(f.path("s", tmp, "sub"), 0o700))
	mount(t, outside, f.path("s", tmp, "sub"))
	res := f.run(Options{MaxAge: 7 * 24 * time.Hour, DryRun: true})
	assert.Zero(t, res.RemovedRecordings)
	assert.Empty(t, res.Temporaries)
	require.Len(t, res.Kept, 2)
	assert.Equal(t, "s/"+victim, res.Kept[0].Ref)
	assert.Equal(t, "it holds a mount point (sessions/s/"+victim+"/sub): gc never removes across one (unmount it first)", res.Kept[0].Why)
	assert.Equal(t, "s/"+tmp, res.Kept[1].Ref)
}

// TestStaleTemporaryHoldingAMountIsKept: a leftover .gc- folder (a
// removal killed half way) is removed as a temporary, never through a
// mount in it.
func TestStaleTemporaryHoldingAMountIsKept(t *testing.T) {
	f := newFixture(t)
	f.record("s", "x\n")
	tmp := gcPrefix + "0009-x-cccccccc"
	require.NoError(t, os.MkdirAll(f.path("s", tmp, "sub"), 0o700))
	outside := filepath.Join(f.dir, "outside")
	require.NoError(t, os.Mkdir(outside, 0o700))
	precious := filepath.Join(outside, "precious")
	require.NoError(t, os.WriteFile(precious, []byte("keep me\n"), 0o600))
	mount(t, outside, f.path("s", tmp, "sub"))
	res := f.run(Options{})
	assert.FileExists(t, precious)
	assert.Empty(t, res.Temporaries)
	require.Len(t, res.Kept, 1)
	assert.Equal(t, "s/"+tmp, res.Kept[0].Ref)
	assert.True(t, strings.Contains(res.Kept[0].Why, "mount"), res.Kept[0].Why)
}

// TestWalkerRemoveStopsAtAMount: the removal itself (not only the check
// before it) never crosses a mount, for one mounted after the check; a
// symlink in a recording is removed, never followed.
func TestWalkerRemoveStopsAtAMount(t *testing.T) {
	f := newFixture(t)
	rec := f.record("s", "x\n")
	outside := filepath.Join(f.dir, "outside")
	require.NoError(t, os.Mkdir(outside, 0o700))
	precious := filepath.Join(outside, "precious")
	require.NoError(t, os.WriteFile(precious, []byte("keep me\n"), 0o600))
	require.NoError(t, os.Symlink(outside, f.path("s", rec, "link")))
	require.NoError(t, os.Mkdir(f.path("s", rec, "sub"), 0o700))

	id, err := rootFS(f.st)
	require.NoError(t, err)
	w := walker{root: id, rel: "sessions/s/"}
	sd := f.session("s")
	defer sd.Close()
	dir, err := sd.Root().Open(".")
	require.NoError(t, err)
	defer dir.Close()

	require.NoError(t, w.check(int(dir.Fd()), rec), "nothing mounted yet")
	mount(t, outside, f.path("s", rec, "sub"))
	err = w.remove(int(dir.Fd()), rec)
	var me *MountError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, "sessions/s/"+rec+"/sub", me.Path)
	assert.FileExists(t, precious)
	assert.DirExists(t, f.path("s", rec, "sub"))

	require.NoError(t, unix.Unmount(f.path("s", rec, "sub"), unix.MNT_DETACH))
	require.NoError(t, w.remove(int(dir.Fd()), rec))
	assert.NoDirExists(t, f.path("s", rec))
	assert.FileExists(t, precious, "the symlink went, not what it points at")
}
