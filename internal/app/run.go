package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/capture"
	"github.com/rac-cli/rac/internal/interactive"
	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/runspec"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/sigcatch"
	"github.com/rac-cli/rac/internal/terminal"
	"github.com/rac-cli/rac/internal/termtext"
)

// RunRequest is one rac run.
type RunRequest struct {
	Argv                  []string
	Stdin, Stdout, Stderr *os.File
	// OutErrShared reports whether rac's stdout and stderr go to one
	// place (a terminal, one file), so a line the command left open on
	// either is open where rac writes its own lines; asked only once the
	// command has ended, off the start-up path. nil: not shared.
	OutErrShared                     func() bool
	Timeout, KillAfter, DrainTimeout time.Duration
	Announce                         runspec.Announce
	// Mode is run.mode: auto, pipe, pty or passthrough.
	Mode runspec.Mode
	// Interactive names more programs passthrough takes (run.interactive).
	Interactive  []string
	SignalSettle time.Duration
	// Signals are the signals the run catches, when the caller started
	// catching them early (CatchRunSignals, stopped by the caller); nil:
	// Run catches its own.
	Signals                  *Signals
	Summary                  bool
	SummaryHead, SummaryTail int
	// AgentView is run.agent_view (AgentViewPlan decides auto).
	AgentView runspec.AgentView
	// StopIsCancel: a SIGTERM, SIGHUP or SIGINT that reaches rac is its
	// caller cancelling the run (the MCP run tool), so a command that
	// dies of it ends cancelled rather than signaled.
	StopIsCancel bool
	// Contain keeps every process the command starts below rac and kills
	// what is left when it ends, or on SIGTERM (capture.RunOptions.Contain):
	// rac-mcp's run tool, through rac run's hidden --mcp-call.
	Contain bool
	// OnStart is called with the reference before the command starts,
	// when the start line is to be printed.
	OnStart func(ref string)
	// OnExit is called as soon as the command has ended, before rac
	// writes anything else about it.
	OnExit func(CommandEnded)
}

// CommandEnded is what the front end hears as soon as the command ended.
type CommandEnded struct {
	// StartErr is why the command could not be started (redacted), ""
	// when it started.
	StartErr string
	// LineOpen: the command's forwarded output left a line open where rac
	// writes its own lines (stderr, or either with OutErrShared).
	LineOpen bool
}

// RunResult is what one rac run did.
type RunResult struct {
	// Outcome is how the command ended; its notes are redacted.
	Outcome Outcome
	// Ref is the recording's qualified reference, "" when not recorded.
	Ref, Session, Name string
	// Announce is the request's Announce with auto resolved.
	Announce runspec.Announce
	// Mode is how the command was connected: pipes, combined, pty or
	// passthrough (meta.json's mode).
	Mode string
	// Summary holds the compact summary's lines (with --summary).
	Summary []string
	// Cause is the most likely cause line the summary shows, nil when it
	// shows none.
	Cause *RunCause
	// AgentEnd is what ends an output run.agent_view shaped, nil when it
	// held nothing back.
	AgentEnd *AgentEnd
	Duration time.Duration
	// Notes are the outcome's notes, redacted.
	Notes []string
	// Cut: the command printed more than the recording keeps
	// (record.max_bytes), so its middle was dropped.
	Cut bool
	// ForwardFailed: a write to rac's own stdout or stderr failed (disk
	// full, EIO; not a reader that closed its end), so the command's
	// output did not all arrive.
	ForwardFailed bool
}

// Signals are the signals rac run catches (the ones it relays to the
// command, and those that only stop it).
type Signals struct{ s *capture.Signals }

// CatchRunSignals starts catching rac run's signals, or takes over the
// ones rac began catching from its package initialisers when its command
// line is "rac run ..." (sigcatch). The caller stops them.
func CatchRunSignals() *Signals {
	s := sigcatch.Early()
	if s == nil {
		s = capture.CatchSignals()
	}
	return &Signals{s}
}

// Stop ends the catching (in the background).
func (s *Signals) Stop() { s.s.Stop() }

