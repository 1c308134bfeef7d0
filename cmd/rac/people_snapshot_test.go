package main

// Snapshots of what people read from rac out list, grep and explain, with
// a fixed clock and width: once with --color always, once with NO_COLOR=1
// on a terminal (not one escape byte), and the two the same text.

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

var peopleT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// peopleClock is the one clock of a snapshot's rac calls: it stands still
// at what the test set, so every start, end and "ago" is known.
type peopleClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *peopleClock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *peopleClock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

type peopleRac struct {
	p   *inProcess
	clk *peopleClock
}

// newPeopleRac records three commands a minute apart in session inproc
// (and one in session other, between them).
func newPeopleRac(t *testing.T) *peopleRac {
	r := &peopleRac{p: newInProcess(t), clk: &peopleClock{t: peopleT0}}
	r.p.env["LC_ALL"] = "C"
	r.record(0, "inproc", 2, "sh", "-c", `echo building; printf '\033[31merror\033[0m: undefined: openDB\n' >&2; exit 2`)
	r.record(30*time.Second, "other", 0, "echo", "an error elsewhere")
	r.record(time.Minute, "inproc", 0, "echo", "hello", "world")
	r.record(2*time.Minute, "inproc", 0, "sh", "-c", `echo no error here, only a long command line that a narrow terminal has to cut`)
	return r
}

// record runs argv through rac run at peopleT0+at, with real files for its
// streams (the child needs descriptors).
func (r *peopleRac) record(at time.Duration, session string, status int, argv ...string) {
	t := r.p.t
	r.clk.set(peopleT0.Add(at))
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	defer out.Close()
	errf, err := os.Create(filepath.Join(dir, "err"))
	require.NoError(t, err)
	defer errf.Close()
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	s, _, _, _ := ui.Test()
	s.In, s.Out, s.Err = null, out, errf
	s.InFile, s.OutFile, s.ErrFile = null, out, errf
	env := r.env()
	getenv := env.Getenv
	env.Getenv = func(k string) string {
		if k == "RAC_SESSION" {
			return session
		}
		return getenv(k)
	}
	require.Equal(t, status, mainEnv(append([]string{"run", "--"}, argv...), s, env))
}

func (r *peopleRac) env() app.Env {
	e := r.p.appEnv()
	e.Now = r.clk.now
	return e
}

// run runs a rac command five minutes after the first recording, on a
// pretend terminal 72 columns wide, with extra variables.
func (r *peopleRac) run(extra map[string]string, args ...string) (int, string, string) {
	r.clk.set(peopleT0.Add(5 * time.Minute))
	s, _, out, errOut := ui.Test()
	s.SetStdoutTTY(true)
	s.SetStderrTTY(true)
	s.SetTerminalWidth(72)
	env := r.env()
	getenv := env.Getenv
	env.Getenv = func(k string) string {
		if v, ok := extra[k]; ok {
			return v
		}
		return getenv(k)
	}
	code := mainEnv(args, s, env)
	return code, out.String(), errOut.String()
}

