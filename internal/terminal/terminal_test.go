package terminal

import (
	"os"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestTerminalFacts(t *testing.T) {
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer tty.Close()
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 101}))
	assert.True(t, Is(tty))
	assert.Equal(t, 101, Width(tty))
	assert.False(t, Is(nil))
	assert.Equal(t, 0, Width(nil))
	f, err := os.CreateTemp(t.TempDir(), "x")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, Is(f))
	assert.Equal(t, 0, Width(f))
	// the test is no job of that terminal (it has no foreground group)
	assert.False(t, InForeground(tty))
	assert.False(t, InForeground(f))
	// the descriptor stays non-blocking: asked through SyscallConn, not Fd
	Control(tty, func(fd int) {
		fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
		require.NoError(t, err)
		assert.NotZero(t, fl&unix.O_NONBLOCK)
	})
}

func TestClosedFileIsNoTerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	require.NoError(t, tty.Close())
	assert.False(t, Is(tty))
	assert.Equal(t, 0, Width(tty))
	called := false
	Control(tty, func(int) { called = true })
	assert.False(t, called)
}
