package capture

import (
	"os"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChoose(t *testing.T) {
	person := Terminal{StdinTerminal: true, StdoutTerminal: true, Foreground: true}
	interactive := person
	interactive.Interactive = true
	for _, tc := range []struct {
		name      string
		requested Mode
		in        Terminal
		want      Mode
	}{
		{"a person at a terminal", ModeAuto, person, ModePTY},
		{"empty is auto", "", person, ModePTY},
		{"an editor", ModeAuto, interactive, ModePassthrough},
		{"an editor in the background still owns the terminal", ModeAuto, Terminal{StdinTerminal: true, StdoutTerminal: true, Interactive: true}, ModePassthrough},
		{"an agent, even with a terminal", ModeAuto, Terminal{StdinTerminal: true, StdoutTerminal: true, Foreground: true, Interactive: true, Agent: true}, ModePipe},
		{"stdout redirected", ModeAuto, Terminal{StdinTerminal: true, Foreground: true}, ModePipe},
		{"stdout redirected, an editor", ModeAuto, Terminal{StdinTerminal: true, Foreground: true, Interactive: true}, ModePipe},
		{"stdin redirected, an editor", ModeAuto, Terminal{StdoutTerminal: true, Foreground: true, Interactive: true}, ModePTY},
		{"a background job", ModeAuto, Terminal{StdinTerminal: true, StdoutTerminal: true}, ModePipe},
		{"nothing is a terminal", ModeAuto, Terminal{}, ModePipe},
		{"requested pipe", ModePipe, interactive, ModePipe},
		{"requested pty", ModePTY, Terminal{}, ModePTY},
		{"requested passthrough", ModePassthrough, Terminal{}, ModePassthrough},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Choose(tc.requested, tc.in))
		})
	}
}

func TestTerminalFacts(t *testing.T) {
	ptmx, tty, err := pty.Open()
	require.NoError(t, err)
	defer ptmx.Close()
	defer tty.Close()
	assert.True(t, IsTerminal(tty))
	assert.False(t, IsTerminal(nil))
	f, err := os.CreateTemp(t.TempDir(), "x")
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, IsTerminal(f))
	// the test is no job of that terminal (it has no foreground group)
	assert.False(t, InForeground(tty))
	assert.False(t, InForeground(f))
}
