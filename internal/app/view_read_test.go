package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/termtext"
)

// TestPager pins git's order and rac's refusals.
func TestPager(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		setting string
		req     ReadRequest
		tty     bool
		want    string
		wantEnv []string
	}{
		{"default", nil, "", ReadRequest{}, true, "less -R", []string{"LESS=FRX", "LV=-c"}},
		{"PAGER", map[string]string{"PAGER": "more"}, "", ReadRequest{}, true, "more", []string{"LESS=FRX", "LV=-c"}},
		{"RAC_PAGER over PAGER", map[string]string{"PAGER": "more", "RAC_PAGER": "most"}, "", ReadRequest{}, true, "most", nil},
		{"setting over both", map[string]string{"PAGER": "more", "RAC_PAGER": "most"}, "less -S", ReadRequest{}, true, "less -S", nil},
		{"LESS kept", map[string]string{"LESS": "-i", "LV": "x"}, "", ReadRequest{}, true, "less -R", []string{}},
		{"cat is none", map[string]string{"PAGER": "cat"}, "", ReadRequest{}, true, "", nil},
		{"not a terminal", nil, "", ReadRequest{}, false, "", nil},
		{"--no-pager", nil, "", ReadRequest{NoPager: true}, true, "", nil},
		{"--raw", nil, "", ReadRequest{Raw: true}, true, "", nil},
		{"--follow", nil, "", ReadRequest{Follow: true}, true, "", nil},
		{"an agent", map[string]string{"CLAUDECODE": "1"}, "less", ReadRequest{}, true, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			getenv := func(k string) string { return tc.env[k] }
			a := New(Env{Getenv: getenv, Environ: func() []string { return []string{"HOME=/h"} }}, Settings{})
			cmd, env := a.Pager(tc.req, tc.setting, tc.tty)
			assert.Equal(t, tc.want, cmd)
			if tc.want == "" {
				assert.Nil(t, env)
				return
			}
			assert.Equal(t, "HOME=/h", env[0], "rac's environment")
			if tc.wantEnv != nil {
				assert.Equal(t, tc.wantEnv, env[1:])
			}
		})
	}
}

// TestCleanKeepingSGR: SGRs stay where they stood, everything else is
// cleaned as CleanLine cleans it; without SGRs it is CleanLine.
func TestCleanKeepingSGR(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain\r", "plain"},
		{"\x1b[31mred\x1b[0m plain", "\x1b[31mred\x1b[0m plain"},
		{"a\x1b[1;38;5;196mb\x1b]0;title\x07c\x1b[0md\r", "a\x1b[1;38;5;196mbc\x1b[0md"},
		{"\x1b[2J\x1b[Hclear\x1b[K", "clear"},
		{"\x1b[?25l\x1b[32mok\x1b[m\x1b[?25h", "\x1b[32mok\x1b[m"},
		{"\x1b[31mabc\rxy", "xyc"},         // an overwrite: cleaned plain
		{"\x1b[31mab\bc", "ac"},            // a backspace too
		{"\x1b[31;\x1b[32mx", "\x1b[32mx"}, // a broken SGR is not kept
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\xc2\x9b31mx\x9b", "x\uFFFD"}, // 8-bit CSI: cleaned, a raw C1 byte defused
	} {
		got := cleanKeepingSGR([]byte(tc.in))
		assert.Equal(t, tc.want, string(got), "%q", tc.in)
		if !strings.Contains(tc.want, "\x1b") {
			assert.Equal(t, string(termtext.Defuse(termtext.CleanLine([]byte(tc.in)))), string(got), "%q", tc.in)
		}
	}
}

// TestColours: each line is whole in itself: colours left on carry to the
// next line and are reset at the end of each.
func TestColours(t *testing.T) {
	var c colours
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"\x1b[31mred", "\x1b[31mred\x1b[m"},
		{"still red", "\x1b[31mstill red\x1b[m"},
		{"\x1b[1mbold too", "\x1b[31m\x1b[1mbold too\x1b[m"},
		{"end\x1b[0m here", "\x1b[31m\x1b[1mend\x1b[0m here"},
		{"plain again", "plain again"},
		{"\x1b[0;32mgreen", "\x1b[0;32mgreen\x1b[m"},
		{"\x1b[mdone", "\x1b[0;32m\x1b[mdone"},
		{"", ""},
	} {
		assert.Equal(t, tc.want, string(c.line([]byte(tc.in))), "%q", tc.in)
	}
}
