package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

// inProcess runs rac commands in this process, with buffers for streams
// and an environment of its own: the read verbs are tested without a
// binary.
type inProcess struct {
	t   *testing.T
	env map[string]string
}

func newInProcess(t *testing.T) *inProcess {
	dir := t.TempDir()
	return &inProcess{t: t, env: map[string]string{
		"HOME": filepath.Join(dir, "home"), "RAC_HOME": filepath.Join(dir, "store"),
		"RAC_SESSION": "inproc", "TMPDIR": dir, "PATH": os.Getenv("PATH"),
	}}
}

func (p *inProcess) appEnv() app.Env {
	return app.Env{
		Getenv: func(k string) string { return p.env[k] },
		Environ: func() []string {
			var out []string
			for k, v := range p.env {
				out = append(out, k+"="+v)
			}
			return out
		},
		Now: time.Now, Version: "test",
	}
}

// record runs argv through rac run with real files for its streams (the
// child needs descriptors) and returns the reference rac printed.
func (p *inProcess) record(argv ...string) string {
	t := p.t
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	errf, err := os.Create(filepath.Join(dir, "err"))
	require.NoError(t, err)
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer func() { _ = out.Close(); _ = errf.Close(); _ = null.Close() }()
	s, _, _, _ := ui.Test()
	s.In, s.Out, s.Err = null, out, errf
	s.InFile, s.OutFile, s.ErrFile = null, out, errf
	// the reference is what the caller reads: printed whatever the outcome
	code := mainEnv(append([]string{"run", "--announce", "end", "--"}, argv...), s, p.appEnv())
	require.Equal(t, 0, code)
	b, err := os.ReadFile(errf.Name())
	require.NoError(t, err)
	ref, ok := strings.CutPrefix(strings.TrimSpace(lastLine(string(b))), "rac: ref ")
	require.True(t, ok, "rac run's last line is its reference: %q", b)
	return ref
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// run runs a rac command with buffers and returns status, stdout, stderr.
func (p *inProcess) run(args ...string) (int, string, string) {
	s, _, out, errOut := ui.Test()
	code := mainEnv(args, s, p.appEnv())
	return code, out.String(), errOut.String()
}

func TestInProcessReadVerbs(t *testing.T) {
	p := newInProcess(t)
	ref := p.record("sh", "-c", `printf 'one\ntwo\nabc err\007or def\n'; printf 'oops\n' >&2`)
	require.True(t, strings.HasPrefix(ref, "inproc/0001-sh"), ref)

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"read tail", []string{"out", "read", "last", "--tail", "1", "--stream", "stdout"}, 0, "abc error def\n", ""},
		{"read lines", []string{"out", "read", ref, "--stream", "stdout", "--lines", "2:2"}, 0, "two\n", ""},
		{"read stderr", []string{"out", "read", "1", "--stream", "stderr"}, 0, "oops\n", ""},
		{"grep finds a word split by BEL", []string{"out", "grep", "error"}, 0, ref + ":3:abc error def\n", ""},
		{"grep no match", []string{"out", "grep", "nothing-like-this"}, 1, "", ""},
		{"path", []string{"out", "path", "last"}, 0, filepath.Join(p.env["RAC_HOME"], "sessions", ref) + "\n", ""},
		{"read two refs", []string{"out", "read", "1", "2"}, 2, "", "rac: too many arguments: rac out read takes one reference\nrac: hint: run 'rac out read --help' for the usage and examples\n"},
		{"tail not a number", []string{"out", "read", "last", "--tail", "abc"}, 2, "", "rac: invalid --tail \"abc\": use a whole number\nrac: hint: run 'rac out read --help' for the usage and examples\n"},
		{"unknown session, one hint", []string{"out", "list", "--session", "nosuch"}, 1, "",
			"rac: not found: no session \"nosuch\"\nrac: hint: run 'rac out list --all-sessions' to see every session\n"},
		{"read in unknown session", []string{"out", "read", "--session", "nosuch", "last"}, 1, "",
			"rac: not found: no session \"nosuch\"\nrac: hint: run 'rac out list --all-sessions' to see every session\n"},
		{"short ref, empty current session", []string{"out", "read", "--session", "inproc", "99"}, 1, "",
			"rac: not found: no recording \"99\" in session \"inproc\"\nrac: hint: run 'rac out list' to see the recordings of session inproc, or 'rac out list --all-sessions'\n"},
		{"version", []string{"version"}, 0, "rac version " + app.Version + "\n", ""},
		{"--version", []string{"--version"}, 0, "rac version " + app.Version + "\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := p.run(tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.stdout, stdout)
			if tc.stderr != "" || code == 0 {
				assert.Equal(t, tc.stderr, stderr)
			}
		})
	}
}

func TestInProcessExplainAndList(t *testing.T) {
	p := newInProcess(t)
	ref := p.record("sh", "-c", `echo building; echo 'main.go:3: undefined: x' >&2; exit 0`)
	code, out, _ := p.run("out", "explain", ref)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "stderr:1: main.go:3: undefined: x")
	code, out, _ = p.run("out", "list", "--json")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `"ref": "`+ref+`"`)
}

