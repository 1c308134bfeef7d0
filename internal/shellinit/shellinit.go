// Package shellinit owns the shell code rac shell-init prints for people's
// shells (bash, zsh, fish) and for an agent's non-interactive bash (the
// --agent mode that Claude Code's SessionStart hook, rac hook
// claude-session in internal/hook, writes to CLAUDE_ENV_FILE).
//
// The people's code records only what a person typed at the prompt: a
// wrapped command goes through rac run only between the shell's preexec
// and precmd points and only with stdout on the terminal, so prompt
// functions, completions and $(...) never record, and a non-interactive
// shell that copied the functions (an agent's snapshot) runs the real
// command untouched. This package never runs a shell and never prints to
// os.Stdout or os.Stderr: it returns text and takes its inputs as values.
package shellinit

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rac-cli/rac/internal/session"
)

// Shells are the shells Script knows, in the order help lists them.
var Shells = []string{"bash", "zsh", "fish"}

// ErrUsage marks a bad request: an unknown shell, a command name that is
// not a plain word, --agent for a shell other than bash, a bad --session
// (errors.Is(err, ErrUsage)).
var ErrUsage = errors.New("usage")

// usageError is a message that is ErrUsage without saying so.
type usageError struct{ msg string }

func (e usageError) Error() string      { return e.msg }
func (usageError) Is(target error) bool { return target == ErrUsage }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// Options is one rac shell-init call.
type Options struct {
	Shell string // bash, zsh or fish
	// Wrap are the commands to wrap (shell.wrap; hook.wrap for agents):
	// a program name, or a program and the first words of its arguments
	// ("docker build": only docker build is recorded).
	Wrap []string
	// Session, when set, is exported as RAC_SESSION whatever was set
	// before; "" exports DefaultSession(User, UID) unless RAC_SESSION is
	// already set (people mode only: an agent's session is its
	// conversation's).
	Session string
	User    string // the login name ($USER)
	UID     int
	// Agent is the mode for an agent's non-interactive bash: every call
	// of a wrapped command is recorded, with no prompt or terminal check.
	Agent bool
	// Rac is how the functions call rac: a program name or an absolute
	// path (see Program); "" means rac.
	Rac string
}

// Script returns the code to eval.
func Script(o Options) (string, error) {
	if err := check(o); err != nil {
		return "", err
	}
	if o.Session != "" {
		if err := session.CheckName(o.Session, "--session"); err != nil {
			return "", usageError{err.Error()}
		}
	}
	rac := o.Rac
	if rac == "" {
		rac = "rac"
	}
	var b strings.Builder
	switch {
	case o.Agent:
		agentBash(&b, o, rac)
	case o.Shell == "bash":
		peopleBash(&b, o, rac)
	case o.Shell == "zsh":
		peopleZsh(&b, o, rac)
	default:
		peopleFish(&b, o, rac)
	}
	return b.String(), nil
}

func check(o Options) error {
	switch o.Shell {
	case "bash", "zsh", "fish":
	default:
		return usagef("unknown shell %q: use bash, zsh or fish", o.Shell)
	}
	if o.Agent && o.Shell != "bash" {
		return usagef("--agent is for an agent's bash only (Claude Code, Codex and Gemini run bash)")
	}
	for _, e := range o.Wrap {
		f := strings.Fields(e)
		ok := len(f) > 0
		for i, w := range f {
			ok = ok && (plainName(w) || i > 0 && len(w) > 1 && w[0] == '-' && plainName(w[1:]))
		}
		if !ok {
			return usagef("wrap entry %q is not a command name, or a command name and its first words (letters, digits, '_', '.', '+' and '-')", e)
		}
	}
	return nil
}

// plainName reports whether s can name a shell function in all three
// shells and be written into the code unquoted.
func plainName(s string) bool {
	if s == "" || s[0] == '-' || s[0] == '.' || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '.', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

// DefaultSession is the session one person's shells share: user-NAME for
// a login name that makes a valid session name, a derived name for any
// other, user-UID without a name.
func DefaultSession(user string, uid int) string {
	if user == "" {
		return "user-" + strconv.Itoa(uid)
	}
	if name := "user-" + user; session.ValidName(name) {
		return name
	}
	return session.DerivedName("user", user)
}

// Program is what the functions call: "rac" when the rac on PATH (onPath,
// from exec.LookPath) is this very binary (exe, from os.Executable), so an
// upgrade that moves the binary keeps working; else exe itself, so the
// functions never call another rac than the one that printed them.
func Program(exe, onPath string) string {
	if exe == "" {
		return "rac"
	}
	if onPath != "" {
		a, aerr := os.Stat(exe)
		b, berr := os.Stat(onPath)
		if aerr == nil && berr == nil && os.SameFile(a, b) {
			return "rac"
		}
	}
	return exe
}

// fishQuote quotes s for fish, where a single-quoted string still takes
// \\ and \'. fish is the one dialect rac writes code for that is not in
// the POSIX family: termtext.ShellQuote (bash and zsh) does not fit it,
// and mvdan.cc/sh's syntax.Quote has no fish variant. rac quotes only
// what it writes into fish's init code with it: a session name, the path
// of rac and a wrapped command's words.
func fishQuote(s string) string {
	if plainName(s) {
		return s
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// racCall is how a function starts rac: "command rac" for the name (a
// function or alias named rac must not intercept it), else the path.
func racCall(rac string, quote func(string) string) string {
	if rac == "rac" {
		return "command rac"
	}
	return quote(rac)
}
