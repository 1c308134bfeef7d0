package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/config"
	"github.com/rac-cli/rac/internal/ui"
)

// cli is one invocation: its streams and environment, and (after the
// root's pre-run has read the settings) the application layer.
type cli struct {
	streams *ui.IOStreams
	p       *ui.Printer // rac's own lines, on stderr
	env     app.Env
	// session is the --session flag of the command that runs
	session  string
	settings *config.Settings
	app      *app.App
	// sigs are rac run's signals, caught from the start
	sigs *app.Signals
	// configProblems are what rac doctor found wrong with the settings
	configProblems []string
}

// Main runs rac with args and returns its exit status. It is the only
// place that turns an error into a status (through app.ExitStatus).
func Main(args []string, streams *ui.IOStreams) int {
	return mainEnv(args, streams, app.Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now, Version: app.Version,
		BackgroundGC: backgroundGC})
}

// backgroundGC is the command line of the rest of a long automatic gc
// pass: this rac as "rac out gc --background" (argv[0] "rac" also lets a
// test binary standing in for rac dispatch to it).
func backgroundGC() (string, []string, error) {
	exe, err := os.Executable()
	return exe, []string{"rac", "out", "gc", "--background"}, err
}

// mainEnv is Main in the environment env (tests pass their own).
func mainEnv(args []string, streams *ui.IOStreams, env app.Env) int {
	c := &cli{streams: streams, p: streams.Printer(), env: env}
	isRunArgs := len(args) > 0 && args[0] == "run"
	if limit, ok := app.OpenFileLimit(); ok && limit < app.MinOpenFiles {
		// before the first open file: below the limit the Go runtime
		// itself may fail to start its poller
		return c.tooFewFiles(args, limit, isRunArgs)
	}
	if isRunArgs {
		// caught in the background from rac's package initialisers on
		// (sigcatch): it is the largest part of rac run's start-up
		c.sigs = app.CatchRunSignals()
		defer c.sigs.Stop()
	}
	root := newRootCmd(c, isRunArgs)
	root.SetArgs(args)
	root.SetOut(streams.Out)
	root.SetErr(streams.Err)
	cmd, err := root.ExecuteContextC(context.Background())
	isRun := cmd != nil && cmd.Name() == "run" && cmd.Parent() == root
	var se app.SignalExit
	if errors.As(err, &se) {
		return reraise(se.Sig)
	}
	err = cobraUsage(err)
	if err != nil {
		path := "rac"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		c.printError(err, path)
	}
	return app.ExitStatus(err, isRun)
}

// newRootCmd builds the command tree; onlyRun leaves out everything but
// rac run, whose start-up is on the path of every recorded command.
func newRootCmd(c *cli, onlyRun bool) *cobra.Command {
	root := &cobra.Command{
		Use:               "rac",
		Short:             "Run a command as if rac were not there, and keep what it printed",
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return c.setup(cmd) },
		Long: `rac runs a command exactly as without rac (same output, exit status and
signals) while it keeps the output in a session-scoped recording, and prints
a qualified reference (rac: ref SESSION/NAME). Later, from any shell,
rac out list / read / grep / explain recover what it printed without
running it again.`,
		Example: `  rac run -- git push
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push --tail 80
  rac out list`,
	}
	root.SetFlagErrorFunc(flagError)
	bindSettings(root.PersistentFlags(), "color")
	root.Version = app.Version
	root.AddCommand(newRunCmd(c))
	if !onlyRun {
		root.AddCommand(newRecordCmd(c))
		root.AddCommand(newOutCmd(c), newSessionCmd(c), newVersionCmd(),
			newShellInitCmd(c), newCompletionCmd(c), newConfigCmd(c),
			newMCPCmd(c), newHookCmd(c), newAgentInitCmd(c), newDoctorCmd(c))
	}
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print rac's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := cmd.OutOrStdout().Write([]byte("rac version " + app.Version + "\n"))
			return err
		},
	}
}

// tooFewFiles is rac under an open-file limit too low to record (ulimit -n
// below app.MinOpenFiles): rac run runs the command as without rac (it
// replaces itself with it); every other command says why it cannot work.
func (c *cli) tooFewFiles(args []string, limit uint64, isRun bool) int {
	err := fmt.Errorf("%w: ulimit -n is %d, rac needs at least %d", app.ErrTooFewFiles, limit, app.MinOpenFiles)
	if !isRun {
		c.p.Errorf("%v", err)
		return app.ExitStatus(err, false)
	}
	root := newRootCmd(c, true)
	run, rest, ferr := root.Find(args)
	if ferr == nil {
		ferr = run.ParseFlags(rest)
	}
	argv := run.Flags().Args()
	if ferr != nil || len(argv) == 0 {
		c.p.Errorf("%v", err)
		return app.ExitStatus(err, true)
	}
	if quiet, _ := run.Flags().GetBool("quiet"); !quiet {
		c.p.Warnf("not recording this command: %v; running it as without rac", err)
	}
	xerr := app.ExecUnrecorded(argv, c.env.Environ())
	var ee *app.ExecError
	if errors.As(xerr, &ee) {
		c.p.Errorf("%s: %v", argv[0], ee.Err)
		return ee.Status
	}
	return app.ExitStatus(xerr, true)
}
