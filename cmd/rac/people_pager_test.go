package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/ui"
)

// readTo runs rac out read with stdout a real file that passes for a
// terminal or not, and returns what landed in the file.
func (r *peopleRac) readTo(tty bool, extra map[string]string, args ...string) (int, string, string) {
	t := r.p.t
	f, err := os.Create(filepath.Join(t.TempDir(), "screen"))
	require.NoError(t, err)
	defer f.Close()
	s, _, _, errOut := ui.Test()
	s.Out, s.OutFile = f, f
	s.SetStdoutTTY(tty)
	env := r.env()
	getenv := env.Getenv
	env.Getenv = func(k string) string {
		if v, ok := extra[k]; ok {
			return v
		}
		return getenv(k)
	}
	environ := env.Environ
	env.Environ = func() []string {
		out := environ()
		for k, v := range extra {
			out = append(out, k+"="+v)
		}
		return out
	}
	code := mainEnv(append([]string{"out", "read"}, args...), s, env)
	b, err := os.ReadFile(f.Name())
	require.NoError(t, err)
	return code, string(b), errOut.String()
}

// TestReadPager: on a terminal read pages through read.pager, else
// $RAC_PAGER, else $PAGER; never into a pipe (read | cat), with
// --no-pager, or under an agent.
func TestReadPager(t *testing.T) {
	r := newPeopleRac(t)
	r.record(3*time.Minute, "inproc", 0, "printf", `one\ntwo\n`)
	paged := map[string]string{"RAC_PAGER": `sed 's/^/rac-pager: /'`, "PAGER": `sed 's/^/pager: /'`}
	for _, tc := range []struct {
		name  string
		tty   bool
		extra map[string]string
		args  []string
		want  string
	}{
		{"terminal: $RAC_PAGER", true, paged, nil, "rac-pager: one\nrac-pager: two\n"},
		{"terminal: $PAGER", true, map[string]string{"PAGER": paged["PAGER"]}, []string{"last"}, "pager: one\npager: two\n"},
		{"terminal: read.pager first", true, map[string]string{"RAC_READ_PAGER": `sed 's/^/setting: /'`, "RAC_PAGER": paged["RAC_PAGER"]}, nil, "setting: one\nsetting: two\n"},
		{"terminal: LESS=FRX for the pager", true, map[string]string{"RAC_PAGER": `cat >/dev/null; echo "LESS=$LESS"`}, nil, "LESS=FRX\n"},
		{"a pipe: never", false, paged, nil, "one\ntwo\n"},
		{"--no-pager", true, paged, []string{"--no-pager"}, "one\ntwo\n"},
		{"an agent: never", true, map[string]string{"RAC_PAGER": paged["RAC_PAGER"], "CLAUDECODE": "1"}, nil, "one\ntwo\n"},
		{"cat is no pager", true, map[string]string{"PAGER": "cat"}, nil, "one\ntwo\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, screen, stderr := r.readTo(tc.tty, tc.extra, tc.args...)
			assert.Equal(t, 0, code, stderr)
			assert.Equal(t, tc.want, screen)
		})
	}
	code, screen, _ := r.readTo(true, paged, "4", "--lines", "x")
	assert.Equal(t, 2, code, "an error through the pager is still the error")
	assert.Empty(t, screen)

	// q before the end: the pager stops reading, and that is no error
	r.record(4*time.Minute, "inproc", 0, "seq", "1", "300000")
	code, screen, stderr := r.readTo(true, map[string]string{"RAC_PAGER": "head -n 2"})
	assert.Equal(t, 0, code, stderr)
	assert.Equal(t, "1\n2\n", screen)
	assert.Empty(t, stderr)
}

// TestReadColours: the recording's own colours are kept where rac's colour
// is on, everything else still cleaned; stripped into a pipe and with
// NO_COLOR.
func TestReadColours(t *testing.T) {
	r := newPeopleRac(t)
	r.record(3*time.Minute, "inproc", 0, "printf", `\033[31mred\033[0m \033]0;title\007plain\033[2K\n`)
	noPager := map[string]string{"PAGER": "cat", "TERM": "xterm"}
	code, screen, _ := r.readTo(true, noPager)
	assert.Equal(t, 0, code)
	assert.Equal(t, "\x1b[31mred\x1b[0m plain\n", screen)
	for name, extra := range map[string]map[string]string{
		"NO_COLOR":  {"PAGER": "cat", "TERM": "xterm", "NO_COLOR": "1"},
		"TERM=dumb": {"PAGER": "cat", "TERM": "dumb"},
	} {
		_, screen, _ = r.readTo(true, extra)
		assert.Equal(t, "red plain\n", screen, name)
	}
	_, screen, _ = r.readTo(false, noPager)
	assert.Equal(t, "red plain\n", screen, "a pipe")
	_, screen, _ = r.readTo(false, noPager, "--color", "always")
	assert.Equal(t, "\x1b[31mred\x1b[0m plain\n", screen, "--color always into a pipe")
	_, screen, _ = r.readTo(true, noPager, "--json")
	assert.Equal(t, `{"stream":"stdout","line":1,"text":"red plain"}`+"\n", screen, "JSON is never coloured")
}
