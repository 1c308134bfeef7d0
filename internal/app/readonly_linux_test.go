package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A store on a read-only mount (a sandbox's, a mounted backup): rm, purge
// and gc say that the store cannot be written and that nothing was
// removed, instead of the system call that met it, and they remove
// nothing.
func TestReadOnlyStore(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("a read-only bind mount needs root")
	}
	f := newFixture(t)
	ref := f.record([]string{"echo", "hi"}, map[string]string{StreamStdout: "hi\n"}, Outcome{Status: StatusExited})
	ro := filepath.Join(t.TempDir(), "ro")
	require.NoError(t, os.Mkdir(ro, 0o700))
	if err := unix.Mount(f.home, ro, "", unix.MS_BIND, ""); err != nil {
		t.Skipf("cannot bind-mount: %v", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(ro, unix.MNT_DETACH) })
	require.NoError(t, unix.Mount("", ro, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""))
	f.env["RAC_HOME"] = ro

	ctx := context.Background()
	var roErr *ReadOnlyStoreError
	res, err := f.app().Remove(ctx, []string{ref})
	require.NoError(t, err)
	if assert.Len(t, res.Errors, 1) {
		assert.ErrorAs(t, res.Errors[0], &roErr)
		assert.Equal(t, "cannot remove "+ref+": the store "+ro+" cannot be written (read-only file system): nothing in it was removed", res.Errors[0].Error())
	}
	assert.Equal(t, 0, res.Total().RemovedRecordings)

	res, err = f.app().Purge(ctx, PurgeRequest{Session: "test"})
	require.NoError(t, err)
	if assert.Len(t, res.Errors, 1) {
		assert.ErrorAs(t, res.Errors[0], &roErr)
	}

	g, err := f.app().GC(ctx, false, false)
	assert.True(t, errors.Is(err, ErrReported), "%v", err)
	assert.Equal(t, []string{"the store " + ro + " cannot be written (read-only file system): nothing in it was removed"}, g.Errors)

	// still there, read through the read-only mount
	assert.Equal(t, "hi\n", f.read(ReadRequest{Ref: ref}))
}
