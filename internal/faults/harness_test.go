package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The suite's settings, read once.
var (
	suiteOnce sync.Once
	suiteErr  error
	racBin    string // the rac binary under test
	short     bool   // RAC_FAULTS_SHORT=1: fewer iterations, for development
	seed      uint64 // RAC_FAULTS_SEED, else the clock: printed in the summary
	summaryMu sync.Mutex
)

// suite skips t unless the fault suite was asked for, and builds rac once
// unless RAC_FAULTS_BIN names a binary.
func suite(t *testing.T) {
	t.Helper()
	if os.Getenv("RAC_FAULTS") != "1" {
		t.Skip("the fault suite runs with RAC_FAULTS=1 (make faults)")
	}
	suiteOnce.Do(func() {
		short = os.Getenv("RAC_FAULTS_SHORT") == "1"
		seed = uint64(time.Now().UnixNano())
		if s := os.Getenv("RAC_FAULTS_SEED"); s != "" {
			seed, suiteErr = strconv.ParseUint(s, 10, 64)
			if suiteErr != nil {
				return
			}
		}
		racBin = os.Getenv("RAC_FAULTS_BIN")
		if racBin != "" {
			return
		}
		dir, err := os.MkdirTemp("", "rac-faults-bin-")
		if err != nil {
			suiteErr = err
			return
		}
		racBin = filepath.Join(dir, "rac")
		out, err := exec.Command("go", "build", "-o", racBin, "github.com/rac-cli/rac/cmd/rac").CombinedOutput()
		if err != nil {
			suiteErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, suiteErr)
}

// iterations is n for the full suite, s with RAC_FAULTS_SHORT.
func iterations(n, s int) int {
	if short {
		return s
	}
	return n
}

// scenario is one row of the summary table: iterations and failures of
// one fault, with its seed when it is randomised.
type scenario struct {
	t      *testing.T
	name   string
	seeded bool
	rng    *rand.Rand
	iters  int
	fails  int
	mu     sync.Mutex
}

// newScenario starts a row; seeded scenarios get an RNG derived from the
// suite's seed and the name, so one seed replays every scenario.
func newScenario(t *testing.T, name string, seeded bool) *scenario {
	suite(t)
	h := fnv.New64a()
	h.Write([]byte(name))
	sc := &scenario{t: t, name: name, seeded: seeded, rng: rand.New(rand.NewPCG(seed, h.Sum64()))}
	t.Cleanup(sc.report)
	return sc
}

func (sc *scenario) iter() {
	sc.mu.Lock()
	sc.iters++
	sc.mu.Unlock()
}

// fail counts a failed iteration (the first few are printed in full).
func (sc *scenario) fail(format string, args ...any) {
	sc.t.Helper()
	sc.mu.Lock()
	sc.fails++
	n := sc.fails
	sc.mu.Unlock()
	if n <= 10 {
		sc.t.Errorf("%s: "+format, append([]any{sc.name}, args...)...)
	} else {
		sc.t.Fail()
	}
}

func (sc *scenario) report() {
	fails := sc.fails
	if sc.t.Failed() && fails == 0 {
		fails = 1 // a require that stopped the test
	}
	s := "-"
	if sc.seeded {
		s = strconv.FormatUint(seed, 10)
	}
	iters := strconv.Itoa(sc.iters)
	if sc.t.Skipped() {
		iters = "skipped" // the test's log says why
	}
	sc.t.Logf("summary: %s: %s iterations, %d failures, seed %s", sc.name, iters, fails, s)
	p := os.Getenv("RAC_FAULTS_SUMMARY")
	if p == "" {
		return
	}
	summaryMu.Lock()
	defer summaryMu.Unlock()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		sc.t.Errorf("summary: %v", err)
		return
	}
	fmt.Fprintf(f, "%s\t%s\t%d\t%s\n", sc.name, iters, fails, s)
	if err := f.Close(); err != nil {
		sc.t.Errorf("summary: %v", err)
	}
}

// racStore is a store of its own with the environment rac runs in.
type racStore struct {
	t    *testing.T
	dir  string // the work folder
	home string // RAC_HOME
	env  []string
}

func newStore(t *testing.T, extra ...string) *racStore {
	dir := t.TempDir()
	s := &racStore{t: t, dir: dir, home: filepath.Join(dir, "store")}
	h := filepath.Join(dir, "home")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "tmp"), 0o700))
	require.NoError(t, os.MkdirAll(h, 0o700))
	s.env = append([]string{
		"HOME=" + h, "XDG_STATE_HOME=" + filepath.Join(h, "state"), "XDG_CONFIG_HOME=" + filepath.Join(h, "config"),
		"RAC_HOME=" + s.home, "RAC_SESSION=faults", "TMPDIR=" + filepath.Join(dir, "tmp"),
		"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "NO_COLOR=1",
	}, extra...)
	// before t.TempDir's removal (cleanups run last first): the pass a
	// rac run handed to a background gc (it compresses finished
	// recordings) may still be writing into the store
	t.Cleanup(func() { waitBackgroundGC(s.home) })
	return s
}