// RunView is the stable shape of rac run --json.
type RunView struct {
	Ref         *string `json:"ref"`
	Session     *string `json:"session"`
	Name        *string `json:"name"`
	Status      string  `json:"status"`
	ExitCode    *int    `json:"exit_code"`
	Signal      *string `json:"signal"`
	DurationMS  int64   `json:"duration_ms"`
	StdoutBytes int64   `json:"stdout_bytes"`
	StderrBytes int64   `json:"stderr_bytes"`
	StdoutLines int64   `json:"stdout_lines"`
	StderrLines int64   `json:"stderr_lines"`
	// Mode is pipes (two pipes), combined (one pipe for both streams:
	// stdout and stderr were one file), pty (one combined stream from a
	// pseudo-terminal) or passthrough (metadata only). With one combined
	// stream its counts are combined_bytes and combined_lines, and the
	// stdout and stderr counts are 0.
	Mode          string   `json:"mode"`
	CombinedBytes int64    `json:"combined_bytes"`
	CombinedLines int64    `json:"combined_lines"`
	Notes         []string `json:"notes"`
	// Cause is, with --summary, the most likely cause line the summary
	// shows (explain's first); null when it shows none.
	Cause *RunCause `json:"cause"`
}

// RunCause is where a failed run's most likely cause is: a stream and
// its line number, as rac out read --lines counts them.
type RunCause struct {
	Stream string `json:"stream"`
	Line   int    `json:"line"`
}

// AnnounceContext is what run.announce's auto looks at.
type AnnounceContext struct {
	// Agent: an agent harness runs the command, however the session was
	// chosen (RAC_SESSION from a hook too).
	Agent bool
	// StdoutTerminal, StderrTerminal: rac's own stdout and stderr are
	// terminals.
	StdoutTerminal, StderrTerminal bool
}

// ResolveAnnounce turns auto into the lines rac run prints; any other
// value stands. Under an agent, and wherever neither stdout nor stderr is
// a terminal (a script, CI, cron, an agent rac does not recognise), both
// lines: nobody watches the run, and the reference is the only way back
// to it that does not race another run (rac out last does). A person at a
// terminal (either stream on it: git push 2>err.log at a prompt) gets the
// reference only when there is something to read, so a successful git
// status prints exactly what git prints.
func ResolveAnnounce(announce runspec.Announce, c AnnounceContext) runspec.Announce {
	if announce != runspec.AnnounceAuto {
		return announce
	}
	if c.Agent || (!c.StdoutTerminal && !c.StderrTerminal) {
		return runspec.AnnounceBoth
	}
	return runspec.AnnounceFailed
}

// EndLine reports whether rac run prints its closing "rac: ref" line:
// with end or both always, with failed when the command did not exit 0 or
// printed more than a recording keeps.
func (r RunResult) EndLine() bool {
	switch r.Announce {
	case runspec.AnnounceEnd, runspec.AnnounceBoth:
		return true
	case runspec.AnnounceFailed:
		return r.Outcome.Status != StatusExited || r.Outcome.ExitCode != 0 || r.Cut
	}
	return false
}

// View is the result as rac run --json prints it.
func (r RunResult) View() RunView {
	out := r.Outcome
	v := RunView{
		Status: out.Status, DurationMS: r.Duration.Milliseconds(),
		StdoutBytes: out.Received[StreamStdout].Bytes, StderrBytes: out.Received[StreamStderr].Bytes,
		StdoutLines: out.Received[StreamStdout].Lines, StderrLines: out.Received[StreamStderr].Lines,
		CombinedBytes: out.Received[StreamCombined].Bytes, CombinedLines: out.Received[StreamCombined].Lines,
		Mode: r.Mode, Notes: validUTF8s(r.Notes), Cause: r.Cause,
	}
	if r.Ref != "" {
		ref, sess, name := r.Ref, r.Session, r.Name
		v.Ref, v.Session, v.Name = &ref, &sess, &name
	}
	switch out.Status {
	case StatusExited, StatusFailedToStart:
		code := out.ExitCode
		v.ExitCode = &code
	}
	if out.Signal != "" || out.sig != 0 {
		s := out.Signal
		v.Signal = &s
	}
	return v
}

