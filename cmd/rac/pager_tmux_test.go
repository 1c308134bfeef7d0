//go:build unix

package main

// rac out read's pager in a real terminal (RAC_TMUX=1, as tmux_test.go):
// a recording longer than the screen opens less, which q closes; into a
// pipe, or under an agent, no pager runs.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPagerTmux(t *testing.T) {
	if os.Getenv("RAC_TMUX") != "1" {
		t.Skip("the real-terminal suite runs with RAC_TMUX=1 (make terminal)")
	}
	for _, tool := range []string{"tmux", "bash", "less", "stty", "seq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	s := &tmuxSuite{bin: t.TempDir()}
	build := exec.Command("go", "build", "-buildvcs=false", "-o", filepath.Join(s.bin, "rac"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build rac: %s", out)

	p := s.pane(t, t.TempDir())
	status, _ := p.run("rac run -- seq 1 200 >/dev/null", false)
	require.Equal(t, 0, status)
	isLess := func(l []string) bool { return len(l) == tmuxHeight && l[0] == "1" && l[tmuxHeight-1] == ":" }

	// longer than the screen: less, until q
	p.clear()
	p.typeLine("rac out read last")
	lines := p.waitScreen("rac's pager", isLess)
	assert.Equal(t, strconv.Itoa(tmuxHeight-1), lines[tmuxHeight-2], "one screen of the recording")
	p.waitProcs("less under rac", running("less"))
	p.keys("q")
	p.waitScreen("the prompt after q", func(l []string) bool { return bottomLine(l) == tmuxBarePrompt })
	assert.Equal(t, 0, p.status(), "rac out read's status after q; the screen:\n%v", p.screen())
	p.checkStty("rac out read in less")

	// the same as rac out last, and quitting before less has read it all
	p.clear()
	p.typeLine("rac out last")
	p.waitScreen("rac out last's pager", isLess)
	p.keys("q")
	p.waitScreen("the prompt after q", func(l []string) bool { return bottomLine(l) == tmuxBarePrompt })
	assert.Equal(t, 0, p.status())

	// into a pipe: never a pager, every line, and the prompt back by itself
	for _, line := range []string{"rac out read last | cat", "CLAUDECODE=1 rac out read --session tmux last", "rac out read --no-pager last"} {
		p.clear()
		status, out := p.run(line, false)
		assert.Equal(t, 0, status, line)
		require.Len(t, out, 200, "%s: every line, no pager; the screen:\n%v", line, p.screen())
		assert.Equal(t, "200", out[199], line)
	}

	// shorter than the screen: less -F quits at once (LESS=FRX), text stays
	status, _ = p.run("rac run -- echo short-one >/dev/null", false)
	require.Equal(t, 0, status)
	p.clear()
	p.typeLine("rac out read last")
	p.waitPromptAfter("short-one")

	// the recording's colours reach the terminal through the pager; into
	// a pipe they do not
	status, _ = p.run(`rac run -- printf '\033[31mred-one\033[0m\n' >/dev/null`, false)
	require.Equal(t, 0, status)
	for line, want := range map[string]bool{"rac out read last": true, "rac out read last | cat": false} {
		p.clear()
		status, out := p.run(line, true)
		assert.Equal(t, 0, status, line)
		require.Len(t, out, 1, line)
		assert.Equal(t, want, hasColour(out[0]), "%s: %q", line, out[0])
	}
}
