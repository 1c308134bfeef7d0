package capture

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/runspec"
)

// The timeout table runs on Linux only: elsewhere descendants cannot be
// found (no /proc) and --timeout signals the command (pty: its group).

// recScript is a process that records each SIGTERM it gets (in $D/NAME)
// and runs until SIGKILL, after starting one like it for each CHILD
// argument: "a,b" starts a, which starts b; "!a" starts a in a session
// (and process group) of its own. It waits on a sleep that ignores
// SIGTERM, so it forks nothing once the tree is in place (a process
// forked while rac walks the tree can be missed, the limit signalTree
// states). Its pid and its sleep's are in $D/NAME.pid once its trap is
// set.
const recScript = `name=$1; shift
for c in "$@"; do
	case $c in
	!*) setsid sh "$0" $(echo "${c#!}" | tr , ' ') & ;;
	*) sh "$0" $(echo "$c" | tr , ' ') & ;;
	esac
done
trap '' TERM
sleep 1000 & s=$!
trap 'echo TERM >>"$D/$name"' TERM
echo $$ $s >"$D/$name.tmp" && mv "$D/$name.tmp" "$D/$name.pid"
while :; do wait $s; done
`

// bystanderScript records a SIGTERM as recScript does and ends at SIGHUP,
// once it has run the traps of every signal sent before it.
const bystanderScript = `trap '' TERM HUP
sleep 1000 & s=$!
trap 'echo TERM >>"$D/bystander"' TERM
trap 'hup=1' HUP
echo $$ $s >"$D/bystander.tmp" && mv "$D/bystander.tmp" "$D/bystander.pid"
while [ -z "$hup" ]; do wait $s; done
kill -9 $s
`

// --timeout signals the command's whole tree in every mode, each process
// once: SIGTERM, then SIGKILL --kill-after later. The command (a shell
// that traps SIGTERM), its child and grandchild, and a child in a session
// of its own (setsid) each record the SIGTERM; all four end by the
// SIGKILL. rac's own process group is never signalled: a bystander in it
// (this test's group, which the command shares in pipe and passthrough
// mode) records nothing.
//
// The timers are fired by the test once the tree is in place (a timer
// that fires while the command still forks races the walk of its tree,
// the limit signalTree states), and the SIGKILL once each SIGTERM is
// recorded.
func TestTimeoutSignalsTheTree(t *testing.T) {
	for _, mode := range []runspec.Mode{runspec.ModePipe, runspec.ModePTY, runspec.ModePassthrough} {
		t.Run(string(mode), func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "rec.sh")
			require.NoError(t, os.WriteFile(script, []byte(recScript), 0o600))
			t.Setenv("D", dir)
			tree := []string{"command", "child", "grandchild", "away"}
			watch := newDirWatch(t, dir)
			bystander := exec.Command("sh", "-c", bystanderScript)
			require.NoError(t, bystander.Start())
			watch.pid(t, "bystander")

			timers := make(chan chan time.Time, 2)
			done := make(chan Outcome, 1)
			go func() {
				done <- Run(RunOptions{
					Argv: []string{"sh", script, "command", "child,grandchild", "!away"},
					Mode: mode, Stdout: devNullOut(t), Stderr: devNullOut(t),
					Timeout: time.Hour, KillAfter: time.Hour, DrainTimeout: time.Minute,
					timer: func(time.Duration) (<-chan time.Time, func()) {
						c := make(chan time.Time, 1)
						timers <- c
						return c, func() {}
					},
				})
			}()
			pids := map[string]int{}
			for _, name := range tree {
				pids[name] = watch.pid(t, name)
			}
			(<-timers) <- time.Now() // the timeout
			for _, name := range tree {
				watch.await(t, name)
			}
			(<-timers) <- time.Now() // the kill-after
			out := <-done
			require.Equal(t, record.StatusTimedOut, out.Status, out.Notes)
			require.Equal(t, 124, out.ExitCode)
			require.Equal(t, syscall.SIGKILL, out.Signal)
			for _, name := range tree {
				require.True(t, awaitExit(t, pids[name], time.Minute), "%s (pid %d) outlived the SIGKILL", name, pids[name])
				b, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err)
				require.Equal(t, "TERM\n", string(b), "the signals %s got", name)
			}
			require.NoError(t, bystander.Process.Signal(syscall.SIGHUP))
			require.NoError(t, bystander.Wait())
			require.NoFileExists(t, filepath.Join(dir, "bystander"), "rac's own group was signalled")
		})
	}
}

// dirWatch waits for files to appear in a folder (inotify: no polling).
type dirWatch struct {
	dir string
	fd  int
}

func newDirWatch(t *testing.T, dir string) *dirWatch {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	require.NoError(t, err)
	t.Cleanup(func() { unix.Close(fd) })
	_, err = unix.InotifyAddWatch(fd, dir, unix.IN_CLOSE_WRITE|unix.IN_MOVED_TO)
	require.NoError(t, err)
	return &dirWatch{dir: dir, fd: fd}
}

// await waits until dir holds name with a whole line in it (a shell's
// echo >>file creates the file before it writes), for at most a minute.
func (w *dirWatch) await(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	buf := make([]byte, 4096)
	for {
		if b, err := os.ReadFile(filepath.Join(w.dir, name)); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return
		}
		left := time.Until(deadline)
		require.Positive(t, left, "no line in %s in %s", name, w.dir)
		fds := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, int(left.Milliseconds())+1); err != nil && err != unix.EINTR {
			require.NoError(t, err)
		}
		for {
			if _, err := unix.Read(w.fd, buf); err != nil {
				break // drained (EAGAIN)
			}
		}
	}
}

// pid waits for NAME.pid and returns the first pid it holds; should the
// test fail, every pid in it is killed.
func (w *dirWatch) pid(t *testing.T, name string) int {
	t.Helper()
	w.await(t, name+".pid")
	b, err := os.ReadFile(filepath.Join(w.dir, name+".pid"))
	require.NoError(t, err)
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		require.NoError(t, err)
		pids = append(pids, pid)
	}
	require.NotEmpty(t, pids)
	t.Cleanup(func() {
		if t.Failed() {
			for _, pid := range pids {
				_ = unix.Kill(pid, unix.SIGKILL)
			}
		}
	})
	return pids[0]
}
