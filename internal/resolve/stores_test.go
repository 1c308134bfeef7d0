package resolve

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/store"
)

// storesWith makes one store per entry holding session s with the named
// recording folders (Find lists folders; it opens no recording).
func storesWith(t *testing.T, names ...[]string) []*store.Store {
	t.Helper()
	var stores []*store.Store
	for i, ns := range names {
		root := filepath.Join(t.TempDir(), "store", string(rune('a'+i)))
		for _, n := range ns {
			require.NoError(t, os.MkdirAll(filepath.Join(root, store.SessionsDir, "s", n), 0o700))
		}
		require.NoError(t, os.MkdirAll(root, 0o700))
		require.NoError(t, os.Chmod(filepath.Dir(root), 0o700))
		st, err := store.OpenStore(root)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		stores = append(stores, st)
	}
	return stores
}

func TestFindAcrossStores(t *testing.T) {
	stores := storesWith(t, []string{"0001-git-status", "0003-make"}, []string{"0002-go-test"}, nil)
	for _, tc := range []struct{ ref, name string }{
		{"last", "0003-make"},
		{"2", "0002-go-test"},
		{"go", "0002-go-test"},
		{"s/1", "0001-git-status"},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			tg, err := Find(stores, "s", tc.ref)
			require.NoError(t, err)
			defer tg.Close()
			assert.Equal(t, tc.name, tg.Name)
		})
	}
	// a session in the second store only is found too
	tg, err := Find(storesWith(t, nil, []string{"0001-x"}), "s", "last")
	require.NoError(t, err)
	assert.Equal(t, "0001-x", tg.Name)
	require.NoError(t, tg.Close())
}

func TestFindDuplicateAcrossStores(t *testing.T) {
	stores := storesWith(t, []string{"0001-a", "0002-b"}, []string{"0002-b"})
	_, err := Find(stores, "s", "0002-b")
	var dup *DuplicateError
	require.ErrorAs(t, err, &dup)
	assert.ErrorIs(t, err, ErrDuplicate)
	assert.Equal(t, []string{stores[0].Path, stores[1].Path}, dup.Stores)
	assert.Contains(t, err.Error(), stores[0].Path)
	assert.Contains(t, err.Error(), stores[1].Path)
	tg, err := Find(stores, "s", "1")
	require.NoError(t, err, "the other names still resolve")
	require.NoError(t, tg.Close())

	// one number with two names (two stores raced): ambiguous by number
	stores = storesWith(t, []string{"0004-a"}, []string{"0004-b"})
	_, err = Find(stores, "s", "4")
	assert.ErrorIs(t, err, ErrAmbiguous)
}
