package ui

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrinter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		print func(p *Printer)
		want  string
	}{
		{"error", func(p *Printer) { p.Error(errors.New("no session \"x\""), "") }, "rac: no session \"x\"\n"},
		{"error and hint", func(p *Printer) { p.Error(errors.New("bad ref"), "run 'rac out list'") },
			"rac: bad ref\nrac: hint: run 'rac out list'\n"},
		{"blank hint is none", func(p *Printer) { p.Error(errors.New("x"), "  ") }, "rac: x\n"},
		{"nil error prints nothing", func(p *Printer) { p.Error(nil, "a hint") }, ""},
		{"error text trimmed", func(p *Printer) { p.Error(errors.New("exit status 1\n"), "") }, "rac: exit status 1\n"},
		{"multi-line error stays one line", func(p *Printer) { p.Error(errors.New("a\nb"), "") }, `rac: a\nb` + "\n"},
		{"escaped error", func(p *Printer) { p.Error(errors.New("open \x1b]0;x\x07: no such file"), "") },
			`rac: open \x1b]0;x\x07: no such file` + "\n"},
		{"c1 escaped", func(p *Printer) { p.Errorf("no recording %s", "a\u009b2Jb") }, `rac: no recording a\x9b2Jb` + "\n"},
		{"escaped hint", func(p *Printer) { p.Error(errors.New("gone"), "it was: rm \x1b[2J") },
			"rac: gone\nrac: hint: it was: rm \\x1b[2J\n"},
		{"errorf", func(p *Printer) { p.Errorf("missing command: %s", "rac run CMD") }, "rac: missing command: rac run CMD\n"},
		{"warning", func(p *Printer) { p.Warnf("skipping %s: %v", "s/1", "bad footer") }, "rac: warning: skipping s/1: bad footer\n"},
		{"hint", func(p *Printer) { p.Hintf("pick a name like my-task-1") }, "rac: hint: pick a name like my-task-1\n"},
		{"info", func(p *Printer) { p.Infof("ref %s", "s/0001-echo") }, "rac: ref s/0001-echo\n"},
		{"mid-line", func(p *Printer) { p.SetMidLine(true); p.Infof("ref s/1"); p.Infof("ref s/2") }, "\nrac: ref s/1\nrac: ref s/2\n"},
		{"mid-line before error and hint", func(p *Printer) { p.SetMidLine(true); p.Error(errors.New("e"), "h") }, "\nrac: e\nrac: hint: h\n"},
		{"mid-line taken back", func(p *Printer) { p.SetMidLine(true); p.SetMidLine(false); p.Infof("x") }, "rac: x\n"},
		{"mid-line kept past a nil error", func(p *Printer) { p.SetMidLine(true); p.Error(nil, ""); p.Infof("x") }, "\nrac: x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, out, errOut := Test()
			tc.print(s.Printer())
			assert.Equal(t, tc.want, errOut.String())
			assert.Empty(t, out.String(), "nothing on stdout")
		})
	}
}

func TestPrinterOnePerStreams(t *testing.T) {
	s, _, _, errOut := Test()
	s.Printer().SetMidLine(true)
	s.Printer().Infof("x")
	assert.Equal(t, "\nrac: x\n", errOut.String(), "the mid-line state is the streams' own")
}

func TestNewPrinterNilPalette(t *testing.T) {
	var b strings.Builder
	NewPrinter(&b, nil).Warnf("w")
	assert.Equal(t, "rac: warning: w\n", b.String())
}

// TestPrinterConcurrent: lines from many goroutines come out whole.
func TestPrinterConcurrent(t *testing.T) {
	s, _, _, errOut := Test()
	p := s.Printer()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				p.Error(fmt.Errorf("error %d-%d", g, i), fmt.Sprintf("hint %d-%d", g, i))
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
	assert.Len(t, lines, 8*50*2)
	for i := 0; i+1 < len(lines); i += 2 {
		var g, n int
		_, err := fmt.Sscanf(lines[i], "rac: error %d-%d", &g, &n)
		assert.NoError(t, err, lines[i])
		assert.Equal(t, fmt.Sprintf("rac: hint: hint %d-%d", g, n), lines[i+1], "the hint follows its error")
	}
}
