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
	}
}
