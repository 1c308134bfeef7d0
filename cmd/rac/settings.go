package main

import (
	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/wiring"
)

// setup reads the settings (flags the user set win over variables, the
// config file and the defaults) and builds the application layer for the
// command that runs.
func (c *cli) setup(cmd *cobra.Command) error {
	flags := flagValues(cmd)
	if cmd.Name() == "run" && cmd.Flags().Changed("quiet") {
		flags["run.announce"] = "none" // --quiet is --announce none
	}
	warn := func(msg string) { c.p.Warnf("%s", msg) }
	isRun := cmd.Name() == "run"
	strict := isRun && (c.env.Getenv(wiring.StrictEnv) == "1" || cmd.Flags().Changed("strict-config"))
	// rac doctor reads the settings as rac run does, and reports each
	// problem as a failed check instead of stopping at it
	loadWarn := func(problem error, then string) { c.p.Warnf("%v; %s", problem, then) }
	isDoctor := cmd.Name() == "doctor"
	if isDoctor {
		loadWarn = func(problem error, _ string) { c.configProblems = append(c.configProblems, problem.Error()) }
	}
	// rac record, like rac run, never loses a stream to a bad setting
	lenient := isRun || isDoctor || cmd.Name() == "record"
	s, gcOff, err := wiring.Load(config.Options{Getenv: c.env.Getenv, Flags: flags}, lenient, strict, loadWarn)
	if err != nil {
		return err
	}
	c.settings = s
	c.streams.SetColorMode(s.Color.V, c.env.Getenv)
	for _, w := range s.Warnings {
		c.p.Warnf("%s", w.String())
	}
	set := wiring.Settings(s, c.session, gcOff)
	set.StrictConfig = strict
	c.app = app.New(c.env, set)
	c.app.Warn = warn
	c.app.Note = func(msg string) { c.p.Infof("%s", msg) }
	return nil
}
