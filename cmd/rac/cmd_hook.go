package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/wiring"
)

// newHookCmd answers an agent harness's hook. It never fails the
// harness's call: a bad config, a bad argument or a malformed input gets
// one line on stderr, nothing on stdout and status 0 (2 would block the
// call, a JSON allow would grant one).
func newHookCmd(c *cli) *cobra.Command {
	ready := false
	return &cobra.Command{
		Use:                "hook claude|codex|gemini|claude-session",
		Short:              "Answer an agent harness's hook (installed by rac agent-init; not for people)",
		Hidden:             true,
		Args:               cobra.ArbitraryArgs,
		DisableFlagParsing: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if err := c.setup(cmd); err != nil {
				c.p.Errorf("hook: %v", err)
				return nil
			}
			ready = true
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			switch {
			case !ready:
			case len(args) == 1 && args[0] == "claude-session":
				return c.runClaudeSessionHook()
			case len(args) != 1:
				c.p.Errorf("hook: want one of claude, codex, gemini, claude-session")
			default:
				if err := wiring.AnswerHook(c.settings, c.env.Getenv, args[0], c.streams.In, c.streams.Out); err != nil {
					c.p.Errorf("hook %s: %v (answered nothing)", args[0], err)
				}
			}
			return nil
		},
		Long: `Reads a tool call from stdin and answers with the same call with its command
wrapped in 'rac run --', when the harness would run the original anyway; else
answers nothing.`,
	}
}

// runClaudeSessionHook is rac hook claude-session, Claude Code's
// SessionStart hook. It prints nothing on stdout (that would become the
// model's context) and always exits 0: a problem is one line on stderr.
func (c *cli) runClaudeSessionHook() error {
	if err := wiring.ClaudeSessionHook(c.settings, c.env, c.streams.In); err != nil {
		c.p.Warnf("%s", err)
	}
	return nil
}
