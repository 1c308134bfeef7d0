package main

import (
	"strings"
)

// stringRedactor redacts strings rac prints or stores about a recording.
type stringRedactor interface{ String(string) string }

// envRedactor replaces values of secret-named variables of rac's own
// environment (the floor until the full redactor is wired in).
type envRedactor struct{ pairs []string }

func (e envRedactor) String(s string) string {
	if len(e.pairs) == 0 {
		return s
	}
	return strings.NewReplacer(e.pairs...).Replace(s)
}

// redactor builds the redactor from rac's environment and config.
func (a *app) redactor() (stringRedactor, error) {
	return envRedactor{}, nil
}
