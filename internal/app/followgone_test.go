package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/resolve"
)

// A recording removed while it is followed (it ended and was removed
// before the reader looked again) is reported as removed, with who
// removed it, not as a recorder that stopped before the command ended.
func TestFollowOfARemovedRecording(t *testing.T) {
	for _, how := range []string{"rm", "by hand"} {
		t.Run(how, func(t *testing.T) {
			f := newFixture(t)
			f.set.RedactEnabled = false // the bytes reach the store as written
			ctx := context.Background()
			rec, err := f.app().CreateRecording(ctx, RecordingRequest{Argv: []string{"server"}, Streams: []string{StreamCombined}})
			require.NoError(t, err)
			w, err := rec.Stream(StreamCombined)
			require.NoError(t, err)
			_, err = w.Write([]byte("first\n"))
			require.NoError(t, err)
			a := f.app()
			once := false
			a.followWait = func() {
				if once {
					return
				}
				once = true
				require.NoError(t, rec.Finish(Outcome{Status: StatusExited}))
				if how == "rm" {
					_, err := f.app().Remove(ctx, []string{rec.Ref()})
					require.NoError(t, err)
				} else {
					require.NoError(t, os.RemoveAll(filepath.Join(f.home, "sessions", "test", rec.Name())))
				}
			}
			var out strings.Builder
			ended, err := a.Read(ctx, ReadRequest{Ref: rec.Ref(), Follow: true}, &out)
			assert.Equal(t, "first\n", out.String(), "what was followed before stays")
			assert.Nil(t, ended)
			require.ErrorIs(t, err, ErrRemovedWhileFollowed)
			assert.Contains(t, err.Error(), "was removed while it was followed")
			assert.NotContains(t, err.Error(), "recorder")
			if how == "rm" {
				assert.ErrorIs(t, err, resolve.ErrExpired)
				assert.Contains(t, err.Error(), "removed by user")
			}
			assert.Equal(t, ExitNotFound, ExitStatus(err, false))
		})
	}
}
