package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newGrepCmd(c *cli) *cobra.Command {
	var req app.GrepRequest
	cmd := &cobra.Command{
		Use:   "grep TEXT [--session S | --all-sessions] [-i] [-C N] [--json] [--decoded]",
		Short: "Search what recorded commands printed",
		Args:  exactArgs(1, "missing text: rac out grep TEXT", "rac out grep takes one TEXT (quote it when it has spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Text = args[0]
			req.Write = ui.GrepWriter(c.streams.OutColors())
			return app.GrepExit(c.app.Grep(cmd.Context(), req, c.streams.Out))
		},
		Long: `Search the current session's recordings, in sequence order, for TEXT as a
literal substring (regex characters are plain text), as a terminal shows
the output (a match inside coloured text is found). Each hit prints as

  SESSION/NAME:LINE:text          (stdout)
  SESSION/NAME:stderr:LINE:text   (stderr)

with the match highlighted on a coloured terminal; with -C N context lines
print as SESSION/NAME-LINE-text, groups separated by "--". LINE is the
stream's line number, as 'rac out read REF --stream S --lines A:B' takes
it. --json prints one object per hit: ref, session, name, stream, line,
text, before and after ([{line, text}]). Exit status: 0 a match, 1 none,
2 any error (an unknown session is an error, not "no match").

--decoded searches only recordings of a headless agent's event stream
(claude -p --output-format stream-json, codex exec --json, gemini
--output-format stream-json), in a decoded view: each line of each
string value of each frame (a tool's input, a tool's result, a message),
without JSON's keys, quotes and escapes, printed as "PATH: text" (PATH the
value's keys joined by dots, like message.content.input.command); LINE
is the frame's line in the stream. A string over 64 KiB is cut with a
suffix saying how many bytes went.`,
		Example: `  rac out grep 'error:'
  rac out grep -i -C 2 "connection refused"
  rac out grep --all-sessions 'ghp_'
  rac out grep --decoded 'No such file'`,
	}
	f := cmd.Flags()
	f.StringVar(&req.Scope.Session, "session", "", "search session `S` instead of the current one")
	f.BoolVar(&req.Scope.All, "all-sessions", false, "search every session")
	f.BoolVarP(&req.IgnoreCase, "ignore-case", "i", false, "ignore ASCII case")
	f.IntVarP(&req.Context, "context", "C", 0, "print `N` lines of context around each hit")
	f.BoolVar(&req.JSON, "json", false, "print one JSON object per hit: ref, stream, line, text, context")
	f.BoolVar(&req.Decoded, "decoded", false, "search agents' transcripts as what their frames say: string values decoded, not JSON")
	cmd.MarkFlagsMutuallyExclusive("session", "all-sessions")
	return cmd
}
