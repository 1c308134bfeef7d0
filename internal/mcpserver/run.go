package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/termtext"
)

// RunIn is the run tool's input.
type RunIn struct {
	Argv           []string `json:"argv,omitempty" jsonschema:"the command and its arguments, run without a shell (give argv or command)"`
	Command        string   `json:"command,omitempty" jsonschema:"a shell command line, run with sh -c (give argv or command)"`
	Cwd            string   `json:"cwd,omitempty" jsonschema:"the absolute directory to run in; default: the server's"`
	TimeoutSeconds int      `json:"timeout_seconds,omitempty" jsonschema:"stop the command after this many seconds (SIGTERM, then SIGKILL); default 600, at most 3600"`
	Session        string   `json:"session,omitempty" jsonschema:"record into this session; default: this conversation's"`
}

// RunOut is the run tool's structured result.
type RunOut struct {
	Ref     *string      `json:"ref" jsonschema:"the recording's reference for read, grep and explain; null when it was not recorded"`
	Summary []string     `json:"summary" jsonschema:"the compact summary: the command, its outcome, for a failure whose output was cut the cause lines explain finds (stream:line: text), the first and last lines of each stream, how to read more"`
	Result  *app.RunView `json:"result" jsonschema:"the shape of rac run --json: status, exit code, signal, duration, bytes and lines per stream"`
	Cut     []string     `json:"cut" jsonschema:"every cut this result made, empty when none"`
	Notes   []string     `json:"notes" jsonschema:"rac's own messages about the run"`
}

const (
	defaultRunTimeout = 600
	maxRunTimeout     = 3600
	// runGrace is how long past its timeout a run may take (rac run's
	// SIGTERM, run.kill_after, the drain) before its group is killed.
	runGrace = 30 * time.Second
	// runOutputMax bounds what is kept of rac run's own stdout and stderr
	// (the summary and its messages), long before the budget cuts it.
	runOutputMax = 1 << 20
	// cancelGrace is how long a cancelled run has between the SIGTERM rac
	// passes on to the command and the SIGKILL of its group: time for the
	// command to end and for rac to write the recording's end
	cancelGrace = 5 * time.Second
)

func (s *Server) addRun() {
	mcp.AddTool(s.srv, &mcp.Tool{
		Name:  "run",
		Title: "Run and record a command",
		Description: "Run a command (argv, or a shell command line), record its full output with rac and return a compact summary: " +
			"its outcome, for a failure the lines most likely to be its cause, the first and last lines of each stream, and the reference to read, grep or explain the rest. " +
			"stdin is empty; the command and everything it starts are stopped at the timeout and when this server exits, " +
			"and whatever it leaves running is killed when the call returns.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(true)},
		InputSchema: inputSchema[RunIn](),
	}, structured(s.run))
}

// checkRun checks a run's arguments: the command to run (argv, or
// command through sh -c), its cwd and its timeout in seconds.
func checkRun(in RunIn) (argv []string, timeout int, err error) {
	argv = in.Argv
	switch {
	case len(argv) > 0 && in.Command != "":
		return nil, 0, app.Usagef("give argv or command, not both")
	case in.Command != "":
		argv = []string{"sh", "-c", in.Command}
	case len(argv) == 0 || argv[0] == "":
		return nil, 0, app.Usagef("missing command: give argv (the command and its arguments) or command (a shell command line)")
	}
	if err := checkCwd(in.Cwd); err != nil {
		return nil, 0, err
	}
	timeout = in.TimeoutSeconds
	switch {
	case timeout < 0 || timeout > maxRunTimeout:
		return nil, 0, app.Usagef("timeout_seconds takes 1 to %d", maxRunTimeout)
	case timeout == 0:
		timeout = defaultRunTimeout
	}
	return argv, timeout, nil
}

