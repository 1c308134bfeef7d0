package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/ui"
)

// printError writes err as one "rac:" line, then a hint line when there
// is one; cmdPath is the command that failed ("" for rac). The status is
// app.ExitStatus's.
func (c *cli) printError(err error, cmdPath string) {
	if cmdPath == "" {
		cmdPath = "rac"
	}
	var ce app.ExitCode
	if errors.As(err, &ce) && ce.Err == nil {
		return
	}
	c.p.Error(err, ui.Hint(err, cmdPath, app.IsUsage(err)))
}

// flagError turns pflag's parse errors into usage errors in rac's words:
// no strconv or time internals in a message.
func flagError(_ *cobra.Command, err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return app.Usage(err)
	}
	f, val := iv.GetFlag(), iv.GetValue()
	want := "see --help"
	switch f.Value.Type() {
	case "int", "int64", "uint", "uint64":
		want = "use a whole number"
	case "bool":
		want = "use true or false"
	}
	return app.Usagef("invalid --%s %q: %s", f.Name, val, want)
}

// cobraUsage turns cobra's own usage errors (unknown command, flags that
// exclude each other) into usage errors, in rac's words.
func cobraUsage(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "unknown command"):
		// cobra adds "\n\nDid you mean this?\n\tNAME\n": keep it on the line
		if head, sugg, ok := strings.Cut(msg, "\n\nDid you mean this?\n"); ok {
			return app.Usagef("%s (did you mean %s?)", head, strings.Join(strings.Fields(sugg), " or "))
		}
		return app.Usage(err)
	case strings.HasPrefix(msg, "accepts ") && strings.Contains(msg, " arg(s), received "),
		strings.HasPrefix(msg, "requires at least ") && strings.Contains(msg, " arg(s), only received "):
		// cobra's own argument count checks (cobra.ExactArgs and
		// friends): a usage error like every other
		return app.Usagef("wrong number of arguments: %s", strings.Replace(msg, " arg(s)", "", 1))
	case strings.HasPrefix(msg, "if any flags in the group"):
		// "... [head tail lines] are set none of the others can be; [head tail] were all set"
		if i := strings.LastIndex(msg, "; ["); i >= 0 {
			names := strings.Fields(strings.Trim(strings.TrimSuffix(msg[i+2:], " were all set"), "[]"))
			for j, n := range names {
				names[j] = "--" + n
			}
			return app.Usagef("%s cannot be used together", strings.Join(names, " and "))
		}
		return app.Usage(err)
	}
	return err
}
