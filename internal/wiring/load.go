package wiring

import (
	"errors"
	"strings"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
)

// StrictEnv is the variable that makes rac run refuse a config problem
// (as --strict-config does) instead of warning and going on.
const StrictEnv = "RAC_STRICT_CONFIG"

// Load reads the settings with o; a bad value is a usage error. For rac
// run (run true), unless strict, a config problem never costs the user
// the command: a bad value from the file or a variable is one warning and
// the setting's default (for a gc.* value: automatic gc, or the
// free-space guard, is off for the run), and a file rac cannot use (bad
// permissions, not YAML, too big, not a regular file) is one warning and
// the settings without it. A bad flag typed on rac run itself is still a
// usage error. warn gets each problem and what the run does about it.
// gcOff is what Settings takes.
func Load(o config.Options, run, strict bool, warn func(problem error, then string)) (s *config.Settings, gcOff bool, err error) {
	tolerant := run && !strict
	if tolerant {
		o.Tolerate = func(string) bool { return true }
	}
	s, err = config.Load(o)
	var ce *config.Error
	if tolerant && errors.As(err, &ce) && ce.Name == "" && ce.Path != "" {
		// the file as a whole: go on without it
		warn(err, "running with the settings from the environment and the defaults ('rac doctor' checks the settings; --strict-config refuses instead)")
		o.SkipFile = true
		s, err = config.Load(o)
	}
	if errors.Is(err, config.ErrInvalid) {
		return nil, false, app.Usage(err)
	} else if err != nil {
		return nil, false, err
	}
	for _, err := range s.Tolerated {
		var ce *config.Error
		errors.As(err, &ce)
		name := ""
		if ce != nil {
			name = strings.ToLower(ce.Name)
		}
		switch {
		case strings.HasPrefix(name, "--"):
			// typed on this very command line
			return nil, false, app.Usage(err)
		case strings.HasSuffix(name, "min_free_bytes"):
			warn(err, "the free-space guard is off for this run")
			s.GC.MinFreeBytes.V = 0
		case strings.Contains(name, "gc."), strings.Contains(name, "rac_gc_"):
			warn(err, "automatic gc is off for this run")
			gcOff = true
		default:
			warn(err, "using the default for this run ('rac doctor' checks the settings)")
		}
	}
	return s, gcOff, nil
}
