// Package interactive tells the programs that are all terminal (editors,
// pagers, full-screen tools, REPLs, the subcommands that open an editor or
// attach a terminal) from the rest, by their command line. rac hands those
// the terminal untouched (passthrough mode) and its hooks leave them
// unwrapped. It owns that table and nothing else: it must never touch a
// terminal, a process or the environment itself (getenv is passed in), so
// that a caller asking the question links no terminal library.
package interactive

import (
	"path"
	"strings"
)

// interactiveRule says whether argv (argv[0] a base name, wrappers
// skipped) is a program that is all terminal.
type interactiveRule func(argv []string, getenv func(string) string) bool

func always([]string, func(string) string) bool { return true }

// interactive is the table of programs that run on the terminal: editors,
// pagers, full-screen tools, REPLs and shells without a script, and the
// subcommands of git, kubectl and docker that open an editor or attach a
// terminal. Names not here are not interactive unless the caller adds them.
var interactive = map[string]interactiveRule{
	// editors
	"vi": always, "vim": always, "nvim": always, "view": always, "vimdiff": always,
	"nano": always, "pico": always, "micro": always, "hx": always, "kak": always,
	"joe": always, "mcedit": always, "emacs": emacs, "emacsclient": always,
	"crontab": flagged("e"), "visudo": always, "vipw": always, "vigr": always, "sudoedit": always,
	// pagers
	"less": always, "more": always, "most": always, "man": always, "pg": always,
	// full-screen tools
	"top": top, "htop": always, "btop": always, "atop": always, "iotop": always,
	"watch": always, "tmux": tmux, "screen": screen, "mc": always, "ranger": always,
	"nnn": always, "vifm": always, "tig": always, "lazygit": always, "k9s": always,
	"ncdu": always, "mutt": always, "neomutt": always, "irssi": always, "weechat": always,
	"nmtui": always, "alsamixer": always, "fzf": always,
	// remote terminals
	"ssh": ssh, "mosh": always, "telnet": always,
	// REPLs and shells, without a script
	"python": python, "python2": python, "python3": python, "ipython": python, "bpython": python, "ptpython": python,
	"node": node, "deno": denoREPL, "irb": replUnless("-e", "-v", "--version"),
	"pry": always, "ghci": always, "lua": replUnless("-e", "-v"), "julia": replUnless("-e", "--eval", "-v", "--version"),
	"R": rREPL, "iex": always, "erl": replUnless("-noshell", "-eval"),
	"psql": psql, "mysql": mysql, "mariadb": mysql, "sqlite3": sqlite3,
	"redis-cli": noOperands, "mongosh": replUnless("--eval", "-f", "--file"),
	"gdb": replUnless("-batch", "--batch"), "lldb": replUnless("-b", "--batch"),
	"bash": shell, "zsh": shell, "fish": shell, "sh": shell, "dash": shell, "ksh": shell,
	"mksh": shell, "tcsh": shell, "csh": shell, "su": replUnless("-c", "--command"),
	// subcommands
	"git": git, "kubectl": kubectl, "oc": kubectl, "docker": docker, "podman": docker,
}

// Is reports whether argv runs a program that is all terminal,
// so that rac hands it the terminal untouched (passthrough mode). getenv
// gives $EDITOR and $VISUAL, whose programs count as editors; extra names
// more programs that always do (the run.interactive setting). Wrappers
// (env, sudo, nice, nohup, time, command) are looked through.
func Is(argv []string, getenv func(string) string, extra []string) bool {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	argv = unwrap(argv)
	if len(argv) == 0 {
		return false
	}
	name := path.Base(argv[0])
	for _, e := range extra {
		if name == e || argv[0] == e {
			return true
		}
	}
	for _, v := range []string{"EDITOR", "VISUAL"} {
		if f := strings.Fields(getenv(v)); len(f) > 0 && path.Base(f[0]) == name {
			return true
		}
	}
	if rule, ok := interactive[name]; ok {
		return rule(argv, getenv)
	}
	// python3.12 is python
	if strings.HasPrefix(name, "python") && strings.Trim(name[len("python"):], "0123456789.") == "" {
		return python(argv, getenv)
	}
	return false
}

