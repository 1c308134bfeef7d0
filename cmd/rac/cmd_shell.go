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
		Long: `Print code for your shell's start-up file that runs the commands of
shell.wrap (default git and kubectl) through rac run when you type them at
the prompt with their output on the terminal. Nothing else records: not
your prompt's git calls (__git_ps1, vcs_info), not Tab completion, not
$(git ...), not a pipe (git log | less), not scripts. A successful command
prints exactly what it prints without rac; a failed one ends with its
rac: ref line. 'command git' or RAC_DISABLE=1 runs git without rac.
It exports RAC_SESSION (--session NAME, else user-$USER unless RAC_SESSION
is already set), so all your terminals share one session: 'rac out read
last' in one shows what the other just ran.
--agent (bash only) is for an agent's non-interactive shell: every call of
hook.wrap's commands records, with no prompt or terminal check.`,
		Example: `  eval "$(rac shell-init bash)"        # last line of ~/.bashrc
  eval "$(rac shell-init zsh)"         # last line of ~/.zshrc
  rac shell-init fish | source         # in ~/.config/fish/config.fish
  eval "$(rac shell-init bash --session work)"`,
	}
	cmd.Flags().StringVar(&sessionName, "session", "", "export RAC_SESSION=`NAME` (default user-$USER, unless RAC_SESSION is set)")
	cmd.Flags().BoolVar(&agent, "agent", false, "for an agent's non-interactive bash: record every call of hook.wrap's commands")
	return cmd
}