func (s *Server) run(ctx context.Context, _ *mcp.CallToolRequest, in RunIn) (*mcp.CallToolResult, RunOut, error) {
	argv, timeout, err := checkRun(in)
	if err != nil {
		return nil, RunOut{}, s.toolError(err)
	}
	name := in.Session
	if name == "" {
		if name, _, err = s.defaultSession(); err != nil {
			return nil, RunOut{}, s.toolError(err)
		}
	}
	if len(s.o.Rac) == 0 {
		return nil, RunOut{}, s.toolError(errors.New("the run tool has no rac to start (Options.Rac)"))
	}
	args := append(append([]string{}, s.o.Rac[1:]...), "run", "--stop-is-cancel", "--session", name, "--summary", "--json",
		"--timeout", strconv.Itoa(timeout)+"s", "--mcp-call", "--")
	stdout, stderr, stopped, err := s.startRac(ctx, s.o.Rac[0], append(args, argv...), in.Cwd, time.Duration(timeout)*time.Second+runGrace)
	if err != nil {
		return nil, RunOut{}, s.toolError(err)
	}
	out, err := parseRun(stdout, stderr)
	if err != nil {
		if stopped != nil {
			err = fmt.Errorf("the run was stopped before rac wrote its result (%w)", stopped)
		}
		return nil, RunOut{}, s.toolError(err)
	}
	for i, l := range out.Summary {
		if strings.HasPrefix(l, "rac: more: ") && out.Ref != nil {
			// the tools' calls, not rac's command line
			l = app.SummaryMore(*out.Ref, out.Result.Cause, true)
		}
		out.Summary[i] = s.base().RedactString(l)
	}
	build := func(k int, _ bool) (string, any) {
		o := out
		o.Cut = append([]string{}, out.Cut...)
		if k < len(out.Summary) {
			// the last line is the reference: it stays
			o.Summary = append(append([]string{}, out.Summary[:max(0, k-1)]...), out.Summary[len(out.Summary)-1])
			ref := "the recording"
			if o.Ref != nil {
				ref = *o.Ref
			}
			o.Cut = append(o.Cut, fmt.Sprintf("budget: %d summary lines not shown; read %s for the output", len(out.Summary)-len(o.Summary), ref))
		}
		return runText(o), o
	}
	text, o := build(fit(len(out.Summary), int(s.o.Budget), false, build), false)
	return textResult(text), o.(RunOut), nil
}

// checkCwd refuses a cwd the command could not run in, in words about
// the cwd: starting rac there would fail as if rac's own executable were
// missing (fork/exec .../rac: no such file or directory).
func checkCwd(cwd string) error {
	if cwd == "" {
		return nil
	}
	if !filepath.IsAbs(cwd) {
		return app.Usagef("cwd must be an absolute path, not %q", cutString(cwd, 200))
	}
	fi, err := os.Stat(cwd)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return app.Usagef("cwd %q does not exist", cutString(cwd, 200))
	case err != nil:
		return app.Usagef("cwd %q cannot be used: %v", cutString(cwd, 200), errors.Unwrap(err))
	case !fi.IsDir():
		return app.Usagef("cwd %q is not a directory", cutString(cwd, 200))
	}
	return nil
}

// startRac runs rac (run ... --mcp-call) in a process group of its own,
// so the whole command tree can be stopped: after limit, when ctx ends
// (the call was cancelled, the client closed its input, the server is
// stopping), and, for what the command left running, when it returns.
// Stopping is a SIGTERM to rac, which passes it on and records the run as
// cancelled, then cancelGrace later a SIGKILL of the group. rac run
// --mcp-call also keeps every process the command starts below itself (a
// child subreaper: a setsid or an orphan too), kills what is left when
// the command ends, and all of it a moment after a SIGTERM (before
// cancelGrace), which is also its parent-death signal: so a SIGKILL of
// the server reaches the whole tree too. It returns rac's stdout and
// stderr, bounded, and why it was stopped (nil when it was not).
func (s *Server) startRac(ctx context.Context, exe string, args []string, dir string, limit time.Duration) (stdout, stderr []byte, stopped, err error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	var out, errOut boundedBuffer
	out.max, errOut.max = runOutputMax, runOutputMax
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.SysProcAttr = groupAttr()
	var kill atomic.Pointer[time.Timer]
	cmd.Cancel = func() error {
		pgid := cmd.Process.Pid
		kill.Store(time.AfterFunc(cancelGrace, func() { _ = killGroup(pgid) }))
		return cmd.Process.Signal(syscall.SIGTERM)
	}
	// a process the command left holding rac's pipes must not hold the
	// call, nor a rac that outlives the grace
	cmd.WaitDelay = cancelGrace + time.Second
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, fmt.Errorf("cannot start rac run: %w", err)
	}
	pgid := cmd.Process.Pid
	if !s.groups.add(pgid, cancel) {
		cancel() // the server stopped while it started
	}
	err = cmd.Wait()
	if t := kill.Load(); t != nil {
		t.Stop() // the group ends here: its pgid may be reused later
	}
	_ = killGroup(pgid) // what the command left running in its group
	s.groups.remove(pgid)
	var ee *exec.ExitError
	// cancelled, Wait returns the context's error for rac's status
	if err != nil && !errors.As(err, &ee) && !errors.Is(err, exec.ErrWaitDelay) && (ctx.Err() == nil || !errors.Is(err, ctx.Err())) {
		return nil, nil, nil, fmt.Errorf("rac run: %w", err)
	}
	if ctx.Err() != nil {
		stopped = context.Cause(ctx)
	}
	return out.Bytes(), errOut.Bytes(), stopped, nil
}