// runStatus runs rac run with real files and returns status and stderr.
func (p *inProcess) runFiles(args ...string) (int, string) {
	t := p.t
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "out"))
	require.NoError(t, err)
	errf, err := os.Create(filepath.Join(dir, "err"))
	require.NoError(t, err)
	defer func() { _ = out.Close(); _ = errf.Close() }()
	s, _, _, _ := ui.Test()
	s.Out, s.Err, s.OutFile, s.ErrFile = out, errf, out, errf
	code := mainEnv(args, s, p.appEnv())
	b, err := os.ReadFile(errf.Name())
	require.NoError(t, err)
	return code, string(b)
}

func TestExecFormatAndNeverStarted(t *testing.T) {
	p := newInProcess(t)
	bin := filepath.Join(t.TempDir(), "garbage")
	require.NoError(t, os.WriteFile(bin, []byte("\x7fnot an executable\x00\x01"), 0o755))
	code, stderr := p.runFiles("run", "--", bin)
	assert.Equal(t, 126, code)
	assert.Contains(t, stderr, "garbage: exec format error")
	assert.NotContains(t, stderr, "permission denied")

	// reading it back says why there is no output
	code, out, errOut := p.run("out", "read", "last")
	assert.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "0001-garbage never started: ")
	assert.Contains(t, errOut, "exec format error")
}

// One invalid name, one message, wherever it is given.
func TestInvalidSessionNameOneMessage(t *testing.T) {
	p := newInProcess(t)
	var msgs []string
	for _, args := range [][]string{
		{"out", "list", "--session", "Bad Name"},
		{"out", "grep", "--session", "Bad Name", "x"},
		{"out", "read", "--session", "Bad Name", "last"},
		{"out", "purge", "--session", "Bad Name", "--yes"},
		{"session", "--session", "Bad Name"},
	} {
		code, _, stderr := p.run(args...)
		assert.Equal(t, 2, code, args)
		first, _, _ := strings.Cut(stderr, "\n")
		msgs = append(msgs, first)
	}
	for _, m := range msgs {
		assert.Equal(t, msgs[0], m)
	}
	assert.Contains(t, msgs[0], `invalid session name "Bad Name" from --session`)
}

// A raw C1 byte (an 8-bit terminal's CSI or OSC) never reaches the
// terminal from read or grep.
func TestReadAndGrepDefuseC1(t *testing.T) {
	p := newInProcess(t)
	ref := p.record("printf", `c1 \233 2J here \235 0;t\a\n`)
	for _, args := range [][]string{{"out", "read", ref}, {"out", "grep", "here"}} {
		code, out, _ := p.run(args...)
		assert.Equal(t, 0, code, args)
		assert.NotContains(t, out, "\x9b", args)
		assert.NotContains(t, out, "\x9d", args)
		assert.Contains(t, out, "c1 \uFFFD 2J here", args)
	}
}

// More than 1 MiB of argv still gives a recording that can be listed and
// read (meta.json keeps a bounded argv).
func TestHugeArgvStaysReadable(t *testing.T) {
	p := newInProcess(t)
	args := []string{"true"}
	for i := 0; len(strings.Join(args, " ")) < 1200<<10; i++ {
		args = append(args, strings.Repeat("a", 1000))
	}
	ref := p.record(args...)
	code, out, stderr := p.run("out", "list", "--json")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, ref)
	assert.Contains(t, out, "more bytes of arguments not stored")
	code, _, stderr = p.run("out", "read", ref)
	assert.Equal(t, 0, code, stderr)
}

// TestListAndExplainSayOneDuration: rac out list's TOOK and rac out
// explain's outcome line (and its --json "outcome") say the same duration
// for the same recording, in the one form (units.Duration), whatever its
// size.
func TestListAndExplainSayOneDuration(t *testing.T) {
	p := newInProcess(t)
	ref := p.record("true")
	dir := filepath.Join(p.env["RAC_HOME"], "sessions", ref)
	start := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		took time.Duration
		want string
	}{
		{850 * time.Millisecond, "850ms"},
		{2310 * time.Millisecond, "2.3s"},
		{59960 * time.Millisecond, "1m00s"},
		{2*time.Hour + 5*time.Minute, "2h05m"},
		{76 * time.Hour, "3d04h"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			setJSONTime(t, filepath.Join(dir, "meta.json"), "started_at", start)
			setJSONTime(t, filepath.Join(dir, "footer.json"), "ended_at", start.Add(tc.took))

			code, list, _ := p.run("out", "list")
			require.Equal(t, 0, code)
			row := lastLine(list)
			require.True(t, strings.HasPrefix(row, "0001-true "), "%q", list)
			assert.Equal(t, tc.want, strings.Fields(row)[len(strings.Fields(row))-6], "list's TOOK in %q", row)

			code, text, _ := p.run("out", "explain", ref)
			require.Equal(t, 0, code)
			assert.Equal(t, "exited with code 0 after "+tc.want, strings.Split(text, "\n")[1])

			code, js, _ := p.run("out", "explain", ref, "--json")
			require.Equal(t, 0, code)
			var v struct{ Outcome string }
			require.NoError(t, json.Unmarshal([]byte(js), &v))
			assert.Equal(t, "exited with code 0 after "+tc.want, v.Outcome)
		})
	}
}

// setJSONTime sets one top-level time of a recording's JSON file, keeping
// the rest (and the file's mode).
func setJSONTime(t *testing.T, path, key string, at time.Time) {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	m[key] = at.Format(time.RFC3339Nano)
	b, err = json.MarshalIndent(m, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o600))
}