// unwrap skips the programs that only run another one, with their own
// options and env's assignments. sudo -i, -s and -e run a shell or an
// editor: that is what is looked at then.
func unwrap(argv []string) []string {
	for len(argv) > 0 {
		wrapper := path.Base(argv[0])
		withArg, ok := wrappers[wrapper]
		if !ok {
			return argv
		}
		i := 1
		for i < len(argv) {
			a := argv[i]
			if a == "--" {
				i++
				break
			}
			if wrapper == "env" && strings.Contains(a, "=") && !strings.HasPrefix(a, "-") {
				i++ // env NAME=value
				continue
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				break
			}
			if wrapper == "sudo" || wrapper == "doas" {
				if a == "--login" || a == "--shell" || a == "--edit" ||
					!strings.HasPrefix(a, "--") && strings.ContainsAny(a[1:], "ise") {
					return []string{"sh"}
				}
			}
			i++
			if !strings.HasPrefix(a, "--") && strings.ContainsRune(withArg, rune(a[len(a)-1])) {
				i++ // the option's value
			}
		}
		argv = argv[min(i, len(argv)):]
	}
	return argv
}

// wrappers run the command that follows their options, with the short
// options that take a value.
var wrappers = map[string]string{
	"env": "uCS", "sudo": "ugCDhpRrTtUa", "doas": "uC", "nice": "n", "nohup": "",
	"time": "of", "command": "", "exec": "a", "stdbuf": "ioe", "ionice": "cnp",
}