// parseRun reads rac run --summary --json's output: the summary on
// stdout, rac's own lines and then the JSON view on stderr.
func parseRun(stdout, stderr []byte) (RunOut, error) {
	out := RunOut{Summary: []string{}, Cut: []string{}, Notes: []string{}}
	for l := range strings.SplitSeq(strings.TrimRight(string(stdout), "\n"), "\n") {
		if l != "" {
			out.Summary = append(out.Summary, app.ValidUTF8(l))
		}
	}
	var msgs []string
	for l := range strings.SplitSeq(strings.TrimRight(string(stderr), "\n"), "\n") {
		if strings.HasPrefix(l, "{") {
			var v app.RunView
			if json.Unmarshal([]byte(l), &v) == nil {
				out.Result = &v
				continue
			}
		}
		if strings.HasPrefix(l, "rac: recording ") {
			continue // the start line: the reference is in the view
		}
		if l != "" {
			msgs = append(msgs, app.ValidUTF8(termtext.EscapeLine(strings.TrimPrefix(l, "rac: "))))
		}
	}
	if out.Result == nil {
		return out, fmt.Errorf("rac run failed before the command ran: %s", cutString(strings.Join(msgs, "; "), 2000))
	}
	out.Ref = out.Result.Ref
	for _, m := range msgs {
		out.Notes = append(out.Notes, cutString(m, 1000))
	}
	return out, nil
}

func runText(o RunOut) string {
	var b strings.Builder
	for _, l := range o.Summary {
		b.WriteString(termtext.EscapeLine(l))
		b.WriteByte('\n')
	}
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "rac: %s\n", n)
	}
	for _, c := range o.Cut {
		fmt.Fprintf(&b, "rac: cut: %s\n", c)
	}
	return b.String()
}

// boundedBuffer keeps the first max bytes written to it.
type boundedBuffer struct {
	bytes.Buffer
	max int
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// groups are the process groups of the run calls under way, each with
// the function that cancels its call.
type groups struct {
	mu     sync.Mutex
	live   map[int]context.CancelFunc
	closed bool          // the server is stopping: no group may start
	empty  chan struct{} // closed when live is empty once closed
}

func newGroups() *groups { return &groups{live: map[int]context.CancelFunc{}} }

// add tracks a group; false when the server is stopping already.
func (g *groups) add(pgid int, cancel context.CancelFunc) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.live[pgid] = cancel
	return true
}

func (g *groups) remove(pgid int) {
	g.mu.Lock()
	delete(g.live, pgid)
	if len(g.live) == 0 && g.empty != nil {
		close(g.empty)
		g.empty = nil
	}
	g.mu.Unlock()
}

// cancelAll cancels every run under way (their commands get SIGTERM,
// their groups SIGKILL cancelGrace later): the client has gone.
func (g *groups) cancelAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, cancel := range g.live {
		cancel()
	}
}

// stopAll cancels every run under way and lets none start: the server is
// stopping. It returns once they have ended, or after grace with a
// SIGKILL to the groups left.
func (g *groups) stopAll(grace time.Duration) {
	g.mu.Lock()
	g.closed = true
	var empty chan struct{}
	if len(g.live) > 0 {
		empty = make(chan struct{})
		g.empty = empty
	}
	for _, cancel := range g.live {
		cancel()
	}
	g.mu.Unlock()
	if empty == nil {
		return
	}
	select {
	case <-empty:
	case <-time.After(grace):
		g.mu.Lock()
		for pgid := range g.live {
			_ = killGroup(pgid)
		}
		g.mu.Unlock()
	}
}

// killGroup sends SIGKILL to the process group pgid (never to a group of
// 0 or 1, which kill would take as the caller's own or every process).
func killGroup(pgid int) error {
	if pgid <= 1 {
		return nil
	}
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
