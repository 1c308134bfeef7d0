package capture

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/terminal"
)

// The lender sees a read blocked on the pty in a grandchild of the
// command, with the count it asked for, and sees it once: a second look
// at the same read is the same reader, the read after it a new one.
func TestPTYReaderSeesABlockedRead(t *testing.T) {
	master, tty, err := pty.Open()
	require.NoError(t, err)
	defer master.Close()
	defer tty.Close()
	// non-canonical, as a program reading keys one by one sets it
	tio, err := terminal.GetTermios(int(tty.Fd()))
	require.NoError(t, err)
	tio.Lflag &^= unix.ICANON | unix.ECHO
	tio.Cc[unix.VMIN], tio.Cc[unix.VTIME] = 1, 0
	require.NoError(t, setTermios(int(tty.Fd()), tio))
	cmd := exec.Command("sh", "-c", `dd bs=1 count=1 2>/dev/null; dd bs=1 count=1 2>/dev/null; echo end`)
	cmd.Stdin, cmd.Stdout = tty, tty
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := &ptyRun{proc: &process{pid: cmd.Process.Pid}, slave: tty.Name()}

	wait := func(what string, ok func(reader, bool) bool) reader {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for {
			rd, found := r.ptyReader()
			if ok(rd, found) {
				return rd
			}
			require.True(t, time.Now().Before(deadline), "waited for %s; last: %+v %v", what, rd, found)
			time.Sleep(5 * time.Millisecond)
		}
	}
	first := wait("the first dd's read", func(rd reader, found bool) bool { return found })
	assert.Equal(t, 1, first.count, "dd bs=1 asks for one byte")
	assert.NotEqual(t, cmd.Process.Pid, first.pid, "the reader is the shell's child")
	again, found := r.ptyReader()
	assert.True(t, found)
	assert.Equal(t, first, again, "the same read, not yet given its key")
	_, err = master.Write([]byte("a"))
	require.NoError(t, err)
	second := wait("the second dd's read", func(rd reader, found bool) bool { return found && rd != first })
	assert.Equal(t, 1, second.count)
	_, err = master.Write([]byte("b"))
	require.NoError(t, err)
	wait("no read left", func(_ reader, found bool) bool { return !found })
}

func TestTreeListsDescendants(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 30 & sleep 30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // the test ends the whole group
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for len(tree(cmd.Process.Pid)) != 3 {
		require.True(t, time.Now().Before(deadline), "tree: %v", tree(cmd.Process.Pid))
		time.Sleep(5 * time.Millisecond)
	}
	assert.Equal(t, cmd.Process.Pid, tree(cmd.Process.Pid)[0], "the command first")
}
