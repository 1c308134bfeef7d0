package main

// Completion of references, for the scripts of rac completion: what a
// person may type after rac out read, explain, path and rm.

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/ui"
)

// completeRef completes the one reference of read, explain and path.
func (c *cli) completeRef(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return c.completeRefs(cmd, args, toComplete)
}

// completeRefs completes every reference of rm: the names of the current
// session (or of --session) that start with toComplete; when none does,
// the qualified references of the one session whose name starts so, or
// SESSION/ of each when several do (without a space, so the shell asks
// again). Short names first: they are what a person types in their own
// session. A store rac cannot read completes nothing, silently: the shell
// shows no error of a completion.
func (c *cli) completeRefs(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	const dir = cobra.ShellCompDirectiveNoFileComp
	if c.app == nil {
		return nil, dir
	}
	c.app.Warn = func(string) {}
	if sess, _, ok := strings.Cut(toComplete, "/"); ok {
		return refsIn(cmd, c, sess, toComplete, true), dir
	}
	session, _ := cmd.Flags().GetString("session") // "" when the command has none
	if out := refsIn(cmd, c, session, toComplete, false); len(out) > 0 {
		return out, dir
	}
	sessions := c.app.SessionsStarting(toComplete)
	switch len(sessions) {
	case 0:
		return nil, dir
	case 1:
		return refsIn(cmd, c, sessions[0], toComplete, true), dir
	}
	out := make([]cobra.Completion, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, s+"/")
	}
	return out, dir | cobra.ShellCompDirectiveNoSpace
}

// refsIn are the recordings of session ("" for the current one) whose
// name (or, qualified, SESSION/NAME) starts with prefix, described by
// their outcome and command.
func refsIn(cmd *cobra.Command, c *cli, session, prefix string, qualified bool) []cobra.Completion {
	ctx := cmd.Context() // nil when cobra completes outside Execute
	if ctx == nil {
		ctx = context.Background()
	}
	var out []cobra.Completion
	for _, k := range c.app.Candidates(ctx, session, prefix, qualified) {
		desc := "the newest recording"
		if e := k.Entry; e != nil {
			desc = ui.OutcomeShort(e.Status, e.ExitCode, deref(e.Signal)) + "  " + ui.Quote(e.Argv)
		}
		out = append(out, cobra.CompletionWithDesc(k.Ref, desc))
	}
	return out
}