// scan walks argv[1:] up to "--": fn gets each option (without dashes, a
// short cluster split into letters; a long one without its =value) and
// each operand. withArg are the short options that take a value (the rest
// of the cluster or the next word), long the long ones that do when not
// given with =. It returns the operands.
func scan(args []string, withArg string, long []string, fn func(opt string)) (operands []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(operands, args[i+1:]...)
		case strings.HasPrefix(a, "--"):
			name, _, hasVal := strings.Cut(a[2:], "=")
			fn(name)
			if !hasVal && contains(long, name) {
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				fn(a[j : j+1])
				if strings.IndexByte(withArg, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			operands = append(operands, a)
		}
	}
	return operands
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// hasFlag reports whether args (before "--", short options clustered)
// hold the short option short or the long option long.
func hasFlag(args []string, short, long string) bool {
	found := false
	scan(args, "", nil, func(o string) { found = found || o == short || o == long })
	return found
}

// flagged: interactive only with one of the options.
func flagged(opts ...string) interactiveRule {
	return func(argv []string, _ func(string) string) bool {
		found := false
		scan(argv[1:], "", nil, func(o string) { found = found || contains(opts, o) })
		return found
	}
}

// replUnless: interactive unless one of the options is given.
func replUnless(opts ...string) interactiveRule {
	return func(argv []string, _ func(string) string) bool {
		for _, a := range argv[1:] {
			if name, _, _ := strings.Cut(a, "="); contains(opts, name) {
				return false
			}
		}
		return true
	}
}

func noOperands(argv []string, _ func(string) string) bool {
	return len(scan(argv[1:], "hpanu", []string{"host", "port", "user", "pass"}, func(string) {})) == 0
}

func emacs(argv []string, _ func(string) string) bool {
	return !hasFlag(argv[1:], "", "batch") && !hasFlag(argv[1:], "", "script") && !hasFlag(argv[1:], "", "version")
}

// top -b writes to stdout, a screen at a time
func top(argv []string, _ func(string) string) bool { return !hasFlag(argv[1:], "b", "batch") }

func tmux(argv []string, _ func(string) string) bool {
	ops := scan(argv[1:], "cfLSTt", nil, func(string) {})
	return len(ops) == 0 || contains([]string{"new", "new-session", "attach", "attach-session", "a", "at", "attac"}, ops[0])
}

func screen(argv []string, _ func(string) string) bool {
	for _, a := range argv[1:] {
		if a == "-ls" || a == "-list" || a == "-Q" || a == "-X" || a == "-v" {
			return false
		}
	}
	return true
}

// ssh host is a login; ssh host cmd runs cmd without a terminal unless -t
func ssh(argv []string, _ func(string) string) bool {
	tty, notty := false, false
	ops := scan(argv[1:], "BbcDEeFIiJLlmOopQRSWw", []string{}, func(o string) {
		tty = tty || o == "t"
		notty = notty || o == "T" || o == "N"
	})
	if notty {
		return false
	}
	return len(ops) == 1 || len(ops) > 1 && tty
}

// python with no script, no -c, no -m (or with -i)
func python(argv []string, _ func(string) string) bool {
	inspect, other := false, false
	ops := scan(argv[1:], "cmWX", nil, func(o string) {
		switch o {
		case "i":
			inspect = true
		case "c", "m", "V", "version", "h", "help":
			other = true
		}
	})
	return inspect || !other && len(ops) == 0
}

func node(argv []string, _ func(string) string) bool {
	inspect, other := false, false
	ops := scan(argv[1:], "erp", []string{"eval", "print", "require", "import", "loader"}, func(o string) {
		switch o {
		case "i", "interactive":
			inspect = true
		case "e", "p", "eval", "print", "v", "version", "h", "help", "test", "check", "c":
			other = true
		}
	})
	return inspect || !other && len(ops) == 0
}

func denoREPL(argv []string, _ func(string) string) bool {
	return len(argv) == 1 || argv[1] == "repl"
}

func rREPL(argv []string, _ func(string) string) bool {
	for _, a := range argv[1:] {
		if a == "CMD" || a == "-e" || a == "-f" || strings.HasPrefix(a, "--file") || a == "--version" {
			return false
		}
	}
	return true
}

// shell with no script and no -c (or with -i)
func shell(argv []string, _ func(string) string) bool {
	inspect, other := false, false
	ops := scan(argv[1:], "oO", []string{"rcfile", "init-file"}, func(o string) {
		switch o {
		case "i":
			inspect = true
		case "c", "version", "help":
			other = true
		}
	})
	if other {
		return false
	}
	return inspect || len(ops) == 0
}

func psql(argv []string, _ func(string) string) bool {
	other := false
	scan(argv[1:], "cdfFhLoPpRTUv", []string{"command", "dbname", "file", "host", "port", "username", "set", "variable", "output", "log-file"}, func(o string) {
		switch o {
		case "c", "command", "f", "file", "l", "list", "V", "version", "help":
			other = true
		}
	})
	return !other
}

func mysql(argv []string, _ func(string) string) bool {
	other := false
	scan(argv[1:], "eDhPuS", []string{"execute", "database", "host", "port", "user", "socket"}, func(o string) {
		switch o {
		case "e", "execute", "B", "batch", "V", "version", "help":
			other = true
		}
	})
	return !other
}

// sqlite3 [DB] is a REPL; sqlite3 DB SQL is not
func sqlite3(argv []string, _ func(string) string) bool {
	var ops []string
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-batch" || a == "-version" || a == "-help" || a == "--version":
			return false
		case a == "-cmd" || a == "-init" || a == "-separator" || a == "-newline" || a == "-nullvalue":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
		}
	}
	return len(ops) <= 1
}

// gitGlobal are git's options before the subcommand that take a value as
// the next word.
var gitGlobal = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path", "--super-prefix", "--list-cmds"}

func git(argv []string, getenv func(string) string) bool {
	i := 1
	for i < len(argv) && strings.HasPrefix(argv[i], "-") {
		if contains(gitGlobal, argv[i]) && argv[i] != "--exec-path" {
			i++
		}
		i++
	}
	if i >= len(argv) {
		return false
	}
	sub, args := argv[i], argv[i+1:]
	// an editor that is no editor: GIT_EDITOR=true (as agents set it)
	ed := getenv("GIT_EDITOR")
	noEditor := ed == "true" || ed == ":"
	switch sub {
	case "commit", "tag", "merge":
		if noEditor {
			return false
		}
		edit, given := false, false
		scan(args, "mFCtc", []string{"message", "file", "reuse-message", "template", "reedit-message", "cleanup", "author", "date", "fixup", "squash", "trailer"}, func(o string) {
			switch o {
			case "m", "message", "F", "file", "C", "reuse-message", "no-edit", "dry-run", "l", "list", "d", "delete", "v", "verify":
				given = true
			case "e", "edit", "c", "reedit-message":
				edit = true
			}
		})
		if sub == "tag" {
			// only an annotated tag without a message asks for one
			return hasFlag(args, "a", "annotate") && !given || edit
		}
		if sub == "merge" {
			return edit
		}
		return edit || !given
	case "rebase":
		return hasFlag(args, "i", "interactive") || hasFlag(args, "", "edit-todo")
	case "add", "checkout", "reset", "restore", "stash", "commit-tree":
		return hasFlag(args, "p", "patch") || sub == "add" && (hasFlag(args, "i", "interactive") || hasFlag(args, "e", "edit"))
	case "revert":
		return !noEditor && !hasFlag(args, "", "no-edit") && !hasFlag(args, "n", "no-commit")
	case "mergetool", "difftool":
		return true
	}
	return false
}

