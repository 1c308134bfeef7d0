package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/wiring"
)

func newAgentInitCmd(c *cli) *cobra.Command {
	var o wiring.AgentInitOptions
	cmd := &cobra.Command{
		Use:       "agent-init claude|codex|gemini|agents-md|claude-md|gemini-md [--project|--user] [--print] [--remove] [--rewrite|--mcp]",
		Short:     "Turn rac on for an agent harness",
		Args:      cobra.ExactArgs(1),
		ValidArgs: wiring.AgentTargets,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Target = args[0]
			res, err := wiring.AgentInit(o, c.env.Getenv)
			if err != nil {
				return err
			}
			if o.Print {
				_, err = c.streams.Out.Write(res.Text)
				return err
			}
			c.p.Infof("%s", res.Summary())
			for _, n := range res.Notes {
				c.p.Hintf("%s", n)
			}
			return nil
		},
		Long: `Install rac's route into a harness's settings file, keeping every other key
and hook (the file as it was is kept in FILE.rac-backup, in a git tree in
.git/rac-backup/; a file rac cannot parse is refused). claude: a SessionStart hook that records the wrapped
programs without changing the command text (--rewrite adds the PreToolUse
rewrite); codex: a PreToolUse hook in hooks.json; gemini: a BeforeTool hook.
agents-md, claude-md and gemini-md add a short instructions block.
--mcp registers rac-mcp, by its absolute path, as the MCP server "rac"
instead: claude in ~/.claude.json (--project: .mcp.json), codex in
config.toml ([mcp_servers.rac]), gemini in settings.json.
--remove takes out exactly what was added.`,
		Example: `  rac agent-init claude
  rac agent-init claude --mcp --project
  rac agent-init codex --print
  rac agent-init gemini --remove`,
	}
	f := cmd.Flags()
	f.BoolVar(&o.Project, "project", false, "the project's file (default for the -md targets)")
	f.BoolVar(&o.User, "user", false, "the user's file (default for claude, codex and gemini)")
	f.BoolVar(&o.Print, "print", false, "print the file as it would become; change nothing")
	f.BoolVar(&o.Remove, "remove", false, "take rac's route out again")
	f.BoolVar(&o.Rewrite, "rewrite", false, "claude: also the PreToolUse hook that rewrites allowed commands")
	f.BoolVar(&o.MCP, "mcp", false, "register rac-mcp as the harness's MCP server instead of the hooks")
	return cmd
}
