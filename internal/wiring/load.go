package wiring

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
)

// Load reads the settings with o; a bad value is a usage error. For rac
// run (run true) a bad gc.* value is a warning, given to warn, and
// automatic gc (or the free-space guard) is off for the run: a typo in a
// retention setting must not cost the user the command. gcOff is what
// Settings takes.
func Load(o config.Options, run bool, warn func(string)) (s *config.Settings, gcOff bool, err error) {
	if run {
		o.Tolerate = func(key string) bool { return strings.HasPrefix(key, "gc.") }
	}
	s, err = config.Load(o)
	if errors.Is(err, config.ErrInvalid) {
		return nil, false, app.Usage(err)
	} else if err != nil {
		return nil, false, err
	}
	for _, err := range s.Tolerated {
		var ce *config.Error
		if errors.As(err, &ce) && strings.HasSuffix(strings.ToLower(ce.Name), "min_free_bytes") {
			warn(fmt.Sprintf("%v; the free-space guard is off for this run", err))
			s.GC.MinFreeBytes.V = 0
			continue
		}
		warn(fmt.Sprintf("%v; automatic gc is off for this run", err))
		gcOff = true
	}
	return s, gcOff, nil
}
