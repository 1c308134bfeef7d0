package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/capture"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/store"
)

type runOptions struct {
	a            *app
	timeout      time.Duration
	killAfter    time.Duration
	drainTimeout time.Duration
	announce     string
	quiet        bool
	maxBytes     int64
	headBytes    int64
	summary      bool
	summaryHead  int
	summaryTail  int
	json         bool
	noRedact     bool
}

func newRunCmd(a *app) *cobra.Command {
	o := &runOptions{a: a}
	cmd := &cobra.Command{
		Use:   "run [flags] [--] CMD [ARGS...]",
		Short: "Run CMD exactly as without rac and record its output",
		Long: `Run CMD with rac's stdin, forwarding its stdout and stderr byte for byte as
they arrive, while recording both into the current session. rac exits with
CMD's status (by the same signal when CMD died of one); 124 when --timeout
fired, 125 when rac itself failed before CMD ran, 126 when CMD cannot be
executed, 127 when it is not found. The last line rac writes to stderr is
"rac: ref SESSION/NAME": paste it into 'rac out read' from any shell.`,
		Example: `  rac run -- git push
  rac run git log -3
  rac run --timeout 10m -- make test
  rac run --summary -- go test ./...`,
		Args: cobra.ArbitraryArgs,
		RunE: o.run,
	}
	f := cmd.Flags()
	f.SetInterspersed(false) // everything from CMD on belongs to CMD
	f.StringVar(&a.sessionFlag, "session", "", "record into session `NAME` ("+session.NameForm+")")
	f.DurationVar(&o.timeout, "timeout", 0, settingByKey("run.timeout").help)
	f.DurationVar(&o.killAfter, "kill-after", 5*time.Second, settingByKey("run.kill_after").help)
	f.DurationVar(&o.drainTimeout, "drain-timeout", 2*time.Second, settingByKey("run.drain_timeout").help)
	f.StringVar(&o.announce, "announce", "auto", settingByKey("run.announce").help)
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print no rac: lines (same as --announce none)")
	f.BoolVar(&o.summary, "summary", false, settingByKey("run.summary").help)
	f.IntVar(&o.summaryHead, "summary-head", 10, settingByKey("run.summary_head").help)
	f.IntVar(&o.summaryTail, "summary-tail", 10, settingByKey("run.summary_tail").help)
	f.BoolVar(&o.json, "json", false, settingByKey("run.json").help)
	f.BoolVar(&o.noRedact, "no-redact", false, "store the output exactly as received, secrets included (redact.enabled=false); the recording says so")
	return cmd
}

