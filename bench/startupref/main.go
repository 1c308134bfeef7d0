// Command startupref is the bench's start-up reference: the least a Go
// wrapper built on rac's own libraries must do to run a command. It links
// cobra, viper and color for real (their package initialisers run, as in
// rac), builds a root command with a run verb, makes a viper instance and
// a colour object and decides the colour, then starts the child with fork
// and exec and waits for it, as internal/record does. It reads no file and
// records nothing: whatever rac takes beyond this is rac's own cost.
//
// The bench builds it with CGO_ENABLED=0 inside the rac module, so the
// versions are rac's own (go.mod and go.sum). Usage:
//
//	startupref run [-q] -- COMMAND [ARG...]
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"github.com/fatih/color"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	status := 0
	var colorMode string
	root := &cobra.Command{
		Use:           "startupref",
		Short:         "the bench's start-up reference",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&colorMode, "color", "auto", "colour: auto, always or never")
	var quiet bool
	runCmd := &cobra.Command{
		Use:  "run [flags] -- COMMAND [ARG...]",
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, argv []string) error {
			// settings from the environment only, like rac without a
			// config file
			v := viper.New()
			v.SetEnvPrefix("RAC")
			if err := v.BindEnv("color"); err != nil {
				return err
			}
			v.SetDefault("color", colorMode)
			warn := color.New(color.FgYellow)
			if os.Getenv("NO_COLOR") != "" || v.GetString("color") == "never" {
				warn.DisableColor()
			} else {
				warn.EnableColor()
			}
			if !quiet {
				_, _ = warn.Fprintln(os.Stderr, "startupref: running", argv[0])
			}
			var err error
			status, err = forkExec(argv)
			return err
		},
	}
	runCmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print nothing of its own")
	root.AddCommand(runCmd)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "startupref:", err)
		return 125
	}
	return status
}

// forkExec starts argv with the standard streams, as rac does (fork and
// exec directly, no os/exec pidfd probe), and returns its exit status.
func forkExec(argv []string) (int, error) {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return 127, err
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{0, 1, 2},
	})
	if err != nil {
		return 126, err
	}
	var ws syscall.WaitStatus
	for {
		_, err = syscall.Wait4(pid, &ws, 0, nil)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return 125, err
	}
	if ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	return ws.ExitStatus(), nil
}
