package store

import (
	"errors"
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
	for name, content := range map[string]string{
		"empty":     "",
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
