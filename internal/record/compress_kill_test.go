package record

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/store"
)

// The child of TestKill9DuringCompression: it compresses the recording
// RAC_TEST_KILL_REC of the store RAC_TEST_KILL_STORE (session s), says
// "ready" on stdout once frames frames are written, and waits there to be
// killed.
func TestKillChild(t *testing.T) {
	storePath := os.Getenv("RAC_TEST_KILL_STORE")
	if storePath == "" {
		t.Skip("the child of TestKill9DuringCompression")
	}
	frames, err := strconv.Atoi(os.Getenv("RAC_TEST_KILL_FRAMES"))
	require.NoError(t, err)
	st, err := store.OpenStore(storePath)
	require.NoError(t, err)
	sd, err := st.Session("s", false)
	require.NoError(t, err)
	r, err := Open(sd, os.Getenv("RAC_TEST_KILL_REC"))
	require.NoError(t, err)
	calls := 0
	_, _ = r.Compress(CompressOptions{FrameSize: 4 << 10, Late: func() bool {
		calls++
		if calls == frames+1 {
			fmt.Println("ready")
			select {} // killed here, its temporary file half written
		}
		return false
	}})
	t.Fatal("not killed")
}

// kill -9 in the middle of compressing leaves the raw recording readable,
// and no frame file a reader would trust; the next compression cleans up
// and finishes.
func TestKill9DuringCompression(t *testing.T) {
	for _, frames := range []int{0, 1, 7} {
		t.Run(strconv.Itoa(frames), func(t *testing.T) {
			r, _ := numbered(t, 20000)
			dir := r.Dir()
			want := everything(t, r)
			cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
			cmd.Env = append(os.Environ(),
				"RAC_TEST_KILL_STORE="+filepath.Dir(filepath.Dir(filepath.Dir(dir))),
				"RAC_TEST_KILL_REC="+r.Name, "RAC_TEST_KILL_FRAMES="+strconv.Itoa(frames))
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			line, err := bufio.NewReader(out).ReadString('\n')
			require.NoError(t, err)
			require.Equal(t, "ready\n", line)
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()

			var temps []string
			for _, n := range names(t, dir) {
				if isCompressTemp(n) {
					temps = append(temps, n)
				}
				assert.False(t, strings.HasPrefix(n, "stdout.zst") && !isCompressTemp(n), "no frame file under its real name: %s", n)
			}
			assert.Len(t, temps, 1, "the half-written file is under its temporary name")
			assert.Contains(t, names(t, dir), "stdout")
			assert.Equal(t, want, everything(t, reopen(t, r)), "read as before")

			st, err := reopen(t, r).Compress(CompressOptions{FrameSize: 4 << 10})
			require.NoError(t, err)
			assert.True(t, st.Done)
			for _, n := range names(t, dir) {
				assert.False(t, isCompressTemp(n), n)
			}
			assert.Contains(t, names(t, dir), "stdout.zst")
			assert.Equal(t, want, everything(t, reopen(t, r)))
		})
	}
}
