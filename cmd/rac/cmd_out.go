package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
)

func newOutCmd(c *cli) *cobra.Command {
	cmd := &cobra.Command{
		Use:  "out",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return app.Usagef("missing subcommand: rac out list|read|last|grep|explain|path|gc|rm|purge")
			}
			return app.Usagef("unknown command %q for rac out: use list, read, last, grep, explain, path, gc, rm or purge", args[0])
		},
		Short: "Read what recorded commands printed",
		Long: `List, read, search and explain recordings without running anything again.
Short references (42, 0042-git-p, last) resolve in the current session only;
SESSION/NAME, as printed by rac run, resolves from any shell.
Exit status: 0 ok, 1 not found or expired, 2 usage error or an invalid or
ambiguous reference.`,
		Example: `  rac out list
  rac out last --tail 80
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push`,
	}
	last := newReadCmd(c, "last")
	last.Short = "Print what the newest recording printed (rac out read with no REF)"
	cmd.AddCommand(newListCmd(c), newReadCmd(c, "read [REF]"), last, newGrepCmd(c), newExplainCmd(c),
		newPathCmd(c), newGCCmd(c), newRmCmd(c), newPurgeCmd(c))
	return cmd
}

// exactArgs wants n arguments; msg says what is missing (or, for too
// many, what the command takes).
func exactArgs(n int, missing, usage string) cobra.PositionalArgs {
	return argsBetween(n, n, missing, usage)
}

func argsBetween(lo, hi int, missing, usage string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch {
		case len(args) < lo:
			return app.Usagef("%s", missing)
		case len(args) > hi:
			return app.Usagef("too many arguments: %s", usage)
		}
		return nil
	}
}