var peopleSGR = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestPeopleSnapshots(t *testing.T) {
	r := newPeopleRac(t)
	cwd, err := os.Getwd()
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		plain  string
		colour []string // pieces of the --color always output
	}{
		{"list", []string{"out", "list"}, 0, `session inproc
NAME             STATUS  STARTED  TOOK  SIZE    DISK  COMMAND
0001-sh          exit 2  5m ago    0ms  43 B  ------  sh -c 'echo build…
0002-echo-hello  exit 0  4m ago    0ms  12 B  ------  echo hello world
0003-sh          exit 0  3m ago    0ms  74 B  ------  sh -c 'echo no er…
`, []string{"\x1b[1msession inproc\x1b[22m\n", "\x1b[1mNAME\x1b[22m", "\x1b[31mexit 2\x1b[0m", "\x1b[32mexit 0\x1b[0m", "\x1b[2m5m ago\x1b[22m"}},
		{"list all sessions, oldest first", []string{"out", "list", "--all-sessions"}, 0, `REF                     STATUS  STARTED  TOOK  SIZE    DISK  COMMAND
inproc/0001-sh          exit 2  5m ago    0ms  43 B  ------  sh -c 'ech…
other/0001-echo         exit 0  4m ago    0ms  19 B  ------  echo 'an e…
inproc/0002-echo-hello  exit 0  4m ago    0ms  12 B  ------  echo hello…
inproc/0003-sh          exit 0  3m ago    0ms  74 B  ------  sh -c 'ech…
`, nil},
		{"grep", []string{"out", "grep", "--all-sessions", "error"}, 0, `inproc/0001-sh:stderr:1:error: undefined: openDB
inproc/0003-sh:1:no error here, only a long command line that a narrow terminal has to cut
other/0001-echo:1:an error elsewhere
`, []string{"\x1b[35minproc/0001-sh\x1b[0m\x1b[36m:\x1b[0mstderr\x1b[36m:\x1b[0m\x1b[32m1\x1b[0m\x1b[36m:\x1b[0m\x1b[31;1merror\x1b[0;22m: undefined: openDB\n"}},
		{"explain", []string{"out", "explain", "1"}, 0, `$ sh -c 'echo building; printf '\''\033[31merror\033[0m: undefined: openDB\n'\'' >&2; exit 2'  # in CWD
exited with code 2 after 0ms
cause (1 of 1 matching lines):
stderr:1: error: undefined: openDB
`, []string{"\n\x1b[31mexited with code 2 after 0ms\x1b[0m\n", "\x1b[36mstderr:1:\x1b[0m \x1b[31merror: undefined: openDB\x1b[0m\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, plain, stderr := r.run(map[string]string{"NO_COLOR": "1", "TERM": "xterm"}, tc.args...)
			assert.Equal(t, tc.code, code, stderr)
			plain = maskDisk(strings.ReplaceAll(plain, cwd, "CWD"))
			assert.Equal(t, tc.plain, plain)
			assert.Equal(t, -1, strings.IndexByte(plain+stderr, 0x1b), "NO_COLOR=1: no escape byte at all")

			code, coloured, stderr := r.run(map[string]string{"NO_COLOR": "1"}, append(tc.args, "--color", "always")...)
			assert.Equal(t, tc.code, code, stderr)
			coloured = strings.ReplaceAll(coloured, cwd, "CWD")
			assert.True(t, bytes.IndexByte([]byte(coloured), 0x1b) >= 0, "--color always beats NO_COLOR")
			assert.Equal(t, tc.plain, maskDisk(peopleSGR.ReplaceAllString(coloured, "")), "the same text under the colours")
			for _, piece := range tc.colour {
				assert.Contains(t, coloured, piece)
			}
		})
	}
}

// TestPeopleColourPrecedence: --color > NO_COLOR > TERM=dumb > is it a
// terminal, for stdout; stderr decides on its own.
func TestPeopleColourPrecedence(t *testing.T) {
	r := newPeopleRac(t)
	for _, tc := range []struct {
		name   string
		extra  map[string]string
		args   []string
		colour bool
	}{
		{"auto on a terminal", map[string]string{"TERM": "xterm"}, nil, true},
		{"--color never on a terminal", map[string]string{"TERM": "xterm"}, []string{"--color", "never"}, false},
		{"RAC_COLOR=never", map[string]string{"TERM": "xterm", "RAC_COLOR": "never"}, nil, false},
		{"--color always over RAC_COLOR=never", map[string]string{"RAC_COLOR": "never"}, []string{"--color", "always"}, true},
		{"NO_COLOR", map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, nil, false},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, nil, false},
		{"--color always over TERM=dumb", map[string]string{"TERM": "dumb"}, []string{"--color=always"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, _ := r.run(tc.extra, append([]string{"out", "list"}, tc.args...)...)
			assert.Equal(t, 0, code)
			assert.Equal(t, tc.colour, strings.Contains(out, "\x1b["), "%q", out)
		})
	}
	code, _, stderr := r.run(map[string]string{"TERM": "xterm"}, "out", "list", "--color", "sometimes")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "sometimes")
}

// maskDisk hides the cells of list's DISK column, which depend on the
// file system (its block size): each becomes dashes of the column's width.
func maskDisk(out string) string {
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		size, disk := strings.Index(l, "  SIZE  "), strings.Index(l, "  DISK  ")
		if size < 0 || disk < 0 {
			continue
		}
		from, to := size+len("  SIZE  "), disk+len("  DISK")
		for j := i + 1; j < len(lines) && len(lines[j]) >= to; j++ {
			r := []rune(lines[j])
			// the cells before DISK are ASCII in these snapshots
			lines[j] = string(r[:from]) + strings.Repeat("-", to-from) + string(r[to:])
		}
		break
	}
	return strings.Join(lines, "\n")
}