// CheckRun validates a request before anything runs.
func CheckRun(req RunRequest) error {
	if len(req.Argv) == 0 {
		return Usagef("missing command: rac run [flags] [--] CMD [ARGS...]")
	}
	if req.Timeout < 0 || req.KillAfter < 0 || req.DrainTimeout < 0 {
		return Usagef("durations must not be negative")
	}
	if req.SummaryHead < 0 || req.SummaryTail < 0 {
		return Usagef("--summary-head and --summary-tail take a number of lines from 0")
	}
	return nil
}

// Run runs the command as without rac and records it: the capture of
// its output feeding a Recording. A failure to record is a warning: the
// command runs all the same. The returned error is rac's own failure
// before the command ran. Cancelling ctx stops the command as a SIGTERM to
// rac would.
func (a *App) Run(ctx context.Context, req RunRequest) (RunResult, error) {
	if err := CheckRun(req); err != nil {
		return RunResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return RunResult{}, err
	}
	a.WarmRedactor()
	sigs := req.Signals
	if sigs == nil {
		sigs = CatchRunSignals()
		defer sigs.Stop()
	}
	plan, err := a.planRun(req)
	if err != nil {
		return RunResult{}, err
	}
	res := RunResult{Announce: plan.announce, Mode: plan.lay.recMode}
	rec := a.runRecording(req, plan)
	if rec != nil {
		res.Ref, res.Session, res.Name = rec.Ref(), rec.Session(), rec.Name()
		a.announceStart(req, plan.announce, rec)
	}
	plan.view = a.newAgentView(req, plan)
	sum := a.summaryTees(req, plan)
	started := a.env.Now()
	var stopped atomic.Bool
	out := a.capture(ctx, req, plan, rec, sigs, sum, &stopped)
	sum.close()
	if req.StopIsCancel && stopped.Load() && out.Status == StatusSignaled {
		out.Status = StatusCancelled
	}
	if out.Status == StatusFailedToStart {
		out.Notes = append(out.Notes, out.StartErr.Error())
	}
	if req.OnExit != nil {
		req.OnExit(commandEnded(req, plan, out))
	}
	outcome := Outcome{
		Status: out.Status, ExitCode: out.ExitCode, Signal: signalName(out.Signal),
		Notes: out.Notes, Received: streamCounts(out.Received), sig: out.Signal,
	}
	if rec != nil {
		a.finish(rec, outcome, len(out.ForwardErr) > 0)
	}
	res.Duration = a.env.Now().Sub(started)
	res.ForwardFailed = len(out.ForwardErr) > 0
	res.Cut = a.set.MaxBytes > 0 && totalBytes(outcome.Received) > a.set.MaxBytes
	for _, n := range out.Notes {
		res.Notes = append(res.Notes, plan.red.String(n))
	}
	outcome.Notes = res.Notes
	res.Outcome = outcome
	if req.Summary {
		res.Summary, res.Cause = a.summary(context.WithoutCancel(ctx), req, plan.lay, outcome, sum.collectors, rec)
	}
	res.AgentEnd = a.agentEnd(context.WithoutCancel(ctx), plan.view, outcome, rec)
	return res, nil
}

// StartLine is rac run's first line without its "rac: " prefix: the
// reference, and what to do when the output is cut. A harness that cuts
// a long result keeps the start of it (Claude Code keeps the first 30,000
// characters of a result, a failure's first 5 KB), so this line is the
// one rac line most likely to reach the model, and it must say how to
// find the cause within itself.
func StartLine(ref string) string {
	return "recording " + ref + " (cut? rac out explain " + ref + ")"
}

// announceStart hands the reference to the front end's start line, when
// the announce setting asks for one, then says the recording's warnings.
func (a *App) announceStart(req RunRequest, announce runspec.Announce, rec *Recording) {
	if req.OnStart != nil && (announce == runspec.AnnounceStart || announce == runspec.AnnounceBoth) {
		req.OnStart(rec.Ref())
	}
	// after the start line, which is the line an agent's tool output
	// most reliably keeps
	for _, m := range rec.Warnings() {
		a.Warn(m)
	}
}

