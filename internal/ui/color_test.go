package ui

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/fatih/color"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/config"
)

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// TestColorEnabled pins the precedence: flag, then NO_COLOR, then
// TERM=dumb, then the terminal.
func TestColorEnabled(t *testing.T) {
	for _, tc := range []struct {
		name string
		mode config.Color
		env  map[string]string
		tty  bool
		want bool
	}{
		{"auto on a terminal", config.ColorAuto, nil, true, true},
		{"auto on a pipe", config.ColorAuto, nil, false, false},
		{"the zero Color is auto", "", nil, true, true},
		{"the zero Color on a pipe", "", nil, false, false},
		{"auto, xterm", config.ColorAuto, map[string]string{"TERM": "xterm-256color"}, true, true},
		{"auto, NO_COLOR=1", config.ColorAuto, map[string]string{"NO_COLOR": "1"}, true, false},
		{"auto, NO_COLOR=0 still counts", config.ColorAuto, map[string]string{"NO_COLOR": "0"}, true, false},
		{"auto, NO_COLOR empty is unset", config.ColorAuto, map[string]string{"NO_COLOR": ""}, true, true},
		{"auto, TERM=dumb", config.ColorAuto, map[string]string{"TERM": "dumb"}, true, false},
		{"always beats NO_COLOR", config.ColorAlways, map[string]string{"NO_COLOR": "1"}, false, true},
		{"always beats TERM=dumb", config.ColorAlways, map[string]string{"TERM": "dumb"}, false, true},
		{"always on a pipe", config.ColorAlways, nil, false, true},
		{"never on a terminal", config.ColorNever, map[string]string{"TERM": "xterm"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ColorEnabled(tc.mode, env(tc.env), tc.tty))
		})
	}
}

// TestColorMatrix: every flag × NO_COLOR × TERM × terminal-ness, for
// stdout and stderr separately, through IOStreams: each stream's palette
// follows its own terminal, and what it prints has escapes exactly when
// its decision says colour.
func TestColorMatrix(t *testing.T) {
	before := color.NoColor
	for _, mode := range []config.Color{config.ColorAuto, config.ColorAlways, config.ColorNever} {
		for _, noColor := range []string{"", "1"} {
			for _, term := range []string{"", "xterm", "dumb"} {
				for _, outTTY := range []bool{false, true} {
					for _, errTTY := range []bool{false, true} {
						name := fmt.Sprintf("%s/NO_COLOR=%s/TERM=%s/out-tty=%t/err-tty=%t", mode, noColor, term, outTTY, errTTY)
						t.Run(name, func(t *testing.T) {
							want := func(tty bool) bool {
								return mode == config.ColorAlways || mode == config.ColorAuto && noColor == "" && term != "dumb" && tty
							}
							s, _, out, errOut := Test()
							s.SetStdoutTTY(outTTY)
							s.SetStderrTTY(errTTY)
							s.SetColorMode(mode, env(map[string]string{"NO_COLOR": noColor, "TERM": term}))
							assert.Equal(t, want(outTTY), s.OutColors().Enabled(), "stdout")
							assert.Equal(t, want(errTTY), s.ErrColors().Enabled(), "stderr")

							fmt.Fprint(out, s.OutColors().Failed.Sprint("exit 1"))
							s.Printer().Error(errors.New("boom"), "try again")
							assert.Equal(t, want(outTTY), bytes.IndexByte(out.Bytes(), 0x1b) >= 0, "stdout: %q", out)
							assert.Equal(t, want(errTTY), bytes.IndexByte(errOut.Bytes(), 0x1b) >= 0, "stderr: %q", errOut)
						})
					}
				}
			}
		}
	}
	assert.Equal(t, before, color.NoColor, "the global is never touched")
}

