// Package wiring connects rac's settings to what runs: it loads the
// settings (internal/config; Load makes a bad gc.* value of rac run a
// warning) and turns them into the values the application layer takes
// (internal/app: an App's Settings, rac run's request), the one place both
// front-end programs, rac and rac-mcp, build an App from. It also runs the
// commands that work beside an App (shell-init, the harness hooks,
// agent-init) with options from the settings, and says how rac names
// itself and where rac-mcp is, so the command line imports no domain
// package. It is imported by the programs only, never by app or a domain
// package, and never prints.
package wiring

import (
	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/redact"
)

// Settings are s as the services take them; session is the --session flag
// ("" for none) and gcOff turns automatic gc off (a bad gc.* value rac run
// tolerated).
func Settings(s *config.Settings, session string, gcOff bool) app.Settings {
	set := app.Settings{
		Session:        session,
		IDVars:         s.Session.IDVars.V,
		MarkerVars:     s.Session.MarkerVars.V,
		RedactEnabled:  s.Redact.Enabled.V,
		RedactEnvNames: s.Redact.EnvNames.V,
		RedactAllow:    s.Redact.Allow.V,
		RedactArgs:     s.Redact.Args.V,
		MaxBytes:       s.Record.MaxBytes.V,
		HeadBytes:      s.Record.HeadBytes.V,
		Compress:       s.Record.Compress.V,
		StoreWorkdir:   s.Store.Workdir.V,
		GC: app.GCLimits{
			MaxAge: s.GC.MaxAge.V, MaxSessionBytes: s.GC.MaxSessionBytes.V, MaxStoreBytes: s.GC.MaxStoreBytes.V,
			MinFreeBytes: s.GC.MinFreeBytes.V, Interval: s.GC.Interval.V, Off: gcOff,
		},
	}
	for _, r := range s.Redact.Rules.V {
		set.RedactRules = append(set.RedactRules, redact.RuleSpec{Name: r.Name, Prefix: r.Prefix, Pattern: r.Pattern})
	}
	return set
}