// finish tells the recording how the command ended. A recording broken
// off is a warning that says whether the command's output still reached
// rac's own (forwardFailed: a write to it failed).
func (a *App) finish(rec *Recording, o Outcome, forwardFailed bool) {
	if err := rec.Finish(o); err != nil {
		// "in full" only when every write to rac's own output went
		// through (ulimit -f fails both)
		forwarded := "the command's output was still forwarded in full"
		if forwardFailed {
			forwarded = "writing the command's output failed too"
		}
		a.warnf("recording %s broken off: %v; %s", rec.Ref(), FirstLine(err), forwarded)
	}
}

func commandEnded(req RunRequest, p runPlan, out capture.Outcome) CommandEnded {
	if out.Status == StatusFailedToStart {
		return CommandEnded{StartErr: p.red.String(out.StartErr.Error())}
	}
	return CommandEnded{LineOpen: out.OpenLine(req.OutErrShared != nil && req.OutErrShared())}
}

// runPlan is what rac run decided before anything runs.
type runPlan struct {
	lay   layout
	id    session.Identity
	idErr error // a bad RAC_SESSION: the command runs unrecorded
	// unrecorded: a redaction setting rac cannot use (warned)
	unrecorded bool
	red        *redact.Redactor
	announce   runspec.Announce
	view       *agentView // run.agent_view's shaping; nil: none
}

func (a *App) planRun(req RunRequest) (runPlan, error) {
	p := runPlan{lay: a.layout(req)}
	p.id, p.idErr = a.Identify(false)
	if p.idErr != nil && (a.set.Session != "" || !errors.Is(p.idErr, session.ErrInvalidName)) {
		return p, p.idErr // a bad --session flag is rac's own bad flag
	}
	// Built even with redaction off: rac's own lines about the command
	// (warnings, summary, errors) are always redacted.
	var err error
	p.red, err = a.Redactor()
	if err == nil {
		_, err = a.ArgvRules() // a bad redact.args counts as a bad rule
	}
	if err != nil {
		if a.set.StrictConfig {
			return p, err
		}
		// A redaction setting rac cannot use must not cost the user the
		// command, nor store what the rule was there to hide: the
		// command runs unrecorded, rac's own lines redacted by the
		// built-in rules.
		p.unrecorded = true
		bad := FirstLine(err)
		if p.red, err = redact.New(redact.Config{Environ: a.env.Environ(), EnvNames: a.set.RedactEnvNames}); err != nil {
			return p, err
		}
		a.Warn(p.red.String(fmt.Sprintf("not recording this command: %v ('rac doctor' checks the settings; --strict-config refuses instead)", bad)))
	}
	p.announce = ResolveAnnounce(req.Announce, AnnounceContext{
		Agent:          p.id.FromAgent || p.lay.agent,
		StdoutTerminal: terminal.Is(req.Stdout),
		StderrTerminal: terminal.Is(req.Stderr),
	})
	return p, nil
}

// runRecording creates rac run's recording; a failure is one warning and
// no recording (the command runs all the same).
func (a *App) runRecording(req RunRequest, p runPlan) *Recording {
	if p.unrecorded {
		return nil
	}
	if p.idErr != nil {
		// a bad RAC_SESSION must not cost the user the command itself
		a.warnf("not recording this command: %v", p.idErr)
		return nil
	}
	if err := a.spaceForRecording(); err != nil {
		a.warnf("not recording this command: %v", err)
		return nil
	}
	rec, err := a.createRecording(p.id, RecordingRequest{
		Argv: req.Argv, Mode: p.lay.recMode, Streams: p.lay.streams,
		OneWorker: p.lay.mode == runspec.ModePTY,
	})
	if err != nil {
		a.warnf("not recording this command: %v", FirstLine(err))
		return nil
	}
	return rec
}

