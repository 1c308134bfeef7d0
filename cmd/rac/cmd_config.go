package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

func newConfigCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "config [KEY] [--json]",
		Short: "Print every effective setting and where it came from",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			v := ui.ConfigViewOf(c.settings)
			if len(args) == 1 {
				for _, s := range v.Settings {
					if s.Key == args[0] {
						_, err := fmt.Fprintln(c.streams.Out, s.Value)
						return err
					}
				}
				return app.Usagef("unknown setting %q: 'rac config' lists them", args[0])
			}
			if asJSON {
				return ui.JSON(c.streams.Out, v)
			}
			return ui.ConfigTable(c.streams.Out, c.streams.OutColors(), c.streams.TerminalWidth(), v)
		},
		Long: `Print the config file's path (and whether it was read), then every setting:
its key, where its value came from (a flag, a RAC_* variable, the file, or
the default) and the value, in the syntax the file takes. With KEY, print
only that setting's value. A flag wins over the variable, the variable over
the file, the file over the default; the file is
$XDG_CONFIG_HOME/rac/config.yaml, else ~/.config/rac/config.yaml, a YAML
mapping of sections (run:, gc:, ...) to keys. A bad value is an error
naming where it came from; an unknown key of the file is a warning.`,
		Example: `  rac config
  rac config gc.max_age
  rac config --json`,
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: file, file_read and every setting with its source")
	return cmd
}
