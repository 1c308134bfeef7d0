package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
)

// newCompletionCmd is built here rather than by cobra (root.go turns the
// default one off) so that it has rac's help, usage errors and examples.
func newCompletionCmd(c *cli) *cobra.Command {
	return &cobra.Command{
		Use:       "completion bash|zsh|fish|powershell",
		Short:     "Print a shell completion script",
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args:      exactArgs(1, "missing shell: rac completion bash|zsh|fish|powershell", "rac completion takes one shell"),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), c.streams.Out
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, true)
			case "zsh":
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(out)
			}
			return app.Usagef("unknown shell %q: use bash, zsh, fish or powershell", args[0])
		},
		Long: `Print the script that makes the shell complete rac's commands, flags and
references: Tab after 'rac out read ' lists the current session's
recordings, and a session's name followed by / lists that session's.
Load it from the shell's start-up file:

    # ~/.bashrc (needs the bash-completion package)
    source <(rac completion bash)
    # ~/.zshrc, after compinit
    source <(rac completion zsh)
    # ~/.config/fish/config.fish
    rac completion fish | source
    # $PROFILE
    rac completion powershell | Out-String | Invoke-Expression

or write it once where the shell looks for completions (the examples).
Completing runs rac, which reads the store and never records anything.`,
		Example: `  rac completion bash > ~/.local/share/bash-completion/completions/rac
  rac completion zsh > "${fpath[1]}/_rac"
  rac completion fish > ~/.config/fish/completions/rac.fish
  rac completion powershell >> $PROFILE`,
	}
}
