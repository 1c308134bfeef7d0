package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/racmcp"
	"github.com/rac-cli/rac/internal/ui"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden parts of testscript files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rac": func() { os.Exit(Main(os.Args[1:], ui.System())) },
		// rac mcp runs rac-mcp beside rac: the scripts' PATH has both
		"rac-mcp": func() {
			os.Exit(racmcp.Main(os.Args[1:], ui.System(), app.Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now, Version: app.Version}))
		},
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script"))
}

func scriptParams(t *testing.T, dir string) testscript.Params {
	return testscript.Params{
		Dir:           filepath.Join("..", "..", dir),
		UpdateScripts: *update,
		// rac is a program on the scripts' PATH like any other: "exec rac"
		RequireExplicitExec: true,
		// a second file of one name in an archive would silently replace the first
		RequireUniqueNames: true,
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			home := filepath.Join(work, "home")
			for k, v := range map[string]string{
				"HOME":            home,
				"XDG_STATE_HOME":  filepath.Join(home, ".local", "state"),
				"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
				"RAC_HOME":        filepath.Join(work, "store"),
				"TMPDIR":          filepath.Join(work, "tmp"),
				"NO_COLOR":        "1",
				"RAC_SESSION":     "test",
				"LC_ALL":          "C",
			} {
				env.Setenv(k, v)
			}
			// A harness id inherited from the machine running the tests
			// must not leak into the scripts' sessions.
			for _, kv := range os.Environ() {
				k, _, _ := strings.Cut(kv, "=")
				if isAgentVar(k) || strings.HasPrefix(k, "TMUX") || strings.HasPrefix(k, "RAC_") {
					env.Setenv(k, "")
				}
			}
			env.Setenv("RAC_HOME", filepath.Join(work, "store"))
			env.Setenv("RAC_SESSION", "test")
			env.Setenv("GORACE", goraceNoSleep(os.Getenv("GORACE")))
			// the work folder goes when the script ends: not under a
			// detached gc pass still compressing a recording in it
			env.Defer(func() { _ = waitDetachedGC(filepath.Join(work, "store")) })
			for _, d := range []string{home, filepath.Join(work, "tmp")} {
				if err := os.MkdirAll(d, 0o700); err != nil {
					return err
				}
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":  cmdExitcode,
			"waitfile":  cmdWaitfile,
			"sha256eq":  cmdSha256eq,
			"perm":      cmdPerm,
			"nofile":    cmdNofile,
			"grepstore": cmdGrepStore,
			"waitstore": cmdWaitStore,
			"json":      cmdJSON,
			// retention (script_gc_test.go)
			"backdate": cmdBackdate, "sizeatmost": cmdSizeAtMost, "snapshot": cmdSnapshot, "waitgone": cmdWaitgone, "waitexit": cmdWaitexit, "benchstore": cmdBenchstore, "waitgc": cmdWaitgc,
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			}
			if name, ok := strings.CutPrefix(cond, "have:"); ok {
				_, err := exec.LookPath(name)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	}
}

// isAgentVar: a variable an agent harness sets (a harness id inherited
// from the machine running the tests must not leak into them).
func isAgentVar(k string) bool {
	for _, p := range []string{"CLAUDE", "CODEX", "GEMINI", "CURSOR", "COPILOT", "OPENCODE", "AMP_", "GOOSE"} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return k == "AGENT" || k == "AI_AGENT"
}

// testScale stretches a test's bounded waits by RAC_TEST_SCALE (a whole
// number, 1 by default) on a machine too slow for them; make test passes
// the same variable to go test's -timeout.
func testScale(d time.Duration) time.Duration {
	if n, err := strconv.Atoi(os.Getenv("RAC_TEST_SCALE")); err == nil && n > 1 {
		return d * time.Duration(n)
	}
	return d
}

// goraceNoSleep is the GORACE for the race-built binaries a test starts
// (rac is this test binary under -race): the caller's options, plus no
// sleep at exit. The race runtime sleeps a second at exit by default, once
// per rac call: most of the scripts' time under -race. A caller who chose
// atexit_sleep_ms keeps their choice.
func goraceNoSleep(gorace string) string {
	if strings.Contains(gorace, "atexit_sleep_ms=") {
		return gorace
	}
	return strings.TrimSpace(gorace + " atexit_sleep_ms=0")
}

// exitcode N prog args...: run prog and require status N; a signal death
// counts as 128+N, as a shell reports it. Its stdout and stderr are kept
// for the stdout/stderr checks.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		ws := ee.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			got = 128 + int(ws.Signal())
		} else {
			got = ws.ExitStatus()
		}
	default:
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// waitfile PATH: wait for a file a background command creates (bounded:
// the script fails after a minute rather than hanging).
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitfile PATH")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := os.Stat(path)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitfile: %s did not appear", args[0])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sha256eq A B: the two files have the same content.
func cmdSha256eq(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sha256eq A B")
	}
	sum := func(p string) [32]byte {
		b, err := os.ReadFile(ts.MkAbs(p))
		ts.Check(err)
		return sha256.Sum256(b)
	}
	eq := sum(args[0]) == sum(args[1])
	if eq == neg {
		ts.Fatalf("sha256 of %s and %s: equal=%v", args[0], args[1], eq)
	}
}

