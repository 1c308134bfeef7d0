package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/ui"
)

// configView is the stable shape of rac config --json. Values are in the
// syntax a user writes (7d, 256MiB, git,kubectl), so that they read back.
type configView struct {
	File     string          `json:"file"`      // "" when neither XDG_CONFIG_HOME nor HOME says where
	FileRead bool            `json:"file_read"` // the file existed and was read
	Settings []configSetting `json:"settings"`
}

type configSetting struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Source  string `json:"source"` // flag, env, file or default
	From    string `json:"from"`   // --color, RAC_RUN_TIMEOUT, "gc.max_age in PATH", default
	Env     string `json:"env"`
	Flag    string `json:"flag"`
	Default string `json:"default"`
	Kind    string `json:"kind"`
	Help    string `json:"help"`
}

func newConfigCmd(c *cli) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "config [KEY] [--json]",
		Short: "Print every effective setting and where it came from",
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
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			v := viewOfConfig(c.settings)
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
				enc := json.NewEncoder(c.streams.Out)
				enc.SetIndent("", "  ")
				return enc.Encode(v)
			}
			return writeConfig(c, v)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object: file, file_read and every setting with its source")
	return cmd
}

func viewOfConfig(s *config.Settings) configView {
	v := configView{File: s.File, FileRead: s.FileRead, Settings: []configSetting{}}
	for _, e := range s.All() {
		d := e.Def
		v.Settings = append(v.Settings, configSetting{Key: d.Key, Value: e.Value, Source: e.Source.String(), From: e.From,
			Env: d.Env, Flag: d.FlagName(), Default: d.Default, Kind: d.Kind.String(), Help: d.Help})
	}
	return v
}

// writeConfig prints the file line and a KEY SOURCE VALUE table; defaults
// are dim, so what someone set stands out.
func writeConfig(c *cli, v configView) error {
	file := "config file: none (neither XDG_CONFIG_HOME nor HOME is set)"
	if v.File != "" {
		file = "config file: " + ui.Quote([]string{v.File}) + " (not found)"
		if v.FileRead {
			file = "config file: " + ui.Quote([]string{v.File}) + " (read)"
		}
	}
	fmt.Fprintln(c.streams.Out, file)
	pal := c.streams.OutColors()
	t := ui.NewTable(c.streams.Out, c.streams.TerminalWidth(), ui.Column{Header: "KEY"}, ui.Column{Header: "SOURCE"},
		ui.Column{Header: "VALUE", Cut: true})
	t.HeaderStyle = pal.Bold
	for _, s := range v.Settings {
		src, style := s.Source, pal.Dim
		switch s.Source {
		case "env", "flag":
			src, style = s.Source+" "+s.From, ui.Style{}
		case "file":
			style = ui.Style{}
		}
		t.Row(ui.Plain(s.Key), style.Cell(src), style.Cell(s.Value))
	}
	return t.Render()
}
