package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/record"
)

type pathOptions struct {
	a      *app
	stream string
}

func newPathCmd(a *app) *cobra.Command {
	o := &pathOptions{a: a}
	cmd := &cobra.Command{
		Use:   "path REF [--stream stdout|stderr]",
		Short: "Print the path of a recording or of one stream's data file",
		Long: `Print the folder of a recording, or with --stream the file holding that
stream's bytes exactly as stored, for tools that open it themselves
(cat, tail -f, grep, an editor). A capped recording keeps the rest of a
stream in STREAM.tail.* segment files beside it.`,
		Example: `  rac out path last
  tail -f "$(rac out path last --stream stdout)"
  grep -n panic "$(rac out path 42 --stream stderr)"`,
		Args: exactArgs(1, "missing reference: rac out path REF (run 'rac out list' to see them)"),
		RunE: o.run,
	}
	cmd.Flags().StringVar(&a.sessionFlag, "session", "", "resolve short references in session `S`")
	cmd.Flags().StringVar(&o.stream, "stream", "", "the data file of this stream: stdout or stderr")
	return cmd
}

func (o *pathOptions) run(cmd *cobra.Command, args []string) error {
	if o.stream != "" && o.stream != record.Stdout && o.stream != record.Stderr {
		return usagef("invalid --stream %q: use stdout or stderr", o.stream)
	}
	rec, err := o.a.openRef(args[0])
	if err != nil {
		return err
	}
	defer rec.Close()
	p := rec.Dir()
	if o.stream != "" {
		p = filepath.Join(p, o.stream)
	}
	_, err = fmt.Fprintln(o.a.streams.Out, p)
	return err
}
