package main

import (
	"github.com/spf13/cobra"
)

func newOutCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:  "out",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("missing subcommand: rac out list|read|grep|explain|path|gc|rm|purge")
			}
			return usagef("unknown command %q for rac out: use list, read, grep, explain, path, gc, rm or purge", args[0])
		},
		Short: "Read what recorded commands printed",
		Long: `List, read, search and explain recordings without running anything again.
Short references (42, 0042-git-p, last) resolve in the current session only;
SESSION/NAME, as printed by rac run, resolves from any shell.
Exit status: 0 ok, 1 not found or expired, 2 usage error or an invalid or
ambiguous reference.`,
		Example: `  rac out list
  rac out read last --tail 80
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push`,
	}
	cmd.AddCommand(newListCmd(a), newReadCmd(a), newGrepCmd(a), newExplainCmd(a), newPathCmd(a))
	cmd.AddCommand(newRetentionCmds(a)...)
	return cmd
}
