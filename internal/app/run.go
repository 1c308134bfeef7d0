package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/capture"
	"github.com/rac-cli/rac/internal/outcome"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/resolve"
	"github.com/rac-cli/rac/internal/runspec"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
	"github.com/rac-cli/rac/internal/terminal"
	"github.com/rac-cli/rac/internal/termtext"
)

// RunRequest is one rac run.
type RunRequest struct {
	Argv                             []string
	Stdin, Stdout, Stderr            *os.File
	Timeout, KillAfter, DrainTimeout time.Duration
	Announce                         runspec.Announce
	// Mode is run.mode: auto, pipe, pty or passthrough.
	Mode runspec.Mode
	// Interactive names more programs passthrough takes (run.interactive).
	Interactive  []string
	SignalSettle time.Duration
	// Signals are the signals the run catches, when the caller started
	// catching them early (capture.CatchSignals, stopped by the caller);
	// nil: Run catches its own.
	Signals                  *capture.Signals
	Summary                  bool
	SummaryHead, SummaryTail int
	// OnStart is called with the reference before the command starts,
	// when the start line is to be printed.
	OnStart func(ref string)
	// OnExit is called as soon as the command has ended, before rac
	// writes anything else about it.
	OnExit func(out capture.Outcome)
}

// RunResult is what one rac run did.
type RunResult struct {
	Outcome capture.Outcome
	// Ref is the recording's qualified reference, "" when not recorded.
	Ref, Session, Name string
	// Announce is the request's Announce with auto resolved.
	Announce runspec.Announce
	// Mode is how the command was connected: pipes, combined, pty or
	// passthrough (meta.json's mode).
	Mode string
	// Summary holds the compact summary's lines (with --summary).
	Summary  []string
	Duration time.Duration
	// Notes are the outcome's notes, redacted.
	Notes []string
	// Cut: the command printed more than the recording keeps
	// (record.max_bytes), so its middle was dropped.
	Cut bool
}

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
		return r.Outcome.Status != record.StatusExited || r.Outcome.ExitCode != 0 || r.Cut
	}
	return false
}

