package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/wiring"
)

func newShellInitCmd(c *cli) *cobra.Command {
	var sessionName string
	var agent bool
	cmd := &cobra.Command{
		Use:       "shell-init bash|zsh|fish [--session NAME] [--agent]",
		Short:     "Print shell code that records git and kubectl typed at the prompt",
		Args:      cobra.ExactArgs(1),
		ValidArgs: wiring.Shells,
		RunE: func(_ *cobra.Command, args []string) error {
			s, err := wiring.ShellInitScript(c.settings, c.env.Getenv, args[0], sessionName, agent)
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
