package main

// Completion of references, for the scripts of rac completion: what a
// person may type after rac out read, explain, path and rm.

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

// completeRef completes the one reference of read, explain and path.
func completeRef(c *cli) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return refCompletions(c, cmd, toComplete)
	}
}

// completeRefs completes every reference of rm.
func completeRefs(c *cli) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return refCompletions(c, cmd, toComplete)
	}
}

// refCompletions are the names of the current session (or of --session)
// that start with toComplete; when none does, the qualified references of
// the one session whose name starts so, or SESSION/ of each when several
// do (without a space, so the shell asks again). Short names first: they
// are what a person types in their own session. A store rac cannot read
// completes nothing, silently: the shell shows no error of a completion.
func refCompletions(c *cli, cmd *cobra.Command, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	const dir = cobra.ShellCompDirectiveNoFileComp
	if c.app == nil {
		return nil, dir
	}
	c.app.Warn = func(string) {}
	if sess, _, ok := strings.Cut(toComplete, "/"); ok {
		return refsIn(c, sess, toComplete, true), dir
	}
	session, _ := cmd.Flags().GetString("session") // "" when the command has none
	if out := refsIn(c, session, toComplete, false); len(out) > 0 {
		return out, dir
	}
	sessions := sessionsFrom(c, toComplete)
	switch len(sessions) {
	case 0:
		return nil, dir
	case 1:
		return refsIn(c, sessions[0], toComplete, true), dir
	}
	out := make([]cobra.Completion, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, s+"/")
	}
	return out, dir | cobra.ShellCompDirectiveNoSpace
}

// refsIn are the recordings of session ("" for the current one) whose
// name (or, qualified, SESSION/NAME) starts with prefix, described by
// their outcome and command; "last" leads a short list.
func refsIn(c *cli, session, prefix string, qualified bool) []cobra.Completion {
	res, err := c.app.List(app.Scope{Session: session})
	if err != nil {
		return nil
	}
	var out []cobra.Completion
	for _, e := range res.Entries {
		ref := e.Name
		if qualified {
			ref = e.Ref
		}
		if strings.HasPrefix(ref, prefix) {
			signal := ""
			if e.Signal != nil {
				signal = *e.Signal
			}
			desc := ui.OutcomeShort(e.Status, e.ExitCode, signal) + "  " + ui.Quote(e.Argv)
			out = append(out, cobra.CompletionWithDesc(ref, desc))
		}
	}
	if !qualified && len(res.Entries) > 0 && strings.HasPrefix("last", prefix) {
		out = append([]cobra.Completion{cobra.CompletionWithDesc("last", "the newest recording")}, out...)
	}
	return out
}

// sessionsFrom are the sessions of every store whose name starts with prefix.
func sessionsFrom(c *cli, prefix string) []string {
	stores, err := c.app.Stores()
	if err != nil {
		return nil
	}
	defer stores.Close()
	var out []string
	for _, st := range stores {
		names, _ := st.Sessions()
		for _, n := range names {
			if strings.HasPrefix(n, prefix) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}
