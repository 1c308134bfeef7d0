package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/redact"
	"github.com/rac-cli/rac/internal/store"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// app is what every command needs from the outside world, passed as values.
type app struct {
	streams Streams
	getenv  func(string) string
	environ func() []string
	now     func() time.Time
	cfg     *config
	// sessionFlag is the persistent --session of the command that runs
	sessionFlag string
	red         *redact.Redactor // built on first use
}

// Main runs rac with args and returns its exit status. It is the only
// place that turns an error into a status (through exitStatus).
func Main(args []string, streams Streams) int {
	a := &app{streams: streams, getenv: os.Getenv, environ: os.Environ, now: time.Now}
	isRunArgs := len(args) > 0 && args[0] == "run"
	root := newRootCmd(a, isRunArgs)
	root.SetArgs(args)
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	cmd, err := root.ExecuteC()
	isRun := cmd != nil && cmd.Name() == "run" && cmd.Parent() == root
	var se signalExit
	if errors.As(err, &se) {
		return reraise(se.sig)
	}
	err = cobraUsage(err)
	if err != nil {
		path := "rac"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		printError(streams.Err, err, path)
	}
	return exitStatus(err, isRun)
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
			return usagef("%s (did you mean %s?)", head, strings.Join(strings.Fields(sugg), " or "))
		}
		return usageError{err}
	case strings.HasPrefix(msg, "if any flags in the group"):
		// "... [head tail lines] are set none of the others can be; [head tail] were all set"
		if i := strings.LastIndex(msg, "; ["); i >= 0 {
			names := strings.Fields(strings.Trim(strings.TrimSuffix(msg[i+2:], " were all set"), "[]"))
			for j, n := range names {
				names[j] = "--" + n
			}
			return usagef("%s cannot be used together", strings.Join(names, " and "))
		}
		return usageError{err}
	}
	return err
}

// newRootCmd builds the command tree; onlyRun leaves out everything but
// rac run, whose start-up is on the path of every recorded command.
func newRootCmd(a *app, onlyRun bool) *cobra.Command {
	root := &cobra.Command{
		Use:   "rac",
		Short: "Run a command as if rac were not there, and keep what it printed",
		Long: `rac runs a command exactly as without rac (same output, exit status and
signals) while it keeps the output in a session-scoped recording, and prints
a qualified reference (rac: ref SESSION/NAME). Later, from any shell,
rac out list / read / grep / explain recover what it printed without
running it again.`,
		Example: `  rac run -- git push
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push --tail 80
  rac out list`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(a.getenv)
			if err != nil {
				return err
			}
			a.cfg = cfg
			for _, k := range cfg.unknown {
				fmt.Fprintf(a.streams.Err, "rac: warning: unknown setting %q in %s (README lists the settings)\n", k, cfg.path)
			}
			return cfg.applyToFlags(cmd)
		},
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.Version = version
	root.AddCommand(newRunCmd(a))
	if !onlyRun {
		root.AddCommand(newOutCmd(a), newSessionCmd(a))
	}
	return root
}

// readStores opens the stores rac out searches: the store, and the
// fallback store when it exists. A refused (unsafe) store is an error.
func (a *app) readStores() ([]*store.Store, error) {
	loc := store.Locate(a.getenv)
	if loc.Err != nil {
		return nil, usageError{loc.Err}
	}
	var stores []*store.Store
	st, err := store.OpenStore(loc.Path)
	switch {
	case err == nil:
		stores = append(stores, st)
	case errors.Is(err, store.ErrStoreMissing):
	default:
		return nil, err
	}
	if !loc.Explicit {
		if fb, err := store.OpenStore(loc.Fallback); err == nil {
			stores = append(stores, fb)
		}
	}
	return stores, nil
}

func closeStores(stores []*store.Store) {
	for _, s := range stores {
		s.Close()
	}
}
