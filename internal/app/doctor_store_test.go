package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rac doctor's store check agrees with rac run: each store root run
// refuses (a regular file, a folder others can write, a symlink, a session
// folder that is a symlink) fails the check, and each one run records in
// passes it.
func TestDoctorStoreAgreesWithRun(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, home string)
	}{
		{"missing, parent writable", func(t *testing.T, home string) { require.NoError(t, os.Remove(home)) }},
		{"private folder", func(t *testing.T, home string) {}},
		{"regular file", func(t *testing.T, home string) {
			require.NoError(t, os.Remove(home))
			require.NoError(t, os.WriteFile(home, nil, 0o600))
		}},
		{"mode 0777", func(t *testing.T, home string) { require.NoError(t, os.Chmod(home, 0o777)) }},
		{"symlink", func(t *testing.T, home string) {
			real := home + ".real"
			require.NoError(t, os.Rename(home, real))
			require.NoError(t, os.Symlink(real, home))
		}},
		{"session folder a symlink", func(t *testing.T, home string) {
			require.NoError(t, os.Mkdir(filepath.Join(home, "sessions"), 0o700))
			require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(home, "sessions", "test")))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.setup(t, f.home)
			var store Check
			for _, c := range f.app().Doctor(DoctorEnv{Self: "/x/rac", Cwd: t.TempDir(), LookPath: func(string) (string, error) { return "/x/rac", nil }}) {
				if c.Name == "store" {
					store = c
				}
			}
			_, err := f.app().CreateRecording(context.Background(), RecordingRequest{Argv: []string{"true"}, Streams: []string{StreamStdout}})
			if err == nil {
				assert.Equal(t, CheckOK, store.Status, "rac run records, doctor says %+v", store)
			} else {
				assert.Equal(t, CheckFail, store.Status, "rac run refuses (%v), doctor says %+v", err, store)
				assert.NotEmpty(t, store.Fix)
			}
		})
	}
}