// capture runs the command, its output feeding rec (nil: unrecorded) and
// the summary's collectors.
// stopped is set when a stop signal reached rac.
func (a *App) capture(ctx context.Context, req RunRequest, p runPlan, rec *Recording, sigs *Signals, sum *summaryTees, stopped *atomic.Bool) capture.Outcome {
	o := capture.RunOptions{
		Argv: req.Argv, Env: childEnv(a.env.Environ(), rec),
		Stdin: req.Stdin, Stdout: req.Stdout, Stderr: req.Stderr,
		Timeout: req.Timeout, KillAfter: req.KillAfter, DrainTimeout: req.DrainTimeout,
		Warn: func(m string) { a.Warn(p.red.String(m)) }, Now: a.env.Now,
		Tee: rec.tee(sum.tee), NoForward: req.Summary, Shape: p.view.shape(),
		Mode: p.lay.mode, Combined: p.lay.combined, SignalSettle: req.SignalSettle, Signals: sigs.s,
		OnStopping: func(syscall.Signal) { stopped.Store(true) }, Contain: req.Contain,
	}
	reds := &streamRedactors{red: p.red, oneWorker: p.lay.mode == runspec.ModePTY}
	if rec != nil {
		o.Rec, reds = rec.w, rec.reds
		o.OnStopping = func(sig syscall.Signal) {
			stopped.Store(true)
			rec.Stopping(unix.SignalName(sig))
		}
	}
	if a.set.RedactEnabled {
		o.Filter = reds.filter
	}
	// cancelling ctx is a SIGTERM to rac: relayed to the command as one
	// from outside would be
	stop := context.AfterFunc(ctx, func() {
		select {
		case sigs.s.C <- syscall.SIGTERM:
		default:
		}
	})
	defer stop()
	return capture.Run(o)
}

// summaryTees are --summary's collectors, one per stream, fed the output
// as stored (redacted).
type summaryTees struct {
	collectors map[string]*Collector
	tees       map[string]io.Writer
	reds       []*redact.Writer
}

func (a *App) summaryTees(req RunRequest, p runPlan) *summaryTees {
	s := &summaryTees{}
	if !req.Summary {
		return s
	}
	s.collectors, s.tees = map[string]*Collector{}, map[string]io.Writer{}
	for _, name := range p.lay.streams {
		c := NewCollector(req.SummaryHead + req.SummaryTail)
		s.collectors[name], s.tees[name] = c, c
		if !a.set.RedactEnabled {
			// the summary goes to an agent: with --no-redact it is
			// still built from redacted output, blocks and all
			w := p.red.NewWriterOptions(c, redact.WriterOptions{Workers: 1})
			s.reds = append(s.reds, w)
			s.tees[name] = summaryTee{w}
		}
	}
	return s
}

// tee is capture's Tee (nil without --summary).
func (s *summaryTees) tee(stream string) io.Writer {
	if w, ok := s.tees[stream]; ok {
		return w
	}
	return nil
}

func (s *summaryTees) close() {
	for _, w := range s.reds {
		// a failed redactor has written its marker and nothing after it
		_ = w.Close()
	}
	for _, c := range s.collectors {
		_ = c.Close() // ends a last line; it cannot fail
	}
}

func totalBytes(m map[string]StreamCounts) int64 {
	var n int64
	for _, c := range m {
		n += c.Bytes
	}
	return n
}

// Lines of a summary given to a failure's cause (explain's cause block,
// its header included) and read around it.
const (
	summaryCauseLines = 6
	summaryAround     = 10
	// summaryMinHead is the least of the head a cause leaves.
	summaryMinHead = 3
)

