// Package appconfig turns the settings as read (internal/config) into the
// values the application layer takes (internal/app): the one place both
// front-end programs, rac and rac-mcp, build an App from.
package appconfig

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
