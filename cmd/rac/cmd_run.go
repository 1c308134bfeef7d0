package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
	"github.com/rac-cli/rac/internal/wiring"
)

type runOptions struct {
	c            *cli
	quiet        bool
	stopIsCancel bool // rac mcp's run tool's: a SIGTERM is its client cancelling the call
	mcpCall      bool // rac mcp's run tool's: nothing the command starts outlives the call
}

func newRunCmd(c *cli) *cobra.Command {
	o := &runOptions{c: c}
	cmd := &cobra.Command{
		Use:   "run [flags] [--] CMD [ARGS...]",
		Short: "Run CMD exactly as without rac and record its output",
		Args:  cobra.ArbitraryArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return o.run(cmd, args) },
		Long: `Run CMD with rac's stdin, forwarding its stdout and stderr byte for byte as
they arrive, while recording both into the current session ('rac session'
names it; --session or RAC_SESSION=NAME picks one, which two terminals can
share). Everything from CMD on belongs to CMD, flags too.

rac names the recording on stderr: "rac: recording SESSION/NAME (cut? rac
out explain SESSION/NAME)" first and "rac: ref SESSION/NAME" last; paste
it into 'rac out read' from any shell.
By default (--announce auto) it prints both lines when no terminal shows
the run (neither stdout nor stderr is one: scripts, CI, agents), and at a
terminal only the last line, only when CMD failed or its recording was cut.
--announce start|end|both|failed|none chooses; --quiet prints no rac: line
at all. CMD's environment gets RAC_REF=SESSION/NAME.

rac exits with CMD's status (by the same signal when CMD died of one); 124
when --timeout fired, 125 when rac itself failed before CMD ran, 126 when
CMD cannot be executed, 127 when it is not found. Durations take a unit:
90s, 10m, 1h30m. Each flag but --session and --quiet is also a setting
(RAC_RUN_TIMEOUT for --timeout, ...): 'rac config' shows them all.`,
		Example: `  rac run -- git push
  rac run --timeout 10m -- make test
  rac run --announce end -- git status
  rac run --summary -- go test ./...`,
	}
	f := cmd.Flags()
	f.SetInterspersed(false) // everything from CMD on belongs to CMD
	f.StringVar(&c.session, "session", "", "record into session `NAME` ("+app.SessionNameForm+")")
	bindSettings(f, "run.mode", "run.timeout", "run.kill_after", "run.drain_timeout", "run.announce")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print no rac: lines (same as --announce none)")
	f.Bool("strict-config", false, "refuse to run CMD when a setting or the config file is bad (RAC_STRICT_CONFIG=1), instead of a warning and the defaults")
	bindSettings(f, "run.summary", "run.summary_head", "run.summary_tail", "run.json", "redact.enabled")
	f.BoolVar(&o.stopIsCancel, "stop-is-cancel", false, "a SIGTERM, SIGHUP or SIGINT to rac is its caller cancelling the run: CMD killed by it ends cancelled (rac mcp's run tool)")
	_ = f.MarkHidden("stop-is-cancel")
	// rac-mcp's run tool (docs/mcp.md): nothing the command starts outlives the call
	f.BoolVar(&o.mcpCall, "mcp-call", false, "kill every process CMD leaves, and all on SIGTERM (rac-mcp's run tool)")
	_ = f.MarkHidden("mcp-call")
	return cmd
}

func (o *runOptions) run(cmd *cobra.Command, args []string) error {
	c := o.c

	errw := c.streams.Err
	r := c.settings.Run
	req := wiring.RunRequest(r, args)
	req.Stdin, req.Stdout, req.Stderr = c.streams.InFile, c.streams.OutFile, c.streams.ErrFile
	req.OutErrShared = c.streams.OutErrShared
	req.Signals = c.sigs
	req.StopIsCancel = o.stopIsCancel
	req.Contain = o.mcpCall
	req.OnStart = func(ref string) { c.p.Infof("%s", app.StartLine(ref)) }
	req.OnExit = func(e app.CommandEnded) {
		if e.StartErr != "" {
			// before the ref line, which stays the last line rac writes
			c.p.Errorf("%s", e.StartErr)
		} else if e.LineOpen {
			c.p.SetMidLine(true) // rac's own lines start on a line of their own
		}
	}
	res, err := c.app.Run(cmd.Context(), req)
	if err != nil {
		return err
	}
	for _, l := range res.Summary {
		fmt.Fprintln(c.streams.Out, ui.EscapeLine(l))
	}
	if e := res.AgentEnd; e != nil {
		// run.agent_view held the middle back: what was left out, the
		// cause, then the tail of each stream, as the command wrote it
		for _, l := range e.Lines {
			c.p.Infof("%s", l)
		}
		for _, t := range e.Tails {
			w := c.streams.Out
			if t.Stream == "stderr" {
				w = c.streams.Err
			}
			_, _ = w.Write(t.Bytes)
		}
		if n := len(e.Tails); n > 0 && len(e.Tails[n-1].Bytes) > 0 && !bytes.HasSuffix(e.Tails[n-1].Bytes, []byte("\n")) {
			c.p.SetMidLine(true)
		}
	}
	if r.JSON.V {
		_ = ui.JSONLine(errw, res.View())
	}
	if res.Ref != "" && !req.Summary && res.EndLine() {
		c.refLine(res)
	}
	c.app.AutoGC(cmd.Context())
	return app.RunExit(res)
}

// refLine prints the closing "rac: ref" line, placed beside a Ctrl-C's
// "^C" the way the shell places its prompt after a bare command's.
func (c *cli) refLine(res app.RunResult) {
	var errTerm *os.File
	if c.streams.IsStderrTTY() && c.streams.ErrFile != nil {
		errTerm = c.streams.ErrFile
	}
	before, after := app.InterruptedAt(res, errTerm)
	if before {
		c.p.SetMidLine(true)
	}
	if after {
		c.p.Infof("ref %s", res.Ref)
	} else {
		c.p.InfoUnendedf("ref %s", res.Ref)
	}
}