// waitBackgroundGC waits, for at most a minute, until no detached gc
// pass of the store at home runs: a process whose command line is rac's
// "gc --background" and whose environment names home.
func waitBackgroundGC(home string) {
	want := []byte("RAC_HOME=" + home + "\x00")
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		busy := false
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			if _, err := strconv.Atoi(e.Name()); err != nil {
				continue
			}
			cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			if err != nil || !bytes.Contains(cmd, []byte("--background")) {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err == nil && bytes.Contains(append(env, 0), want) {
				busy = true
				break
			}
		}
		if !busy {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// command is rac with args in its own process group (so a kill of the
// group reaches whatever it started).
func (s *racStore) command(args ...string) *exec.Cmd {
	c := exec.Command(racBin, args...)
	c.Env = s.env
	c.Dir = s.dir
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return c
}

// result is one finished rac call.
type result struct {
	code     int // -1: killed by a signal
	stdout   string
	stderr   string
	elapsed  time.Duration
	maxRSS   int64 // bytes
	timedOut bool  // it did not end within the limit and was killed
}

// rac runs rac with args, killing its process group after limit: a hang
// is a result, not a stuck suite.
func (s *racStore) rac(limit time.Duration, args ...string) result {
	c := s.command(args...)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	if err := c.Start(); err != nil {
		return result{code: -1, stderr: err.Error()}
	}
	var timedOut bool
	var mu sync.Mutex
	timer := time.AfterFunc(limit, func() {
		mu.Lock()
		timedOut = true
		mu.Unlock()
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	})
	err := c.Wait()
	timer.Stop()
	r := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	mu.Lock()
	r.timedOut = timedOut
	mu.Unlock()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		r.code, r.stderr = -1, err.Error()
	}
	if ru, ok := c.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = maxRSSBytes(ru)
	}
	return r
}

func maxRSSBytes(ru *syscall.Rusage) int64 {
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024 // KiB on Linux
}

// listEntry is what the suite reads of 'rac out list --json'.
type listEntry struct {
	Ref      string   `json:"ref"`
	Name     string   `json:"name"`
	Seq      int64    `json:"seq"`
	Argv     []string `json:"argv"`
	Status   string   `json:"status"`
	ExitCode *int     `json:"exit_code"`
	Notes    []string `json:"notes"`
}

// list is the session's recordings, or an error saying why not.
func (s *racStore) list(args ...string) ([]listEntry, error) {
	r := s.rac(30*time.Second, append([]string{"out", "list", "--json"}, args...)...)
	if r.code != 0 || r.timedOut {
		return nil, fmt.Errorf("rac out list: exit %d (timed out %v): %s", r.code, r.timedOut, r.stderr)
	}
	var es []listEntry
	if err := json.Unmarshal([]byte(r.stdout), &es); err != nil {
		return nil, fmt.Errorf("rac out list --json: %v: %.200q", err, r.stdout)
	}
	return es, nil
}

// killGroup ends whatever is left of a process group.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// waitCtx waits for c, or kills its group when ctx ends first.
func waitCtx(ctx context.Context, c *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		killGroup(c.Process.Pid)
		return errors.Join(ctx.Err(), <-done)
	}
}

// oneLine reports whether an error message is one rac: line (and maybe a
// hint line), short, with no Go internals.
func oneLine(stderr string) bool {
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(stderr) > 2000 || len(lines) > 3 {
		return false
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "rac: ") || strings.Contains(l, "goroutine ") || strings.Contains(l, "panic") {
			return false
		}
	}
	return true
}
