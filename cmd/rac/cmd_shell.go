package main

import (
	"errors"
	"io"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/rac-cli/rac/internal/app"
	"github.com/rac-cli/rac/internal/shellinit"
)

func newShellInitCmd(c *cli) *cobra.Command {
	var sessionName string
	var agent bool
	cmd := &cobra.Command{
		Use:   "shell-init bash|zsh|fish [--session NAME] [--agent]",
		Short: "Print shell code that records git and kubectl typed at the prompt",
		Long: `Print code for your shell's start-up file that runs the commands of
shell.wrap (default git and kubectl) through rac run when you type them at
the prompt with their output on the terminal. Nothing else records: not
your prompt's git calls (__git_ps1, vcs_info), not Tab completion, not
$(git ...), not a pipe (git log | less), not scripts. A successful command
prints exactly what it prints without rac; a failed one ends with its
rac: ref line. 'command git' or RAC_DISABLE=1 runs git without rac.
It exports RAC_SESSION (--session NAME, else user-$USER unless RAC_SESSION
is already set), so all your terminals share one session: 'rac out read
last' in one shows what the other just ran.
--agent (bash only) is for an agent's non-interactive shell: every call of
hook.wrap's commands records, with no prompt or terminal check.`,
		Example: `  eval "$(rac shell-init bash)"        # last line of ~/.bashrc
  eval "$(rac shell-init zsh)"         # last line of ~/.zshrc
  rac shell-init fish | source         # in ~/.config/fish/config.fish
  eval "$(rac shell-init bash --session work)"`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: shellinit.Shells,
		RunE: func(_ *cobra.Command, args []string) error {
			s, err := shellinit.Script(c.shellInitOptions(args[0], sessionName, agent))
			if errors.Is(err, shellinit.ErrUsage) {
				return app.Usage(err)
			}
			if err != nil {
				return err
			}
			_, err = io.WriteString(c.streams.Out, s)
			return err
		},
	}
	cmd.Flags().StringVar(&sessionName, "session", "", "export RAC_SESSION=`NAME` (default user-$USER, unless RAC_SESSION is set)")
	cmd.Flags().BoolVar(&agent, "agent", false, "for an agent's non-interactive bash: record every call of hook.wrap's commands")
	return cmd
}

// shellInitOptions are the shell-init options from the settings and the
// environment: shell.wrap for people, hook.wrap for an agent's shell.
func (c *cli) shellInitOptions(shell, sessionName string, agent bool) shellinit.Options {
	wrap := c.settings.Shell.Wrap.V
	if agent {
		wrap = c.settings.Hook.Wrap.V
	}
	user := c.env.Getenv("USER")
	if user == "" {
		user = c.env.Getenv("LOGNAME")
	}
	exe, _ := os.Executable()
	onPath, _ := exec.LookPath("rac")
	return shellinit.Options{
		Shell: shell, Wrap: wrap, Session: sessionName, Agent: agent,
		User: user, UID: os.Getuid(), Rac: shellinit.Program(exe, onPath),
	}
}

// runClaudeSessionHook is rac hook claude-session, Claude Code's
// SessionStart hook (cmd_hook.go's subcommand calls it). It prints
// nothing on stdout (that would become the model's context) and always
// exits 0: a problem is one line on stderr.
func (c *cli) runClaudeSessionHook() error {
	agent, err := shellinit.Script(c.shellInitOptions("bash", "", true))
	if err == nil {
		err = shellinit.ClaudeSessionHook(shellinit.ClaudeHook{
			Stdin: c.streams.In, Getenv: c.env.Getenv, PPID: os.Getppid(), Now: c.env.Now,
			Agent: agent, Note: shellinit.StoreNote(c.env.Getenv),
		})
	}
	if err != nil {
		c.p.Warnf("%s", err)
	}
	return nil
}
