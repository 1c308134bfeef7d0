package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/capture"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
)

type runOptions struct {
	c       *cli
	req     app.RunRequest
	quiet   bool
	json    bool
	noRedac bool
}

func newRunCmd(c *cli) *cobra.Command {
	o := &runOptions{c: c}
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
		RunE: func(_ *cobra.Command, args []string) error { return o.run(args) },
	}
	f := cmd.Flags()
	f.SetInterspersed(false) // everything from CMD on belongs to CMD
	f.StringVar(&c.session, "session", "", "record into session `NAME` ("+session.NameForm+")")
	f.DurationVar(&o.req.Timeout, "timeout", 0, settingByKey("run.timeout").help)
	f.DurationVar(&o.req.KillAfter, "kill-after", 5*time.Second, settingByKey("run.kill_after").help)
	f.DurationVar(&o.req.DrainTimeout, "drain-timeout", 2*time.Second, settingByKey("run.drain_timeout").help)
	f.StringVar(&o.req.Announce, "announce", "auto", settingByKey("run.announce").help)
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print no rac: lines (same as --announce none)")
	f.BoolVar(&o.req.Summary, "summary", false, settingByKey("run.summary").help)
	f.IntVar(&o.req.SummaryHead, "summary-head", 10, settingByKey("run.summary_head").help)
	f.IntVar(&o.req.SummaryTail, "summary-tail", 10, settingByKey("run.summary_tail").help)
	f.BoolVar(&o.json, "json", false, settingByKey("run.json").help)
	f.BoolVar(&o.noRedac, "no-redact", false, "store the output exactly as received, secrets included (redact.enabled=false); the recording says so")
	return cmd
}

func (o *runOptions) run(args []string) error {
	c := o.c
	errw := c.streams.Err
	o.req.Argv = args
	o.req.Stdin, o.req.Stdout, o.req.Stderr = c.streams.In, c.streams.Out, c.streams.Err
	if o.quiet {
		o.req.Announce = app.AnnounceNone
	}
	o.req.OnStart = func(ref string) { fmt.Fprintf(errw, "rac: recording %s\n", ref) }
	o.req.OnExit = func(out capture.Outcome) {
		if out.Status == record.StatusFailedToStart {
			// before the ref line, which stays the last line rac writes
			fmt.Fprintf(errw, "rac: %s\n", escapeControl(c.app.RedactString(out.StartErr.Error())))
		} else if out.OpenLine(sameFile(c.streams.Out, c.streams.Err)) {
			fmt.Fprintln(errw) // rac's own lines start on a line of their own
		}
	}
	res, err := c.app.Run(o.req)
	if err != nil {
		return err
	}
	for _, l := range res.Summary {
		fmt.Fprintln(c.streams.Out, escapeControl(l))
	}
	if o.json {
		b, _ := json.Marshal(res.View())
		fmt.Fprintf(errw, "%s\n", b)
	}
	if res.Ref != "" && !o.req.Summary && (res.Announce == app.AnnounceEnd || res.Announce == app.AnnounceBoth) {
		fmt.Fprintln(errw, "rac: ref "+res.Ref)
	}
	c.app.AutoGC()
	return runStatus(res.Outcome)
}

// runStatus is rac run's exit status: the command's own.
func runStatus(out capture.Outcome) error {
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

// sameFile reports whether stdout and stderr end in one place (2>&1, or
// one terminal): then the last byte of either decides whether rac's own
// line needs a newline first.
func sameFile(a, b *os.File) bool {
	fa, ea := a.Stat()
	fb, eb := b.Stat()
	return ea == nil && eb == nil && os.SameFile(fa, fb)
}
