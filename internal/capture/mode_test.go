package capture

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/runspec"
)

func TestChoose(t *testing.T) {
	person := Terminal{StdinTerminal: true, StdoutTerminal: true, Foreground: true}
	interactive := person
	interactive.Interactive = true
	for _, tc := range []struct {
		name      string
		requested runspec.Mode
		in        Terminal
		want      runspec.Mode
	}{
		{"a person at a terminal", runspec.ModeAuto, person, runspec.ModePTY},
		{"empty is auto", "", person, runspec.ModePTY},
		{"an editor", runspec.ModeAuto, interactive, runspec.ModePassthrough},
		{"an editor in the background still owns the terminal", runspec.ModeAuto, Terminal{StdinTerminal: true, StdoutTerminal: true, Interactive: true}, runspec.ModePassthrough},
		{"an agent, even with a terminal", runspec.ModeAuto, Terminal{StdinTerminal: true, StdoutTerminal: true, Foreground: true, Interactive: true, Agent: true}, runspec.ModePipe},
		{"stdout redirected", runspec.ModeAuto, Terminal{StdinTerminal: true, Foreground: true}, runspec.ModePipe},
		{"stdout redirected, an editor", runspec.ModeAuto, Terminal{StdinTerminal: true, Foreground: true, Interactive: true}, runspec.ModePipe},
		{"stdin redirected, an editor", runspec.ModeAuto, Terminal{StdoutTerminal: true, Foreground: true, Interactive: true}, runspec.ModePTY},
		{"a background job", runspec.ModeAuto, Terminal{StdinTerminal: true, StdoutTerminal: true}, runspec.ModePipe},
		{"nothing is a terminal", runspec.ModeAuto, Terminal{}, runspec.ModePipe},
		{"requested pipe", runspec.ModePipe, interactive, runspec.ModePipe},
		{"requested pty", runspec.ModePTY, Terminal{}, runspec.ModePTY},
		{"requested passthrough", runspec.ModePassthrough, Terminal{}, runspec.ModePassthrough},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Choose(tc.requested, tc.in))
		})
	}
}
