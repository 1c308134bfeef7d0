package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/appconfig"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/ui"
)

// setup reads the settings (flags the user set win over variables, the
// config file and the defaults) and builds the application layer for the
// command that runs.
func (c *cli) setup(cmd *cobra.Command) error {
	flags := flagValues(cmd)
	if cmd.Name() == "run" && cmd.Flags().Changed("quiet") {
		flags["run.announce"] = string(config.AnnounceNone)
	}
	s, gcOff, err := c.load(cmd, flags)
	if err != nil {
		if errors.Is(err, config.ErrInvalid) {
			return app.Usage(err)
		}
		return err
	}
	c.settings = s
	mode, _ := ui.ParseColorMode(string(s.Color.V)) // config checked the value
	c.streams.SetColorMode(mode, c.env.Getenv)
	for _, w := range s.Warnings {
		c.p.Warnf("%s", w.String())
	}
	set := appconfig.Settings(s, c.session, gcOff)
	c.app = app.New(c.env, set)
	c.app.Warn = func(msg string) { c.p.Warnf("%s", msg) }
	c.app.Note = func(msg string) { c.p.Infof("%s", msg) }
	return nil
}

// load reads the settings. For rac run a bad gc.* value is a warning and
// automatic gc (or the free-space guard) is off for the run: a typo in a
// retention setting must not cost the user the command.
func (c *cli) load(cmd *cobra.Command, flags map[string]string) (*config.Settings, bool, error) {
	opts := config.Options{Getenv: c.env.Getenv, Flags: flags}
	if cmd.Name() == "run" {
		opts.Tolerate = func(key string) bool { return strings.HasPrefix(key, "gc.") }
	}
	s, err := config.Load(opts)
	if err != nil {
		return nil, false, err
	}
	gcOff := false
	for _, err := range s.Tolerated {
		var ce *config.Error
		if errors.As(err, &ce) && strings.HasSuffix(strings.ToLower(ce.Name), "min_free_bytes") {
			c.p.Warnf("%v; the free-space guard is off for this run", err)
			s.GC.MinFreeBytes.V = 0
			continue
		}
		c.p.Warnf("%v; automatic gc is off for this run", err)
		gcOff = true
	}
	return s, gcOff, nil
}