// kubectlGlobal are kubectl's options before the subcommand that take a
// value as the next word.
var kubectlGlobal = []string{"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token", "--as", "--as-group", "--request-timeout", "-v"}

func kubectl(argv []string, _ func(string) string) bool {
	sub, args := subcommand(argv[1:], kubectlGlobal)
	switch sub {
	case "edit":
		return true
	case "exec", "attach", "debug", "run":
		return stdinAndTTY(args)
	}
	return false
}

// dockerGlobal are docker's options before the subcommand that take a
// value as the next word.
var dockerGlobal = []string{"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}

func docker(argv []string, _ func(string) string) bool {
	sub, args := subcommand(argv[1:], dockerGlobal)
	if sub == "container" {
		sub, args = subcommand(args, nil)
	}
	switch sub {
	case "attach":
		return true
	case "run", "exec", "create", "start":
		opts := dockerOptions(args)
		return stdinAndTTY(opts) || sub == "start" && hasFlag(opts, "i", "interactive")
	case "compose":
		// compose run/exec give a terminal unless -T
		csub, cargs := subcommand(args, []string{"-f", "--file", "-p", "--project-name", "--profile", "--env-file"})
		return (csub == "exec" || csub == "run") && !hasFlag(dockerOptions(cargs), "T", "no-TTY")
	}
	return false
}

// dockerValued are the options of docker run and exec that take the next
// word as their value.
var dockerValued = []string{
	"-a", "--attach", "-c", "--cpu-shares", "-e", "--env", "--env-file", "-h", "--hostname",
	"-l", "--label", "-m", "--memory", "-p", "--publish", "-u", "--user", "-v", "--volume",
	"-w", "--workdir", "--name", "--network", "--net", "--entrypoint", "--mount", "--platform",
	"--cpus", "--device", "--add-host", "--restart", "--cidfile", "--cap-add", "--cap-drop",
	"--dns", "--expose", "--gpus", "--ipc", "--pid", "--runtime", "--security-opt",
	"--shm-size", "--ulimit", "--log-driver", "--log-opt", "--tmpfs", "--volumes-from",
	"--detach-keys", "--pull", "--stop-signal", "--label-file", "--group-add", "--init-path",
}

// dockerOptions are docker's options before the image or container: what
// follows belongs to the command run there.
func dockerOptions(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			return args[:i]
		}
		if contains(dockerValued, a) {
			i++
		}
	}
	return args
}

// subcommand skips global options (those in withVal take the next word
// unless given with =) and returns the first operand and what follows it.
func subcommand(args []string, withVal []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return a, args[i+1:]
		}
		if contains(withVal, a) {
			i++
		}
	}
	return "", nil
}

// stdinAndTTY: -i and -t both (-it, -ti, -i -t, --stdin --tty,
// --interactive --tty), before the container's command.
func stdinAndTTY(args []string) bool {
	in, tty := false, false
	for _, a := range args {
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		on := !hasVal || val == "true"
		switch {
		case strings.HasPrefix(a, "--"):
			in = in || on && (name == "stdin" || name == "interactive")
			tty = tty || on && name == "tty"
		case strings.HasPrefix(a, "-") && len(a) > 1 && !hasVal:
			in = in || strings.ContainsRune(name, 'i')
			tty = tty || strings.ContainsRune(name, 't')
		case strings.HasPrefix(a, "-") && hasVal:
			in = in || name == "i" && on
			tty = tty || name == "t" && on
		}
	}
	return in && tty
}
