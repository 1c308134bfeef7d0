package ui

import (
	"fmt"
	"io"

	"github.com/rac-cli/rac/internal/config"
)

// ConfigView is the stable shape of rac config --json. Values are in the
// syntax a user writes (7d, 256MiB, git,kubectl), so that they read back.
type ConfigView struct {
	File     string          `json:"file"`      // "" when neither XDG_CONFIG_HOME nor HOME says where
	FileRead bool            `json:"file_read"` // the file existed and was read
	Settings []ConfigSetting `json:"settings"`
}

type ConfigSetting struct {
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

// ConfigViewOf is the settings as rac config shows them.
func ConfigViewOf(s *config.Settings) ConfigView {
	v := ConfigView{File: s.File, FileRead: s.FileRead, Settings: []ConfigSetting{}}
	for _, e := range s.All() {
		d := e.Def
		v.Settings = append(v.Settings, ConfigSetting{Key: d.Key, Value: e.Value, Source: e.Source.String(), From: e.From,
			Env: d.Env, Flag: d.FlagName(), Default: d.Default, Kind: d.Kind.String(), Help: d.Help})
	}
	return v
}

// ConfigTable prints the file line and a KEY SOURCE VALUE table; defaults
// are dim, so what someone set stands out.
func ConfigTable(w io.Writer, pal *Palette, width int, v ConfigView) error {
	file := "config file: none (neither XDG_CONFIG_HOME nor HOME is set)"
	if v.File != "" {
		file = "config file: " + Quote([]string{v.File}) + " (not found)"
		if v.FileRead {
			file = "config file: " + Quote([]string{v.File}) + " (read)"
		}
	}
	fmt.Fprintln(w, file)
	t := NewTable(w, width, Column{Header: "KEY"}, Column{Header: "SOURCE"},
		Column{Header: "VALUE", Cut: true})
	t.HeaderStyle = pal.Bold
	for _, s := range v.Settings {
		src, style := s.Source, pal.Dim
		switch s.Source {
		case "env", "flag":
			src, style = s.Source+" "+s.From, Style{}
		case "file":
			style = Style{}
		}
		t.Row(Plain(s.Key), style.Cell(src), style.Cell(s.Value))
	}
	return t.Render()
}
