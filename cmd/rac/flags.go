package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rac-cli/rac/internal/config"
)

// bindSettings adds to fs the flags of the settings named by key, with
// help and default from the settings table. Flags hold raw text:
// internal/config parses every value, so a bad one gets the same message
// from a flag, a variable or the file.
func bindSettings(f *pflag.FlagSet, keys ...string) {
	byKey := map[string]config.Def{}
	for _, d := range config.Defs() {
		byKey[d.Key] = d
	}
	for _, k := range keys {
		d := byKey[k]
		if d.Kind == config.Bool {
			f.Bool(d.Flag, false, d.Help)
		} else {
			f.String(d.Flag, d.Default, d.Help)
		}
	}
}

// flagValues are the raw values of the setting flags the user set, by key
// (what config.Load takes).
func flagValues(cmd *cobra.Command) map[string]string {
	out := map[string]string{}
	for _, d := range config.Defs() {
		if d.Flag == "" {
			continue
		}
		if f := cmd.Flags().Lookup(d.Flag); f != nil && f.Changed {
			out[d.Key] = f.Value.String()
		}
	}
	return out
}
