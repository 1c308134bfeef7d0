package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
)

type recordOptions struct {
	c        *cli
	noTee    bool
	name     string
	cmdText  string
	appendTo string
	exitCode int
	stated   app.StatedOutcome
}

func newRecordCmd(c *cli) *cobra.Command {
	o := &recordOptions{c: c}
	cmd := &cobra.Command{
		Use:   "record [flags]",
		Short: "Record a stream read on stdin (a remote build, a CI log) into the current session",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
		Long: `Read stdin to its end into a new recording of the current session, for output
rac does not start itself: a remote builder's stream, kubectl logs -f, a CI
log fetched after the fact. rac prints "rac: recording SESSION/NAME" on
stderr before it reads the first byte, copies the stream to stdout as it
arrives (--no-tee: not at all), and redacts and caps it as rac run does.
Harness output shaping (--summary) does not apply to this copy.

rac never guesses the outcome. At the end of the stream the recording says
"stream ended", with no exit status, unless the producer states one:
--exit-code N, --timed-out, --transport-error TEXT, or --status-from FILE|FD
(a file or an open file descriptor holding the exit code, read when the
stream ends). A signal that stops rac record leaves the recording
incomplete.

--append REF continues a recording of this session whose outcome was never
stated (stream ended, or incomplete) after a reconnect or a replay; the
recording notes the seam (when, and the bytes before it). One with a stated
outcome is final.

rac record exits with the stated exit code, 124 for --timed-out, 1 for a
transport error, 0 for a stream whose outcome was not stated, and 2 for a
usage error or a refused --append. Pipe into it:
  { make 2>&1; echo $? > status; } | rac record --status-from status`,
		Example: `  rac record --cmd 'cargo build --remote' < <(ssh builder 'cargo build' 2>&1)
  rac record --name ci-log --exit-code 1 < job-1234.log
  rac record --append test/0004-migrate < <(kubectl logs -f job/migrate)`,
	}
	f := cmd.Flags()
	f.StringVar(&c.session, "session", "", "record into session `NAME` ("+app.SessionNameForm+")")
	f.BoolVar(&o.noTee, "no-tee", false, "do not copy the stream to stdout")
	f.StringVar(&o.name, "name", "", "name the recording `NAME` (lower-case letters, digits and dashes)")
	f.StringVar(&o.cmdText, "cmd", "", "the `COMMAND` that produced the stream, shown like a recorded command line")
	f.StringVar(&o.appendTo, "append", "", "continue the recording `REF` of this session (its outcome not stated yet)")
	f.IntVar(&o.exitCode, "exit-code", 0, "the command's exit status `N`, when the producer knows it")
	f.BoolVar(&o.stated.TimedOut, "timed-out", false, "the producer gave up waiting for the command (no exit status)")
	f.StringVar(&o.stated.TransportError, "transport-error", "", "the producer lost the stream: `TEXT` says why (no exit status)")
	f.StringVar(&o.stated.StatusFrom, "status-from", "", "read the exit status from `FILE` or file descriptor FD when the stream ends")
	bindSettings(f, "redact.enabled")
	_ = cmd.RegisterFlagCompletionFunc("append", func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return c.completeRefs(cmd, args, toComplete)
	})
	return cmd
}

func (o *recordOptions) run(cmd *cobra.Command) error {
	c := o.c
	req := app.RecordRequest{In: c.streams.In, Tee: c.streams.Out, Name: o.name, Cmd: o.cmdText,
		Append: o.appendTo, Stated: o.stated,
		OnStart: func(ref string) { c.p.Infof("recording %s", ref) }}
	if o.noTee {
		req.Tee = nil
	}
	if cmd.Flags().Changed("exit-code") {
		code := o.exitCode
		req.Stated.ExitCode = &code
	}
	res, err := c.app.Record(cmd.Context(), req)
	if err != nil {
		return err
	}
	if res.TeeErr != nil && res.Ref != "" {
		c.p.Warnf("the copy to stdout stopped (%s); %s recorded the rest", app.FirstLine(res.TeeErr), res.Ref)
	}
	c.app.AutoGC(cmd.Context())
	return app.RecordExit(res)
}