// summary is --summary's lines. For a run that failed and printed more
// than the windows show, it carries the cause explain finds in the
// recording (never for a run that passed: no invented cause) and a line
// that says how to read more, within the same number of lines: the head
// gives way first, then the tail.
func (a *App) summary(ctx context.Context, req RunRequest, lay layout, out Outcome, cs map[string]*Collector, rec *Recording) ([]string, *RunCause) {
	argv := a.redactArgv(req.Argv)
	in := SummaryInput{Head: req.SummaryHead, Tail: req.SummaryTail, Last: "rac: not recorded"}
	for _, s := range lay.streams {
		rc := out.Received[s]
		in.Streams = append(in.Streams, SummaryStream{Name: s, Lines: rc.Lines, Bytes: rc.Bytes, Output: cs[s]})
	}
	var code *int // as rac run --json says it: for exited and failed_to_start
	if out.Status == StatusExited || out.Status == StatusFailedToStart {
		code = &out.ExitCode
	}
	o := outcome.Of(out.Status, code, out.Signal)
	in.Command, in.Outcome = termtext.QuoteArgv(argv), o.Long()
	var cause *RunCause
	if rec != nil {
		in.Last = "rac: ref " + rec.Ref()
		if !o.Succeeded() && summaryLeavesOut(in.Streams, in.Head, in.Tail) {
			cause = a.summaryCause(ctx, rec.Ref(), &in)
		}
	}
	return Summary(in), cause
}

// summaryCause fills in's cause block and more line from explain's report
// on the recording ref, and takes the lines they need from the windows.
func (a *App) summaryCause(ctx context.Context, ref string, in *SummaryInput) *RunCause {
	var cause *RunCause
	if rep, err := a.Explain(ctx, ref); err == nil {
		in.Cause = rep.CauseBlock(summaryCauseLines - 1)
		if in.Cause != nil {
			cause = &RunCause{Stream: rep.Lines[0].Stream, Line: rep.Lines[0].Line}
		}
	}
	in.More = SummaryMore(ref, cause, false)
	need := len(in.Cause) + 1
	give := min(need, max(0, in.Head-summaryMinHead))
	in.Head -= give
	in.Tail = max(0, in.Tail-(need-give))
	return cause
}

// SummaryMore is a summary's line that says how to read more of the
// recording ref: the lines around the cause (nil: none found) and explain,
// as commands (rac out read REF --stream S --lines A:B) or, with tool,
// as the MCP tools' calls (read ref=REF stream=S lines=A:B).
func SummaryMore(ref string, cause *RunCause, tool bool) string {
	w := flagWords
	read, explain := "rac out read "+ref, "rac out explain "+ref
	if tool {
		w, read, explain = toolWords, "read ref="+ref, "explain ref="+ref
	}
	if cause == nil {
		return "rac: more: " + explain + "; " + read + " (all of it)"
	}
	span := fmt.Sprintf("%d:%d", max(1, cause.Line-summaryAround), cause.Line+summaryAround)
	return fmt.Sprintf("rac: more: %s %s %s (around the cause); %s", read, w.set("stream", cause.Stream), w.set("lines", span), explain)
}

// parentRef is the RAC_REF rac found in its environment when it is a
// qualified reference (a recorded make running a wrapped git): the new
// recording's parent. Anything else is no parent: the variable is only
// a hint, and a reader must never be handed a path-like string from it.
func parentRef(v string) string {
	r, err := resolve.Parse(v)
	if err != nil || r.Session == "" {
		return ""
	}
	return r.String()
}

// withPrivateUmask runs fn with umask 077 so the store's folders are 0700
// and files 0600 whatever the user's umask; the child is started outside
// it and inherits the user's own umask.
func withPrivateUmask(fn func()) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	fn()
}

// childEnv is rac's environment with RAC_REF naming this recording (and
// without an inherited RAC_REF when there is no recording).
func childEnv(environ []string, rec *Recording) []string {
	env := make([]string, 0, len(environ)+1)
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "RAC_REF=") {
			env = append(env, kv)
		}
	}
	if rec != nil {
		env = append(env, "RAC_REF="+rec.Ref())
	}
	return env
}

// summaryTee redacts a stream for the summary alone: a failure of that
// redactor (it fails closed) must not break the recording's writes it is
// teed beside.
type summaryTee struct{ w *redact.Writer }

func (t summaryTee) Write(p []byte) (int, error) {
	_, _ = t.w.Write(p)
	return len(p), nil
}

