package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/appconfig"
	"github.com/rac-cli/rac/internal/shellinit"
)

func newShellInitCmd(c *cli) *cobra.Command {
	var sessionName string
	var agent bool
	cmd := &cobra.Command{
		Use:       "shell-init bash|zsh|fish [--session NAME] [--agent]",
		Short:     "Print shell code that records git and kubectl typed at the prompt",
		Args:      cobra.ExactArgs(1),
		ValidArgs: shellinit.Shells,
		RunE: func(_ *cobra.Command, args []string) error {
			s, err := shellinit.Script(appconfig.ShellInit(c.settings, c.env.Getenv, args[0], sessionName, agent))
			if errors.Is(err, shellinit.ErrUsage) {
				return app.Usage(err)
			}
			if err != nil {
				return err
			}
			_, err = io.WriteString(c.streams.Out, s)
			return err
		},
	}
	cmd.Flags().StringVar(&sessionName, "session", "", "export RAC_SESSION=`NAME` (default user-$USER, unless RAC_SESSION is set)")
	cmd.Flags().BoolVar(&agent, "agent", false, "for an agent's non-interactive bash: record every call of hook.wrap's commands")
	return cmd
}

// runClaudeSessionHook is rac hook claude-session, Claude Code's
// SessionStart hook (cmd_hook.go's subcommand calls it). It prints
// nothing on stdout (that would become the model's context) and always
// exits 0: a problem is one line on stderr.
func (c *cli) runClaudeSessionHook() error {
	h, err := appconfig.ClaudeHook(c.settings, c.env, c.streams.In)
	if err == nil {
		err = shellinit.ClaudeSessionHook(h)
	}
	if err != nil {
		c.p.Warnf("%s", err)
	}
	return nil
}