// perm DIRMODE FILEMODE ROOT: every folder under ROOT has DIRMODE and every
// file FILEMODE (octal).
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: perm DIRMODE FILEMODE ROOT")
	}
	dm, err := strconv.ParseUint(args[0], 8, 32)
	ts.Check(err)
	fm, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	n := 0
	ts.Check(filepath.Walk(ts.MkAbs(args[2]), func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := os.FileMode(fm)
		if fi.IsDir() {
			want = os.FileMode(dm)
		}
		if fi.Mode().Perm() != want {
			ts.Fatalf("%s has mode %04o, want %04o", p, fi.Mode().Perm(), want)
		}
		n++
		return nil
	}))
	ts.Logf("perm: %d entries checked", n)
}

// nofile PATH: PATH does not exist.
func cmdNofile(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		if _, err := os.Lstat(ts.MkAbs(a)); err == nil {
			ts.Fatalf("%s exists", a)
		}
	}
}

// grepstore [!] TEXT...: no file under $RAC_HOME contains TEXT (with !),
// or some file does. TEXT may be $VAR-expanded by the script.
// waitstore TEXT: wait (bounded) until a file of the store holds TEXT: a
// recorder has stored what the command wrote.
func cmdWaitStore(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitstore TEXT")
	}
	deadline := time.Now().Add(testScale(time.Minute))
	for storeFileWith(ts, args[0]) == "" {
		if time.Now().After(deadline) {
			ts.Fatalf("waitstore: no store file holds %q", args[0])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func cmdGrepStore(ts *testscript.TestScript, neg bool, args []string) {
	for _, text := range args {
		found := storeFileWith(ts, text)
		if neg && found != "" {
			ts.Fatalf("store file %s contains %q", found, text)
		}
		if !neg && found == "" {
			ts.Fatalf("no store file contains %q", text)
		}
	}
}

// storeFileWith is a file of the store that holds text, "" when none.
func storeFileWith(ts *testscript.TestScript, text string) string {
	root := ts.Getenv("RAC_HOME")
	found := ""
	{
		ts.Check(filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			// a store not made yet, a recording renamed into place while
			// it is walked: nothing found yet (waitstore waits on)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil || !fi.Mode().IsRegular() {
				return err
			}
			f, err := os.Open(p)
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			if err != nil {
				return err
			}
			defer f.Close()
			b, err := io.ReadAll(f)
			if err != nil {
				return err
			}
			if bytes.Contains(b, []byte(text)) && found == "" {
				found = p
			}
			return nil
		}))
	}
	return found
}

// json SOURCE [-lines] [KEY=REGEXP ...]: SOURCE (stdout, stderr or a file)
// parses as JSON: one value, or with -lines one value per line that starts
// with '{' (other lines are skipped; at least one is required). Arrays are
// checked element by element. Each KEY=REGEXP must match fmt.Sprint of
// KEY's value (KEY may be a.b for nested objects) in at least one object.
func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: json SOURCE [-lines] [KEY=REGEXP ...]")
	}
	var text string
	switch args[0] {
	case "stdout":
		text = ts.ReadFile("stdout")
	case "stderr":
		text = ts.ReadFile("stderr")
	default:
		text = ts.ReadFile(args[0])
	}
	args = args[1:]
	var objs []any
	if len(args) > 0 && args[0] == "-lines" {
		args = args[1:]
		for _, l := range strings.Split(text, "\n") {
			if !strings.HasPrefix(l, "{") {
				continue
			}
			var v any
			if err := json.Unmarshal([]byte(l), &v); err != nil {
				ts.Fatalf("json: line %q: %v", l, err)
			}
			objs = append(objs, v)
		}
		if len(objs) == 0 {
			ts.Fatalf("json: no JSON lines")
		}
	} else {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			ts.Fatalf("json: %v", err)
		}
		if arr, ok := v.([]any); ok {
			objs = arr
		} else {
			objs = []any{v}
		}
	}
	for _, kv := range args {
		key, pat, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("json: %q is not KEY=REGEXP", kv)
		}
		re := regexp.MustCompile(pat)
		found := false
		for _, o := range objs {
			v, ok := lookupJSON(o, key)
			text := fmt.Sprint(v)
			if f, isNum := v.(float64); isNum {
				text = strconv.FormatFloat(f, 'f', -1, 64)
			}
			if ok && re.MatchString(text) {
				found = true
				break
			}
		}
		if found == neg {
			ts.Fatalf("json: %s matching %q found=%v", key, pat, found)
		}
	}
}

func lookupJSON(v any, key string) (any, bool) {
	for _, k := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// waitGCAtCleanup makes t wait, before the folders it made are removed
// (cleanups run last first), until no detached gc pass of the store at
// home runs: a pass a rac run handed over may still be compressing the
// run's recording there, and the removal failed with "directory not
// empty". It returns home.
func waitGCAtCleanup(t testing.TB, home string) string {
	t.Cleanup(func() {
		if err := waitDetachedGC(home); err != nil {
			t.Error(err)
		}
	})
	return home
}
