package main

import (
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/rac-cli/rac/internal/redact"
)

// stringRedactor redacts strings rac prints or stores about a recording.
type stringRedactor interface{ String(string) string }

// redactor builds (once) the redactor from rac's environment and the
// config file (redact.env_names, redact.rules, redact.allow). A rule that
// does not compile is a usage error naming it, never a weaker redactor.
func (a *app) redactor() (*redact.Redactor, error) {
	if a.red != nil {
		return a.red, nil
	}
	cfg := redact.Config{Environ: a.environ()}
	if a.cfg != nil {
		cfg.EnvNames = a.cfg.list("redact.env_names")
		cfg.Allow = a.cfg.list("redact.allow")
		rules, err := a.cfg.ruleSpecs("redact.rules")
		if err != nil {
			return nil, err
		}
		cfg.Rules = rules
	}
	r, err := redact.New(cfg)
	if err != nil {
		return nil, usageError{err}
	}
	a.red = r
	return r, nil
}

// redactEnabled reads redact.enabled (RAC_REDACT_ENABLED); --no-redact wins.
func (a *app) redactEnabled(noRedactFlag bool, flagSet bool) (bool, error) {
	if flagSet {
		return !noRedactFlag, nil
	}
	v, from := a.cfg.value("redact.enabled")
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, usagef("%s: invalid value %q: use true or false", from, v)
	}
	return on, nil
}

// ruleSpecs reads a list of {name, prefix, pattern} maps from the config.
func (c *config) ruleSpecs(key string) ([]redact.RuleSpec, error) {
	v, set := c.file[key]
	if !set {
		return nil, nil
	}
	raw, ok := v.([]any)
	if !ok {
		return nil, usagef("%s in %s: want a list of {name, prefix, pattern}", key, c.path)
	}
	var out []redact.RuleSpec
	for i, e := range raw {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, usagef("%s[%d] in %s: want {name, prefix, pattern}", key, i, c.path)
		}
		str := func(k string) string {
			if v, ok := m[k]; ok {
				return fmt.Sprint(v)
			}
			return ""
		}
		out = append(out, redact.RuleSpec{Name: str("name"), Prefix: str("prefix"), Pattern: str("pattern")})
	}
	return out, nil
}

// streamRedactors makes one redacting writer per stream and sums their
// counts for the footer.
type streamRedactors struct {
	red *redact.Redactor
	mu  sync.Mutex
	ws  []*redact.Writer
}

func (s *streamRedactors) filter(_ string, sink io.Writer) io.WriteCloser {
	w := s.red.NewWriter(sink)
	s.mu.Lock()
	s.ws = append(s.ws, w)
	s.mu.Unlock()
	return w
}

func (s *streamRedactors) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out map[string]int
	for _, w := range s.ws {
		for k, n := range w.Counts() {
			if out == nil {
				out = map[string]int{}
			}
			out[k] += n
		}
	}
	return out
}
