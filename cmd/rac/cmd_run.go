package main

import (
	"encoding/json"
	"fmt"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/capture"
	"github.com/rac-cli/rac/internal/record"
	"github.com/rac-cli/rac/internal/session"
	"github.com/rac-cli/rac/internal/termtext"
)

type runOptions struct {
	c     *cli
	quiet bool
}

func newRunCmd(c *cli) *cobra.Command {
	o := &runOptions{c: c}
	cmd := &cobra.Command{
		Use:   "run [flags] [--] CMD [ARGS...]",
		Short: "Run CMD exactly as without rac and record its output",
		Long: `Run CMD with rac's stdin, forwarding its stdout and stderr byte for byte as
they arrive, while recording both into the current session ('rac session'
names it; --session or RAC_SESSION=NAME picks one, which two terminals can
share). Everything from CMD on belongs to CMD, flags too.

The last line rac writes to stderr is "rac: ref SESSION/NAME": paste it
into 'rac out read' from any shell. --announce failed prints it only when
CMD failed or its recording was cut; --quiet prints no rac: line at all.
CMD's environment gets RAC_REF=SESSION/NAME.

rac exits with CMD's status (by the same signal when CMD died of one); 124
when --timeout fired, 125 when rac itself failed before CMD ran, 126 when
CMD cannot be executed, 127 when it is not found. Durations take a unit:
90s, 10m, 1h30m. Each flag but --session and --quiet is also a setting
(RAC_RUN_TIMEOUT for --timeout, ...): 'rac config' shows them all.`,
		Example: `  rac run -- git push
  rac run --timeout 10m -- make test
  rac run --announce failed -- git status
  rac run --summary -- go test ./...`,
		Args: cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error { return o.run(args) },
	}
	f := cmd.Flags()
	f.SetInterspersed(false) // everything from CMD on belongs to CMD
	f.StringVar(&c.session, "session", "", "record into session `NAME` ("+session.NameForm+")")
	bindSettings(f, "run.mode", "run.timeout", "run.kill_after", "run.drain_timeout", "run.announce")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print no rac: lines (same as --announce none)")
	bindSettings(f, "run.summary", "run.summary_head", "run.summary_tail", "run.json", "redact.enabled")
	return cmd
}

func (o *runOptions) run(args []string) error {
	c := o.c

	errw := c.streams.Err
	r := c.settings.Run
	req := app.RunRequest{
		Argv: args, Stdin: c.streams.InFile, Stdout: c.streams.OutFile, Stderr: c.streams.ErrFile,
		Timeout: r.Timeout.V, KillAfter: r.KillAfter.V, DrainTimeout: r.DrainTimeout.V,
		Mode: string(r.Mode.V), Interactive: r.Interactive.V, SignalSettle: r.SignalSettle.V,
		Announce: string(r.Announce.V), Summary: r.Summary.V, SummaryHead: r.SummaryHead.V, SummaryTail: r.SummaryTail.V,
		Signals: c.sigs,
	}
	req.OnStart = func(ref string) { c.p.Infof("recording %s", ref) }
	req.OnExit = func(out capture.Outcome) {
		if out.Status == record.StatusFailedToStart {
			// before the ref line, which stays the last line rac writes
			c.p.Errorf("%s", c.app.RedactString(out.StartErr.Error()))
		} else if out.OpenLine(c.streams.OutErrShared()) {
			c.p.SetMidLine(true) // rac's own lines start on a line of their own
		}
	}
	res, err := c.app.Run(req)
	if err != nil {
		return err
	}
	for _, l := range res.Summary {
		fmt.Fprintln(c.streams.Out, termtext.EscapeLine(l))
	}
	if r.JSON.V {
		b, _ := json.Marshal(res.View())
		fmt.Fprintf(errw, "%s\n", b)
	}
	if res.Ref != "" && !req.Summary && res.EndLine() {
		c.p.Infof("ref %s", res.Ref)
	}
	c.app.AutoGC()
	return runStatus(res.Outcome)
}

// runStatus is rac run's exit status: the command's own, except that a
// failed write to rac's own stdout or stderr (disk full, EIO) is 1 when
// the command then died of the SIGPIPE rac gave it, or still exited 0
// (its output did not all arrive).
func runStatus(out capture.Outcome) error {
	if len(out.ForwardErr) > 0 && (out.Status == record.StatusExited && out.ExitCode == 0 ||
		out.Status == record.StatusSignaled && out.Signal == syscall.SIGPIPE) {
		return exitCodeError{code: 1}
	}
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
