package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
)

// setup reads the settings (flags the user set win) and builds the
// application layer for the command that runs.
func (c *cli) setup(cmd *cobra.Command) error {
	cfg, err := loadConfig(c.env.Getenv)
	if err != nil {
		return err
	}
	c.cfg = cfg
	for _, k := range cfg.unknown {
		fmt.Fprintf(c.streams.Err, "rac: warning: unknown setting %q in %s (README lists the settings)\n", k, cfg.path)
	}
	if err := cfg.applyToFlags(cmd); err != nil {
		return err
	}
	set := app.Settings{
		Session:        c.session,
		IDVars:         cfg.list("session.id_vars"),
		MarkerVars:     cfg.list("session.marker_vars"),
		RedactEnvNames: cfg.list("redact.env_names"),
		RedactAllow:    cfg.list("redact.allow"),
	}
	if set.RedactRules, err = cfg.ruleSpecs("redact.rules"); err != nil {
		return err
	}
	v, from := cfg.value("redact.enabled")
	if set.RedactEnabled, err = strconv.ParseBool(v); err != nil {
		return app.Usagef("%s: invalid value %q: use true or false", from, v)
	}
	if f := cmd.Flags().Lookup("no-redact"); f != nil && f.Changed {
		set.RedactEnabled = f.Value.String() != "true"
	}
	if set.MaxBytes, err = cfg.sizeSetting("record.max_bytes"); err != nil {
		return err
	}
	if set.HeadBytes, err = cfg.sizeSetting("record.head_bytes"); err != nil {
		return err
	}
	if err := c.gcSettings(cmd, &set.GC); err != nil {
		return err
	}
	c.app = app.New(c.env, set)
	c.app.Warn = func(msg string) { fmt.Fprintf(c.streams.Err, "rac: warning: %s\n", escapeControl(msg)) }
	c.app.Note = func(msg string) { fmt.Fprintf(c.streams.Err, "rac: %s\n", escapeControl(msg)) }
	return nil
}

// gcSettings reads the gc.* limits. For rac run a bad one is a warning and
// automatic gc (or the free-space guard) is off for the run: a typo in a
// retention setting must not cost the user the command.
func (c *cli) gcSettings(cmd *cobra.Command, g *app.GCLimits) error {
	var errs []error
	var err error
	if g.MaxAge, err = c.cfg.ageSetting("gc.max_age"); err != nil {
		errs = append(errs, err)
	}
	if g.MaxSessionBytes, err = c.cfg.sizeSetting("gc.max_session_bytes"); err != nil {
		errs = append(errs, err)
	}
	if g.MaxStoreBytes, err = c.cfg.sizeSetting("gc.max_store_bytes"); err != nil {
		errs = append(errs, err)
	}
	if g.Interval, err = c.cfg.ageSetting("gc.interval"); err != nil {
		errs = append(errs, err)
	}
	minFree, minErr := c.cfg.sizeSetting("gc.min_free_bytes")
	g.MinFreeBytes = minFree
	isRun := cmd.Name() == "run"
	if !isRun {
		if len(errs) > 0 {
			return errs[0]
		}
		return minErr
	}
	if len(errs) > 0 {
		g.Off = true
		fmt.Fprintf(c.streams.Err, "rac: warning: %s; automatic gc is off for this run\n", escapeControl(app.FirstLine(errs[0])))
	}
	if minErr != nil {
		g.MinFreeBytes = 0
		fmt.Fprintf(c.streams.Err, "rac: warning: %s; the free-space guard is off for this run\n", escapeControl(app.FirstLine(minErr)))
	}
	return nil
}