// TestNoColorBytes: with NO_COLOR on terminals, everything ui prints is
// byte for byte the uncoloured text, without one escape byte.
func TestNoColorBytes(t *testing.T) {
	s, _, out, errOut := Test()
	s.SetStdoutTTY(true)
	s.SetStderrTTY(true)
	s.SetColorMode(config.ColorAuto, env(map[string]string{"NO_COLOR": "1", "TERM": "xterm"}))
	p := s.Printer()
	p.Error(errors.New("no recording \"x\""), "run 'rac out list'")
	p.Errorf("bad %s", "flag")
	p.Warnf("not recording: %v", "disk full")
	p.Hintf("pick a name like %s", "my-task-1")
	p.Infof("ref %s", "s/0001-echo")
	c := s.OutColors()
	tb := NewTable(out, 0, Column{Header: "REF"}, Column{Header: "STATUS"})
	tb.HeaderStyle = c.Bold
	tb.Row(c.Bold.Cell("s/0001"), c.Failed.Cell("exit 1"))
	tb.Row(Plain("s/0002"), c.Running.Cell("running"))
	require.NoError(t, tb.Render())
	for _, st := range []Style{c.Error, c.Warn, c.Hint, c.Bold, c.Dim, c.Match, c.Failed, c.Running, c.OK} {
		fmt.Fprint(out, st.Sprint("x"), st.Sprintf("%d", 1))
	}
	assert.Equal(t, `rac: no recording "x"
rac: hint: run 'rac out list'
rac: bad flag
rac: warning: not recording: disk full
rac: hint: pick a name like my-task-1
rac: ref s/0001-echo
`, errOut.String())
	assert.Equal(t, "REF     STATUS\ns/0001  exit 1\ns/0002  running\n"+"x1x1x1x1x1x1x1x1x1", out.String())
	assert.Equal(t, -1, bytes.IndexByte(out.Bytes(), 0x1b))
	assert.Equal(t, -1, bytes.IndexByte(errOut.Bytes(), 0x1b))
}

// TestColorOn: with colour, the prefixes are coloured and the rest of the
// line is the same text.
func TestColorOn(t *testing.T) {
	before := color.NoColor
	s, _, _, errOut := Test()
	s.SetColorMode(config.ColorAlways, env(nil))
	assert.Equal(t, before, color.NoColor, "the global is never touched")
	p := s.Printer()
	p.Error(errors.New("boom"), "try again")
	p.Warnf("careful")
	p.Infof("ref s/1")
	assert.Equal(t, "\x1b[31;1mrac:\x1b[0;22m boom\n"+
		"\x1b[36mrac: hint:\x1b[0m try again\n"+
		"\x1b[33mrac: warning:\x1b[0m careful\n"+
		"rac: ref s/1\n", errOut.String())
}

// TestStylesIndependent: deciding one stream never changes the other, nor
// a second IOStreams.
func TestStylesIndependent(t *testing.T) {
	a, _, _, _ := Test()
	b, _, _, _ := Test()
	a.SetStdoutTTY(true)
	a.SetColorMode(config.ColorAuto, env(nil))
	before := color.NoColor
	b.SetColorMode(config.ColorNever, env(nil))
	assert.Equal(t, before, color.NoColor, "the global is never touched")
	assert.True(t, a.OutColors().Enabled())
	assert.False(t, a.ErrColors().Enabled())
	assert.Equal(t, "\x1b[32mok\x1b[0m", a.OutColors().OK.Sprint("ok"))
	assert.Equal(t, "ok", a.ErrColors().OK.Sprint("ok"))
	assert.Equal(t, "ok", b.OutColors().OK.Sprint("ok"))
	assert.Equal(t, "ok", Style{}.Sprint("ok"), "the zero style is plain")
	b.SetColorMode(config.ColorAlways, env(nil))
	assert.Equal(t, before, color.NoColor, "the global is never touched")
	a.SetColorMode(config.ColorNever, env(nil))
	assert.Equal(t, "\x1b[32mok\x1b[0m", b.OutColors().OK.Sprint("ok"), "b keeps its own decision")
}