func (o *runOptions) run(cmd *cobra.Command, args []string) error {
	a := o.a
	if len(args) == 0 {
		return usagef("missing command: rac run [flags] [--] CMD [ARGS...]")
	}
	switch o.announce {
	case "auto", "start", "end", "both", "none":
	default:
		return usagef("invalid --announce %q: use start, end, both, none or auto", o.announce)
	}
	if o.timeout < 0 || o.killAfter < 0 || o.drainTimeout < 0 {
		return usagef("durations must not be negative")
	}
	if o.summaryHead < 0 || o.summaryTail < 0 {
		return usagef("--summary-head and --summary-tail take a number of lines from 0")
	}
	errw := a.streams.Err
	id, idErr := a.identify()
	if idErr != nil && (a.sessionFlag != "" || !errors.Is(idErr, session.ErrInvalidName)) {
		return idErr // a bad --session flag is rac's own bad flag
	}
	var err error
	if o.maxBytes, err = a.cfg.sizeSetting("record.max_bytes"); err != nil {
		return err
	}
	if o.headBytes, err = a.cfg.sizeSetting("record.head_bytes"); err != nil {
		return err
	}
	redactOn, err := a.redactEnabled(o.noRedact, cmd.Flags().Changed("no-redact"))
	if err != nil {
		return err
	}
	// Built even with redaction off: rac's own lines about the command
	// (warnings, summary, errors) are always redacted.
	red, err := a.redactor()
	if err != nil {
		return err
	}
	announce := o.announce
	if o.quiet {
		announce = "none"
	}
	if announce == "auto" {
		announce = "end"
		if id.FromAgent {
			announce = "both"
		}
	}
	warn := func(msg string) { fmt.Fprintf(errw, "rac: warning: %s\n", escapeControl(red.String(msg))) }

	cwd, _ := os.Getwd()
	storedArgv, storedCwd := args, cwd
	if redactOn {
		// argv and cwd can hold secrets too (curl -H, git clone https://user:TOKEN@...)
		storedArgv = make([]string, len(args))
		for i, s := range args {
			storedArgv[i] = red.String(s)
		}
		storedCwd = red.String(cwd)
	}
	var rec *record.Writer
	switch {
	case idErr != nil:
		// a bad RAC_SESSION must not cost the user the command itself
		warn(fmt.Sprintf("not recording this command: %v", idErr))
	case a.recordingAllowed(warn):
		rec = o.startRecording(id, storedArgv, storedCwd, redactOn, warn)
	}
	var filter func(string, io.Writer) io.WriteCloser
	reds := &streamRedactors{red: red}
	if redactOn {
		filter = reds.filter
	}
	env := childEnv(a.environ(), rec)
	if rec != nil && (announce == "start" || announce == "both") {
		fmt.Fprintf(errw, "rac: recording %s\n", rec.Ref())
	}

	var collectors map[string]*record.Collector
	var tee func(string) io.Writer
	if o.summary {
		collectors = map[string]*record.Collector{}
		for _, s := range []string{record.Stdout, record.Stderr} {
			collectors[s] = record.NewCollector(o.summaryHead + o.summaryTail)
		}
		tee = func(s string) io.Writer { return collectors[s] }
	}
	started := a.now()
	out := capture.Run(capture.RunOptions{
		Argv: args, Env: env,
		Stdin: a.streams.In, Stdout: a.streams.Out, Stderr: a.streams.Err,
		Timeout: o.timeout, KillAfter: o.killAfter, DrainTimeout: o.drainTimeout,
		Rec: rec, Warn: warn, Now: a.now, Tee: tee, NoForward: o.summary, Filter: filter,
	})
	for _, c := range collectors {
		_ = c.Close() // ends a last line; it cannot fail
	}

	if out.Status == record.StatusFailedToStart {
		// before the ref line, which stays the last line rac writes
		fmt.Fprintf(errw, "rac: %s\n", escapeControl(red.String(out.StartErr.Error())))
		out.Notes = append(out.Notes, out.StartErr.Error())
	} else if out.OpenLine(sameTerminalOrFile(a.streams.Out, a.streams.Err)) {
		// rac's own lines start on a line of their own
		fmt.Fprintln(errw)
	}
	if rec != nil {
		footer := record.Footer{
			Status: out.Status, EndedAt: a.now().UTC(),
			Received: out.Received, Notes: out.Notes, Redactions: reds.counts(),
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
		for i, n := range footer.Notes {
			footer.Notes[i] = red.String(n)
		}
		var ferr error
		withPrivateUmask(func() { ferr = rec.Finish(footer) })
		if serr := errors.Join(rec.Err(), ferr); serr != nil {
			warn(fmt.Sprintf("recording %s broken off: %v; the command's output was still forwarded in full", rec.Ref(), firstLineOf(serr)))
		}
	}
	refLine := "rac: not recorded"
	if rec != nil {
		refLine = "rac: ref " + rec.Ref()
	}
	if o.summary {
		argv := make([]string, len(args))
		for i, s := range args {
			argv[i] = red.String(s)
		}
		o.printSummary(argv, out, collectors, refLine)
	}
	if o.json {
		o.printJSON(rec, out, a.now().Sub(started))
	}
	if rec != nil && !o.summary && (announce == "end" || announce == "both") {
		fmt.Fprintln(errw, refLine)
	}

	a.afterRun()
	switch out.Status {
	case record.StatusFailedToStart:
		return exitCodeError{code: out.ExitCode}
	case record.StatusSignaled:
		return signalExit{sig: out.Signal}
	case record.StatusTimedOut:
		return exitCodeError{code: exitTimeout}
	}
	if out.ExitCode == 0 {
		return nil
	}
	return exitCodeError{code: out.ExitCode}
}

// startRecording opens the store and creates the recording. Any failure
// is one warning and no recording: the command runs all the same.
func (o *runOptions) startRecording(id session.Identity, argv []string, cwd string, redactOn bool, warn func(string)) *record.Writer {
	var rec *record.Writer
	var err error
	withPrivateUmask(func() {
		var sd *store.Session
		sd, err = o.a.openSessionForWrite(id, warn)
		if err != nil {
			return
		}
		defer sd.Close()
		defer sd.Store.Close()
		rec, err = record.Create(record.CreateOptions{
			Session: sd, Argv: argv, Cwd: cwd, Mode: record.ModePipes, Redact: redactOn,
			Streams: []string{record.Stdout, record.Stderr}, RacVersion: version, Now: o.a.now,
			MaxBytes: o.maxBytes, HeadBytes: o.headBytes,
		})
	})
	if err != nil {
		warn(fmt.Sprintf("not recording this command: %v", firstLineOf(err)))
		return nil
	}
	return rec
}

// openSessionForWrite opens (creating) the store and the session folder.
// Only the default location (never an explicit RAC_HOME) falls back to
// $TMPDIR/rac-UID when it cannot be written, as in sandboxes that forbid
// writes under the home directory.
func (a *app) openSessionForWrite(id session.Identity, warn func(string)) (*store.Session, error) {
	loc := store.Locate(a.getenv)
	if loc.Err != nil {
		return nil, loc.Err
	}
	sd, err := openSessionAt(loc.Path, id)
	if err == nil || loc.Explicit || !store.IsUnwritable(err) {
		return sd, err
	}
	_, statErr := os.Lstat(loc.Fallback)
	sd, ferr := openSessionAt(loc.Fallback, id)
	if ferr != nil {
		return nil, fmt.Errorf("%v; fallback %s: %w", err, loc.Fallback, ferr)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		warn(fmt.Sprintf("cannot write %s (%v); recording in %s instead ('rac out' searches both)", loc.Path, firstLineOf(err), loc.Fallback))
	}
	return sd, nil
}

func openSessionAt(path string, id session.Identity) (*store.Session, error) {
	st, err := store.CreateStore(path)
	if err != nil {
		return nil, err
	}
	sd, err := st.Session(id.Name, true)
	if err == nil {
		err = sd.WriteInfo(id)
	}
	if err != nil {
		if sd != nil {
			sd.Close()
		}
		st.Close()
		return nil, err
	}
	return sd, nil
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

func firstLineOf(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// printSummary writes the compact summary on stdout, the reference last.
func (o *runOptions) printSummary(argv []string, out capture.Outcome, cs map[string]*record.Collector, refLine string) {
	sig := ""
	if out.Signal != 0 {
		sig = unix.SignalName(out.Signal)
	}
	var streams []record.SummaryStream
	for _, s := range []string{record.Stdout, record.Stderr} {
		rc := out.Received[s]
		streams = append(streams, record.SummaryStream{Name: s, Lines: rc.Lines, Bytes: rc.Bytes, Output: cs[s]})
	}
	lines := record.Summary(shellQuote(argv), record.OutcomeWord(out.Status, out.ExitCode, sig), streams, o.summaryHead, o.summaryTail, refLine)
	w := o.a.streams.Out
	for _, l := range lines {
		fmt.Fprintln(w, escapeControl(l))
	}
}

// runJSON is the stable shape of rac run --json.
type runJSON struct {
	Ref         *string  `json:"ref"`
	Session     *string  `json:"session"`
	Name        *string  `json:"name"`
	Status      string   `json:"status"`
	ExitCode    *int     `json:"exit_code"`
	Signal      *string  `json:"signal"`
	DurationMS  int64    `json:"duration_ms"`
	StdoutBytes int64    `json:"stdout_bytes"`
	StderrBytes int64    `json:"stderr_bytes"`
	StdoutLines int64    `json:"stdout_lines"`
	StderrLines int64    `json:"stderr_lines"`
	Notes       []string `json:"notes"`
}

// printJSON writes one JSON object on stderr, before the final ref line.
func (o *runOptions) printJSON(rec *record.Writer, out capture.Outcome, d time.Duration) {
	notes := make([]string, len(out.Notes))
	for i, n := range out.Notes {
		notes[i] = validUTF8(o.a.red.String(n))
	}
	j := runJSON{
		Status: out.Status, DurationMS: d.Milliseconds(),
		StdoutBytes: out.Received[record.Stdout].Bytes, StderrBytes: out.Received[record.Stderr].Bytes,
		StdoutLines: out.Received[record.Stdout].Lines, StderrLines: out.Received[record.Stderr].Lines,
		Notes: notes,
	}
	if rec != nil {
		ref, sess, name := rec.Ref(), rec.Session, rec.Name
		j.Ref, j.Session, j.Name = &ref, &sess, &name
	}
	switch out.Status {
	case record.StatusExited, record.StatusFailedToStart:
		code := out.ExitCode
		j.ExitCode = &code
	}
	if out.Signal != 0 {
		s := unix.SignalName(out.Signal)
		j.Signal = &s
	}
	b, _ := json.Marshal(j)
	fmt.Fprintf(o.a.streams.Err, "%s\n", b)
}

// sameTerminalOrFile reports whether stdout and stderr end in one place
// (2>&1, or one terminal): then the last byte of either decides whether
// rac's own line needs a newline first.
func sameTerminalOrFile(a, b *os.File) bool {
	fa, ea := a.Stat()
	fb, eb := b.Stat()
	return ea == nil && eb == nil && os.SameFile(fa, fb)
}
