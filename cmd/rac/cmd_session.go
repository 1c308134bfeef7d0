package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

type sessionOptions struct {
	a       *app
	explain bool
}

func newSessionCmd(a *app) *cobra.Command {
	o := &sessionOptions{a: a}
	cmd := &cobra.Command{
		Use:   "session [--explain]",
		Short: "Print the current session's name",
		Long: `Print the name of the session this shell records into and reads short
references from. --explain says which rule chose it and what was seen.`,
		Example: `  rac session
  rac session --explain
  RAC_SESSION=my-task rac session`,
		Args: cobra.NoArgs,
		RunE: o.run,
	}
	cmd.Flags().StringVar(&a.sessionFlag, "session", "", "use session `NAME`")
	cmd.Flags().BoolVar(&o.explain, "explain", false, "say which rule chose the session and why")
	return cmd
}

func (o *sessionOptions) run(cmd *cobra.Command, _ []string) error {
	id, err := o.a.identify()
	if err != nil {
		return err
	}
	fmt.Fprintln(o.a.streams.Out, id.Name)
	if o.explain {
		fmt.Fprintf(o.a.streams.Out, "rule: %s (source %s)\n", id.Rule, id.Source)
		for _, r := range id.Report {
			mark := " "
			if r.Taken {
				mark = "*"
			}
			fmt.Fprintf(o.a.streams.Out, "%s %s: %s\n", mark, r.Rule, escapeControl(r.Why))
		}
	}
	return nil
}