// View is the result as rac run --json prints it.
func (r RunResult) View() RunView {
	out := r.Outcome
	v := RunView{
		Status: out.Status, DurationMS: r.Duration.Milliseconds(),
		StdoutBytes: out.Received[record.Stdout].Bytes, StderrBytes: out.Received[record.Stderr].Bytes,
		StdoutLines: out.Received[record.Stdout].Lines, StderrLines: out.Received[record.Stderr].Lines,
		CombinedBytes: out.Received[record.Combined].Bytes, CombinedLines: out.Received[record.Combined].Lines,
		Mode: r.Mode, Notes: validUTF8s(r.Notes),
	}
	if r.Ref != "" {
		ref, sess, name := r.Ref, r.Session, r.Name
		v.Ref, v.Session, v.Name = &ref, &sess, &name
	}
	switch out.Status {
	case record.StatusExited, record.StatusFailedToStart:
		code := out.ExitCode
		v.ExitCode = &code
	}
	if out.Signal != 0 {
		s := unix.SignalName(out.Signal)
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

// Run runs the command as without rac and records it. A failure to record
// is a warning: the command runs all the same. The returned error is rac's
// own failure before the command ran.
func (a *App) Run(req RunRequest) (RunResult, error) {
	if err := CheckRun(req); err != nil {
		return RunResult{}, err
	}
	a.WarmRedactor()
	sigs := req.Signals
	if sigs == nil {
		sigs = capture.CatchSignals()
		defer sigs.Stop()
	}
	lay := a.layout(req)
	id, idErr := a.Identify(false)
	if idErr != nil && (a.set.Session != "" || !errors.Is(idErr, session.ErrInvalidName)) {
		return RunResult{}, idErr // a bad --session flag is rac's own bad flag
	}
	// Built even with redaction off: rac's own lines about the command
	// (warnings, summary, errors) are always redacted.
	red, err := a.Redactor()
	if err == nil {
		_, err = a.ArgvRules() // a bad redact.args stops the run like a bad rule
	}
	if err != nil {
		return RunResult{}, err
	}
	res := RunResult{Announce: ResolveAnnounce(req.Announce, AnnounceContext{
		Agent:          id.FromAgent || lay.agent,
		StdoutTerminal: terminal.Is(req.Stdout),
		StderrTerminal: terminal.Is(req.Stderr),
	})}
	res.Mode = lay.recMode
	var rec *record.Writer
	var held []string // warnings of startRecording, printed after the start line
	switch {
	case idErr != nil:
		// a bad RAC_SESSION must not cost the user the command itself
		a.warnf("not recording this command: %v", idErr)
	case a.recordingAllowed():
		// a note about where the recording went (a fallback store) comes
		// after the start line, which is the line an agent's tool
		// output most reliably keeps
		warn := a.Warn
		a.Warn = func(m string) { held = append(held, m) }
		rec = a.startRecording(id, req.Argv, lay)
		a.Warn = warn
	}
	reds := &streamRedactors{red: red, oneWorker: lay.mode == runspec.ModePTY}
	var filter func(string, io.Writer) io.WriteCloser
	if a.set.RedactEnabled {
		filter = reds.filter
	}
	if rec != nil {
		res.Ref, res.Session, res.Name = rec.Ref(), rec.Session, rec.Name
		if req.OnStart != nil && (res.Announce == runspec.AnnounceStart || res.Announce == runspec.AnnounceBoth) {
			req.OnStart(rec.Ref())
		}
	}
	for _, m := range held {
		a.Warn(m)
	}
	var collectors map[string]*Collector
	var tee func(string) io.Writer
	var teeReds []*redact.Writer
	if req.Summary {
		collectors = map[string]*Collector{}
		tees := map[string]io.Writer{}
		for _, s := range lay.streams {
			c := NewCollector(req.SummaryHead + req.SummaryTail)
			collectors[s], tees[s] = c, c
			if !a.set.RedactEnabled {
				// the summary goes to an agent: with --no-redact it is
				// still built from redacted output, blocks and all
				w := red.NewWriterOptions(c, redact.WriterOptions{Workers: 1})
				teeReds = append(teeReds, w)
				tees[s] = summaryTee{w}
			}
		}
		tee = func(s string) io.Writer {
			if w, ok := tees[s]; ok {
				return w
			}
			return nil
		}
	}
	started := a.env.Now()
	out := capture.Run(capture.RunOptions{
		Argv: req.Argv, Env: childEnv(a.env.Environ(), rec),
		Stdin: req.Stdin, Stdout: req.Stdout, Stderr: req.Stderr,
		Timeout: req.Timeout, KillAfter: req.KillAfter, DrainTimeout: req.DrainTimeout,
		Rec: rec, Warn: func(m string) { a.Warn(red.String(m)) }, Now: a.env.Now,
		Tee: tee, NoForward: req.Summary, Filter: filter,
		Mode: lay.mode, Combined: lay.combined, SignalSettle: req.SignalSettle, Signals: sigs,
		OnStopping: func(sig syscall.Signal) {
			if rec != nil {
				_ = rec.MarkStopping(unix.SignalName(sig)) // best effort, like all recording
			}
		},
	})
	for _, w := range teeReds {
		// a failed redactor has written its marker and nothing after it
		_ = w.Close()
	}
	for _, c := range collectors {
		_ = c.Close() // ends a last line; it cannot fail
	}
	if out.Status == record.StatusFailedToStart {
		out.Notes = append(out.Notes, out.StartErr.Error())
	}
	if req.OnExit != nil {
		req.OnExit(out)
	}
	if rec != nil {
		a.finish(rec, out, reds.counts())
	}
	res.Outcome = out
	res.Duration = a.env.Now().Sub(started)
	var total int64
	for _, c := range out.Received {
		total += c.Bytes
	}
	res.Cut = a.set.MaxBytes > 0 && total > a.set.MaxBytes
	for _, n := range out.Notes {
		res.Notes = append(res.Notes, red.String(n))
	}
	if req.Summary {
		refLine := "rac: not recorded"
		if rec != nil {
			refLine = "rac: ref " + rec.Ref()
		}
		res.Summary = a.summary(req, lay, out, collectors, refLine)
	}
	return res, nil
}

// finish writes the footer: the outcome, counts, notes (redacted) and
// redaction counts.
func (a *App) finish(rec *record.Writer, out capture.Outcome, redactions map[string]int) {
	footer := record.Footer{
		Status: out.Status, EndedAt: a.env.Now().UTC(),
		Received: out.Received, Redactions: redactions,
	}
	switch out.Status {
	case record.StatusExited:
		code := out.ExitCode
		footer.ExitCode = &code
	case record.StatusSignaled, record.StatusTimedOut:
		if out.Signal != 0 {
			footer.Signal = unix.SignalName(out.Signal)
		}
	}
	for _, n := range out.Notes {
		footer.Notes = append(footer.Notes, a.redactString(n))
	}
	var ferr error
	withPrivateUmask(func() { ferr = rec.Finish(footer) })
	if serr := errors.Join(rec.Err(), ferr); serr != nil {
		a.warnf("recording %s broken off: %v; the command's output was still forwarded in full", rec.Ref(), FirstLine(serr))
	}
}

func (a *App) summary(req RunRequest, lay layout, out capture.Outcome, cs map[string]*Collector, refLine string) []string {
	sig := ""
	if out.Signal != 0 {
		sig = unix.SignalName(out.Signal)
	}
	argv := a.redactArgv(req.Argv)
	var streams []SummaryStream
	for _, s := range lay.streams {
		rc := out.Received[s]
		streams = append(streams, SummaryStream{Name: s, Lines: rc.Lines, Bytes: rc.Bytes, Output: cs[s]})
	}
	var code *int // as rac run --json says it: for exited and failed_to_start
	if out.Status == record.StatusExited || out.Status == record.StatusFailedToStart {
		code = &out.ExitCode
	}
	return Summary(termtext.QuoteArgv(argv), outcome.Of(out.Status, code, sig).Long(), streams, req.SummaryHead, req.SummaryTail, refLine)
}

// startRecording opens the store and creates the recording, with argv and
// cwd redacted when redaction is on (curl -H, git clone
// https://user:TOKEN@..., and through the argv grammar --password X,
// mysql -pX). Any failure is one warning and no recording.
func (a *App) startRecording(id session.Identity, argv []string, lay layout) *record.Writer {
	cwd, _ := os.Getwd()
	if a.set.RedactEnabled {
		argv, cwd = a.redactArgv(argv), a.redactString(cwd)
	}
	argv = boundArgv(argv, maxStoredArgv)
	var rec *record.Writer
	var err error
	withPrivateUmask(func() {
		var sd *store.Session
		sd, err = a.openSessionInPlaces(id, a.set.StoreWorkdir)
		if err != nil {
			return
		}
		defer sd.Close()
		defer sd.Store.Close()
		rec, err = record.Create(record.CreateOptions{
			Session: sd, Argv: argv, Cwd: cwd, Mode: lay.recMode, Redact: a.set.RedactEnabled,
			Streams: lay.streams, RacVersion: a.env.Version, Now: a.env.Now,
			MaxBytes: a.set.MaxBytes, HeadBytes: a.set.HeadBytes,
			Parent: parentRef(a.env.Getenv("RAC_REF")),
		})
	})
	if err != nil {
		a.warnf("not recording this command: %v", FirstLine(err))
		return nil
	}
	return rec
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
func childEnv(environ []string, rec *record.Writer) []string {
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

// streamRedactors makes one redacting writer per stream and sums their
// counts for the footer.
type streamRedactors struct {
	red *redact.Redactor
	// oneWorker: pty mode's one stream comes at the tty layer's pace
	// (55-70 MB/s), which one goroutine redacts with time to spare (about
	// 650 MB/s); workers would only add handoffs, and take CPU from the
	// command and the kernel's tty worker
	oneWorker bool
	mu        sync.Mutex
	ws        []*redact.Writer
}

func (s *streamRedactors) filter(_ string, sink io.Writer) io.WriteCloser {
	var opt redact.WriterOptions
	if s.oneWorker {
		opt.Workers = 1
	}
	w := s.red.NewWriterOptions(sink, opt)
	s.mu.Lock()
	s.ws = append(s.ws, w)
	s.mu.Unlock()
	return w
}

func (s *streamRedactors) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out map[string]int
	for _, w := range s.ws {
		for k, n := range w.Counts() {
			if out == nil {
				out = map[string]int{}
			}
			out[k] += n
		}
	}
	return out
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
	agent, _ := session.AgentPresent(a.env.Getenv, a.idVars(), a.markerVars())
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
		term.Interactive = term.StdinTerminal && capture.IsInteractive(req.Argv, a.env.Getenv, req.Interactive)
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
