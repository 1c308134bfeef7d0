package ui

import (
	"os"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/config"
)

// TestTerminalChecks against a real pseudo-terminal and a real pipe.
func TestTerminalChecks(t *testing.T) {
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer tty.Close()
	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 123}))
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()

	s := &IOStreams{In: tty, Out: tty, Err: w, InFile: tty, OutFile: tty, ErrFile: w, outColors: newPalette(), errColors: newPalette()}
	assert.True(t, s.IsStdinTTY())
	assert.True(t, s.IsStdoutTTY())
	assert.False(t, s.IsStderrTTY(), "a pipe")
	assert.Equal(t, 123, s.TerminalWidth())
	assert.False(t, s.OutErrShared(), "a terminal and a pipe")

	s.SetColorMode(config.ColorAuto, env(map[string]string{"TERM": "xterm"}))
	assert.True(t, s.OutColors().Enabled(), "stdout is the terminal")
	assert.False(t, s.ErrColors().Enabled(), "stderr is the pipe")

	s.ErrFile = tty
	assert.True(t, s.OutErrShared(), "one terminal")

	require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 30, Cols: 0}))
	assert.Equal(t, defaultWidth, s.TerminalWidth(), "a terminal that does not say")

	s.OutFile = w
	assert.False(t, s.IsStdoutTTY())
	assert.Equal(t, 0, s.TerminalWidth(), "a pipe is never cut")
	s.SetStdoutTTY(true)
	assert.True(t, s.IsStdoutTTY(), "the fake wins")
	s.SetTerminalWidth(40)
	assert.Equal(t, 40, s.TerminalWidth())
}

func TestTestStreams(t *testing.T) {
	s, in, out, errOut := Test()
	assert.Same(t, in, s.In)
	assert.Same(t, out, s.Out)
	assert.Same(t, errOut, s.Err)
	assert.Nil(t, s.OutFile)
	assert.False(t, s.IsStdinTTY() || s.IsStdoutTTY() || s.IsStderrTTY())
	assert.Equal(t, 0, s.TerminalWidth())
	assert.False(t, s.OutErrShared())
	s.SetStdoutTTY(true)
	assert.Equal(t, defaultWidth, s.TerminalWidth())
	assert.False(t, s.IsStderrTTY(), "each stream its own fake")
	s.SetOutErrShared(true)
	assert.True(t, s.OutErrShared())
	assert.False(t, s.OutColors().Enabled() || s.ErrColors().Enabled(), "no colour until decided")
	assert.Same(t, s.Printer(), s.Printer())
}

func TestSystem(t *testing.T) {
	s := System()
	assert.Same(t, os.Stdin, s.InFile)
	assert.Same(t, os.Stdout, s.OutFile)
	assert.Same(t, os.Stderr, s.ErrFile)
	assert.Equal(t, s.Out, any(os.Stdout))
	assert.NotNil(t, s.OutColors())
}
