package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/ui"
)

func newExplainCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:               "explain REF [--json]",
		Short:             "Say what failed, in a few lines",
		Args:              exactArgs(1, "missing reference: rac out explain REF (run 'rac out list' to see them)", "rac out explain takes one reference"),
		ValidArgsFunction: c.completeRef,
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := c.app.Explain(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return ui.ExplainJSON(c.streams.Out, rep)
			}
			return ui.Explain(c.streams.Out, c.streams.OutColors(), rep)
		},
	}
	cmd.Flags().StringVar(&c.session, "session", "", "resolve short references in session `S`")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object of at most 8 KiB")
	return cmd
}

func newPathCmd(c *cli) *cobra.Command {
	var stream string
	cmd := &cobra.Command{
		Use:               "path REF [--stream stdout|stderr|combined]",
		Short:             "Print the path of a recording or of one stream's data file",
		Args:              exactArgs(1, "missing reference: rac out path REF (run 'rac out list' to see them)", "rac out path takes one reference"),
		ValidArgsFunction: c.completeRef,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := c.app.Path(cmd.Context(), args[0], stream)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.streams.Out, p)
			return err
		},
	}
	cmd.Flags().StringVar(&c.session, "session", "", "resolve short references in session `S`")
	cmd.Flags().StringVar(&stream, "stream", "", "the data file of this stream: stdout, stderr or combined")
	return cmd
}