// layout is how one run connects the command and what its recording holds.
type layout struct {
	mode     runspec.Mode
	combined bool     // pipe mode with one pipe for both streams
	recMode  string   // meta.json's mode
	streams  []string // the recording's streams
	agent    bool     // an agent runs the command (session.AgentPresent)
}

// layout chooses the capture mode: the requested one, or with auto pipe
// for agents and whenever stdout is not this terminal's foreground job,
// passthrough for an interactive command on a terminal, else pty. The
// summary replaces the output, so it always captures through pipes.
func (a *App) layout(req RunRequest) layout {
	agent := a.agentPresent()
	mode := req.Mode
	if req.Summary {
		mode = runspec.ModePipe
	}
	term := capture.Terminal{
		StdinTerminal:  terminal.Is(req.Stdin),
		StdoutTerminal: terminal.Is(req.Stdout),
		Agent:          agent,
	}
	if term.StdoutTerminal {
		// only a terminal makes pty or passthrough possible: off a
		// terminal (agents, scripts) rac run asks nothing more
		term.Foreground = terminal.InForeground(req.Stdout)
		term.Interactive = term.StdinTerminal && interactive.Is(req.Argv, a.env.Getenv, req.Interactive)
	}
	mode = capture.Choose(mode, term)
	switch mode {
	case runspec.ModePTY:
		return layout{mode: mode, recMode: record.ModePTY, streams: []string{record.Combined}, agent: agent}
	case runspec.ModePassthrough:
		return layout{mode: mode, recMode: record.ModePassthrough, streams: []string{}, agent: agent}
	}
	if req.Stdout != nil && req.Stderr != nil && capture.SameDescription(req.Stdout, req.Stderr) {
		return layout{mode: runspec.ModePipe, combined: true, recMode: record.ModeCombined, streams: []string{record.Combined}, agent: agent}
	}
	return layout{mode: runspec.ModePipe, recMode: record.ModePipes, streams: []string{record.Stdout, record.Stderr}, agent: agent}
}

// maxStoredArgv bounds the argv a recording keeps, far inside the 1 MiB
// a reader accepts for meta.json (with cwd and escaping): a command given
// megabytes of arguments is still recorded, and readable.
const maxStoredArgv = 256 << 10

// boundArgv keeps argv whole when it fits in limit bytes; otherwise the
// arguments up to the limit, the one that crosses it cut, and a last
// element that says what was left out.
func boundArgv(argv []string, limit int) []string {
	total := 0
	for _, a := range argv {
		total += len(a)
	}
	if total <= limit {
		return argv
	}
	var out []string
	used := 0
	for _, a := range argv {
		if used+len(a) > limit {
			keep := max(limit-used, 0)
			for keep > 0 && !utf8.RuneStart(a[keep]) {
				keep--
			}
			if keep > 0 {
				out = append(out, a[:keep])
			}
			out = append(out, fmt.Sprintf("[rac: %d more bytes of arguments not stored, %d arguments in all]", total-used-keep, len(argv)))
			return out
		}
		out = append(out, a)
		used += len(a)
	}
	return out
}

// InterruptedAt says how rac run's closing line sits beside a Ctrl-C on the
// terminal errTerm (rac's stderr, nil when it is not one). The terminal
// echoed "^C" with no newline after it (its own echo, in every mode: in pty
// mode the pty carries CMD's output only, the keys stay the terminal's),
// and a shell that sees its command die of SIGINT ends the line itself
// (bash and zsh print a newline; fish marks the open line), as after a bare
// command's "^C". So the ref line starts on a line of its own (before) and
// leaves its newline to the shell (!after): no "^Crac: ref" and no blank
// line under it. Anything but a SIGINT death at a terminal: after only.
func InterruptedAt(res RunResult, errTerm *os.File) (before, after bool) {
	if errTerm == nil || res.Outcome.Status != StatusSignaled || res.Outcome.Signal != "SIGINT" {
		return false, true
	}
	tio, err := terminal.GetTermios(int(errTerm.Fd()))
	echoed := err == nil && tio.Lflag&unix.ECHO != 0 && tio.Lflag&unix.ECHOCTL != 0
	return echoed, false
}
