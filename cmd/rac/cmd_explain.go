package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/ui"
)

func newExplainCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:               "explain REF [--json]",
		Short:             "Say what failed, in a few lines",
		Args:              exactArgs(1, "missing reference: rac out explain REF (run 'rac out list' to see them)", "rac out explain takes one reference"),
		ValidArgsFunction: c.completeRef,
		RunE: func(cmd *cobra.Command, args []string) error {
			if d, err := c.app.ExplainAgent(cmd.Context(), args[0]); err != nil || d != nil {
				switch {
				case err != nil:
					return err
				case asJSON:
					return ui.AgentDigestJSON(c.streams.Out, d)
				}
				return ui.AgentDigest(c.streams.Out, c.streams.OutColors(), d)
			}
			rep, err := c.app.Explain(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return ui.ExplainJSON(c.streams.Out, rep)
			}
			return ui.Explain(c.streams.Out, c.streams.OutColors(), rep)
		},
		Long: `Print the command, its directory, how it ended and how long it ran, then
up to four distinct output lines most likely to be the cause (most likely
first), each as STREAM:LINE: text so you can read around it with
'rac out read REF --stream STREAM --lines A:B'; or, when no line looks like
an error, the last lines; on a coloured terminal a failed outcome and the
cause lines are red. At most 11 lines; --json prints one object of at
most 8 KiB. Everything printed passes through the secret redactor.

For a recording of a headless agent's event stream (claude -p
--output-format stream-json, codex exec --json, gemini --output-format
stream-json), explain prints the agent's digest instead: outcome, model,
cost and tokens, tool calls, the failure, the final text, the files it
wrote and the recording's facts; --json prints it as one object of at
most 8 KiB with "shows": "agent" (see docs/agent-runs.md).`,
		Example: `  rac out explain last
  rac out explain claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0007-git-push
  rac out explain 42 --json`,
	}
	cmd.Flags().StringVar(&c.session, "session", "", "resolve short references in session `S`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object of at most 8 KiB")
	return cmd
}

func newPathCmd(c *cli) *cobra.Command {
	var stream string
	cmd := &cobra.Command{
		Use:               "path REF [--stream stdout|stderr|combined]",
		Short:             "Print the path of a recording or of one stream's data file",
		Args:              exactArgs(1, "missing reference: rac out path REF (run 'rac out list' to see them)", "rac out path takes one reference"),
		ValidArgsFunction: c.completeRef,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.app.Path(cmd.Context(), args[0], stream)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.streams.Out, p)
			return err
		},
		Long: `Print the folder of a recording, or with --stream the file holding that
stream's bytes exactly as stored, for tools that open it themselves
(cat, tail -f, grep, an editor). A capped recording keeps the rest of a
stream in STREAM.tail.* segment files beside it.`,
		Example: `  rac out path last
  tail -f "$(rac out path last --stream stdout)"
  grep -n panic "$(rac out path 42 --stream stderr)"`,
	}
	cmd.Flags().StringVar(&c.session, "session", "", "resolve short references in session `S`")
	cmd.Flags().StringVar(&stream, "stream", "", "the data file of this stream: stdout, stderr or combined")
	return cmd
}
