package ui

// The long help and the examples of every command, by command path: what
// --help and the man pages show under a command's usage line. cmd/rac
// keeps each command's Use, Short and flags, and sets Long and Example
// from here (Help), so the text people read is in one place.

// Help is the long help and the examples of the command at path ("rac",
// "rac run", "rac out read", ...); both are empty for a command that has
// no entry.
func Help(path string) (long, example string) {
	for _, h := range help {
		if h.path == path {
			return h.long, h.example
		}
	}
	return "", ""
}

// HelpPaths are the command paths that have an entry, so that a test can
// check that each still names a command.
func HelpPaths() []string {
	paths := make([]string, len(help))
	for i, h := range help {
		paths[i] = h.path
	}
	return paths
}

type helpText struct{ path, long, example string }

// help is an array of constants rather than a map: it needs no code at
// start-up, which every recorded command pays for (rac run).
var help = [...]helpText{
	{
		path: "rac",
		long: `rac runs a command exactly as without rac (same output, exit status and
signals) while it keeps the output in a session-scoped recording, and prints
a qualified reference (rac: ref SESSION/NAME). Later, from any shell,
rac out list / read / grep / explain recover what it printed without
running it again.`,
		example: `  rac run -- git push
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push --tail 80
  rac out list`,
	},
	{
		path: "rac run",
		long: `Run CMD with rac's stdin, forwarding its stdout and stderr byte for byte as
they arrive, while recording both into the current session ('rac session'
names it; --session or RAC_SESSION=NAME picks one, which two terminals can
share). Everything from CMD on belongs to CMD, flags too.

rac names the recording on stderr: "rac: recording SESSION/NAME" first and
"rac: ref SESSION/NAME" last; paste it into 'rac out read' from any shell.
By default (--announce auto) it prints both lines when no terminal shows
the run (neither stdout nor stderr is one: scripts, CI, agents), and at a
terminal only the last line, only when CMD failed or its recording was cut.
--announce start|end|both|failed|none chooses; --quiet prints no rac: line
at all. CMD's environment gets RAC_REF=SESSION/NAME.

rac exits with CMD's status (by the same signal when CMD died of one); 124
when --timeout fired, 125 when rac itself failed before CMD ran, 126 when
CMD cannot be executed, 127 when it is not found. Durations take a unit:
90s, 10m, 1h30m. Each flag but --session and --quiet is also a setting
(RAC_RUN_TIMEOUT for --timeout, ...): 'rac config' shows them all.`,
		example: `  rac run -- git push
  rac run --timeout 10m -- make test
  rac run --announce end -- git status
  rac run --summary -- go test ./...`,
	},
	{
		path: "rac out",
		long: `List, read, search and explain recordings without running anything again.
Short references (42, 0042-git-p, last) resolve in the current session only;
SESSION/NAME, as printed by rac run, resolves from any shell.
Exit status: 0 ok, 1 not found or expired, 2 usage error or an invalid or
ambiguous reference.`,
		example: `  rac out list
  rac out last --tail 80
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-git-push`,
	},
	{
		path: "rac out list",
		long: `List recordings by start time, the newest last, under a header: name (the
session is shown once above; with --all-sessions each row has its full
SESSION/NAME reference), status (exit N, a signal, timed out, running,
incomplete; ", cut" when capped), how long ago it started, how long it
ran, bytes received and the command, cut with "…" to the terminal's width
(never cut into a pipe). --tree nests a recording under the recorded
command it ran under. --json prints the same recordings in the same order.`,
		example: `  rac out list
  rac out list --all-sessions --tree
  rac out list --session my-task --json`,
	},
	{
		path: "rac out read",
		long: readLong,
		example: `  rac out read --tail 80
  rac out read 42 --stream stderr --lines 120:160
  rac out read claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-make --follow
  rac out read 0042-git-p --raw > out.bin`,
	},
	{
		path: "rac out last",
		long: readLong, // rac out read without a reference
		example: `  rac out last
  rac out last --tail 80 --no-pager
  rac out last --stream stderr --follow`,
	},
	{
		path: "rac out grep",
		long: `Search the current session's recordings, in sequence order, for TEXT as a
literal substring (regex characters are plain text), as a terminal shows
the output (a match inside coloured text is found). Each hit prints as

  SESSION/NAME:LINE:text          (stdout)
  SESSION/NAME:stderr:LINE:text   (stderr)

with the match highlighted on a coloured terminal; with -C N context lines
print as SESSION/NAME-LINE-text, groups separated by "--". LINE is the
stream's line number, as 'rac out read REF --stream S --lines A:B' takes
it. --json prints one object per hit: ref, session, name, stream, line,
text, before and after ([{line, text}]). Exit status: 0 a match, 1 none,
2 any error (an unknown session is an error, not "no match").`,
		example: `  rac out grep 'error:'
  rac out grep -i -C 2 "connection refused"
  rac out grep --all-sessions 'ghp_'
  rac out grep --json 'FAIL'`,
	},
	{
		path: "rac out explain",
		long: `Print the command, its directory, how it ended and how long it ran, then
up to four distinct output lines most likely to be the cause (most likely
first), each as STREAM:LINE: text so you can read around it with
'rac out read REF --stream STREAM --lines A:B'; or, when no line looks like
an error, the last lines; on a coloured terminal a failed outcome and the
cause lines are red. At most 11 lines; --json prints one object of at
most 8 KiB. Everything printed passes through the secret redactor.`,
		example: `  rac out explain last
  rac out explain claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0007-git-push
  rac out explain 42 --json`,
	},
	{
		path: "rac out path",
		long: `Print the folder of a recording, or with --stream the file holding that
stream's bytes exactly as stored, for tools that open it themselves
(cat, tail -f, grep, an editor). A capped recording keeps the rest of a
stream in STREAM.tail.* segment files beside it.`,
		example: `  rac out path last
  tail -f "$(rac out path last --stream stdout)"
  grep -n panic "$(rac out path 42 --stream stderr)"`,
	},
	{
		path: "rac out gc",
		long: `Apply retention now (rac run also does it, at most once per gc.interval,
default 1h): remove sessions older than gc.max_age (default 7d, by the
newest file of their recordings); then in each session over
gc.max_session_bytes (256MiB) its oldest finished recordings until it
fits; then, while the store is over gc.max_store_bytes (2GiB), the oldest
finished recordings of any session. Running recordings are never removed.
Every removed recording leaves a tombstone for 30 days: reading it says
when and why it expired. Set the limits with RAC_GC_MAX_AGE=2d and the
like, or in the config file ('rac config' shows them).

--dry-run prints on stdout what would go and why, and changes nothing.
--json prints one object: dry_run, removed_sessions, removed_recordings,
freed_bytes, and the lists stores, sessions, recordings, temporaries,
kept, unrecognised and errors. Exit status 1 when something could not be
removed or a limit could not be met.`,
		example: `  rac out gc --dry-run
  rac out gc
  rac out gc --json`,
	},
	{
		path: "rac out rm",
		long: `Remove the recordings REF names now (a secret that slipped through, an
output you do not want kept). Each leaves a tombstone for 30 days, so
reading it answers "expired (removed by user ...)"; the tombstone keeps the
number and a hash of the name, never the name or the command. A running
recording is not removed. When a reference is invalid or ambiguous nothing
is removed; one not found (or already expired) is reported and the rest go.
Exit status: 0 all removed, 1 one was not found or is running, 2 a
reference is invalid or ambiguous.`,
		example: `  rac out rm last
  rac out rm 0007-curl 0008-curl
  rac out rm claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b/0003-curl`,
	},
	{
		path: "rac out purge",
		long: `Remove every recording of session S (or of every session with --all) now,
leaving tombstones that say "removed by user". Session folders keep their
counters, so a session used again never reuses a number. Running
recordings are not removed. Without --yes rac asks on the terminal; when
stdin is not a terminal it refuses (exit status 2) and asks for --yes.
'rac out list --session S' shows first what would go.`,
		example: `  rac out purge --session my-task
  rac out purge --session my-task --yes
  rac out purge --all --yes`,
	},
	{
		path: "rac session",
		long: `Print the name of the session this shell records into and reads short
references from. --explain prints every rule in order, what it saw and why
it was or was not taken, so you can see why two shells do or do not share a
session. An agent's conversation id makes its session; elsewhere each
terminal pane has its own. To share one between terminals, export the
same RAC_SESSION=NAME in each (NAME matches [a-z0-9][a-z0-9._-]{0,63}).
--json prints one object: name, rule, source, var,
from_agent and rules (each: rule, taken, reached, saw, why, hint).`,
		example: `  rac session
  rac session --explain
  rac session --session my-task --json`,
	},
	{
		path: "rac shell-init",
		long: `Print code for your shell's start-up file that runs the commands of
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
		example: `  eval "$(rac shell-init bash)"        # last line of ~/.bashrc
  eval "$(rac shell-init zsh)"         # last line of ~/.zshrc
  rac shell-init fish | source         # in ~/.config/fish/config.fish
  eval "$(rac shell-init bash --session work)"`,
	},
	{
		path: "rac completion",
		long: `Print the script that makes the shell complete rac's commands, flags and
references: Tab after 'rac out read ' lists the current session's
recordings, and a session's name followed by / lists that session's.
Load it from the shell's start-up file:

    # ~/.bashrc (needs the bash-completion package)
    source <(rac completion bash)
    # ~/.zshrc, after compinit
    source <(rac completion zsh)
    # ~/.config/fish/config.fish
    rac completion fish | source
    # $PROFILE
    rac completion powershell | Out-String | Invoke-Expression

or write it once where the shell looks for completions (the examples).
Completing runs rac, which reads the store and never records anything.`,
		example: `  rac completion bash > ~/.local/share/bash-completion/completions/rac
  rac completion zsh > "${fpath[1]}/_rac"
  rac completion fish > ~/.config/fish/completions/rac.fish
  rac completion powershell >> $PROFILE`,
	},
	{
		path: "rac config",
		long: `Print the config file's path (and whether it was read), then every setting:
its key, where its value came from (a flag, a RAC_* variable, the file, or
the default) and the value, in the syntax the file takes. With KEY, print
only that setting's value. A flag wins over the variable, the variable over
the file, the file over the default; the file is
$XDG_CONFIG_HOME/rac/config.yaml, else ~/.config/rac/config.yaml, a YAML
mapping of sections (run:, gc:, ...) to keys. A bad value is an error
naming where it came from; an unknown key of the file is a warning.`,
		example: `  rac config
  rac config gc.max_age
  rac config --json`,
	},
	{
		path: "rac mcp",
		long: `Serve the tools list, read, grep and explain (and run, when mcp.run is
true) over the Model Context Protocol on stdin and stdout, for an agent
harness to start. Every result stays within mcp.budget, with every cut
stated. A call without a session uses --session (or RAC_SESSION), else the
session the harness's SessionStart hook announced for the process that
started the server, else the conversation that process holds open (Codex),
else the one rac run would find, else the call must name one. The server is
the program rac-mcp, installed beside rac (make build puts both in bin/),
which rac agent-init --mcp registers directly.`,
		example: `  rac mcp                     # by hand: claude mcp add rac -- rac mcp
  rac mcp --session my-task   # tools default to the session my-task`,
	},
	{
		path: "rac hook",
		long: `Reads a tool call from stdin and answers with the same call with its command
wrapped in 'rac run --', when the harness would run the original anyway; else
answers nothing.`,
	},
	{
		path: "rac agent-init",
		long: `Install rac's route into a harness's settings file, keeping every other key
and hook (the file as it was is kept in FILE.rac-backup; a file rac cannot
parse is refused). claude: a SessionStart hook that records the wrapped
programs without changing the command text (--rewrite adds the PreToolUse
rewrite); codex: a PreToolUse hook in hooks.json; gemini: a BeforeTool hook.
agents-md, claude-md and gemini-md add a short instructions block.
--mcp registers rac-mcp, by its absolute path, as the MCP server "rac"
instead: claude in ~/.claude.json (--project: .mcp.json), codex in
config.toml ([mcp_servers.rac]), gemini in settings.json.
--remove takes out exactly what was added.`,
		example: `  rac agent-init claude
  rac agent-init claude --mcp --project
  rac agent-init codex --print
  rac agent-init gemini --remove`,
	},
	{
		path: "rac doctor",
		long: `Check that rac is on PATH, where recordings go (the store, or the fallback a
sandbox leaves), the session this shell lands in and why, which agent
harnesses have rac's hooks, that redaction is on, and when gc last ran.
Each problem comes with the command that fixes it. Exit status 1 when a
check fails, else 0. doctor changes nothing.`,
		example: `  rac doctor
  rac doctor --json`,
	},
}

const readLong = `Print a recording's output: both streams in arrival order, or one with
--stream. Text is cleaned as a terminal would show it (escape sequences
removed, \r overwrites, backspace erases); where rac's colour is on (a
terminal, --color always) the recording's own colours are kept. --raw
prints the exact recorded bytes.
Line numbers count within each stream, as grep and explain print them.
Without REF (and as rac out last) it reads the newest recording. On a
terminal the text goes through a pager as git's does: read.pager, else
$RAC_PAGER, else $PAGER, else less -R (LESS=FRX when LESS is unset); never
into a pipe, with --no-pager, --raw or --follow, or under an agent.
Notes (running, incomplete, cut) go to stderr.`
