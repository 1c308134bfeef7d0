package shellinit

import (
	"fmt"
	"strings"

	"github.com/rac-cli/rac/internal/termtext"
)

// The prompt test a people function makes, per shell: an interactive
// shell, a command typed at the prompt (the preexec point passed, the
// precmd point not yet), stdout on the terminal, rac not disabled.
const (
	shTyped   = `[[ $- == *i* && -n ${__rac_typed-} && -t 1 && ${RAC_DISABLE:-0} == 0 ]]`
	fishTyped = `status is-interactive; and set -q __rac_typed; and isatty stdout; and contains -- "$RAC_DISABLE" "" 0`
)

// wrapped is one program to wrap: always, or only when its first
// arguments are one of words (hook.wrap's "docker build").
type wrapped struct {
	prog   string
	always bool
	words  [][]string
}

// programs groups the Wrap entries by program, in first-seen order.
func programs(wrap []string) []*wrapped {
	var out []*wrapped
	by := map[string]*wrapped{}
	for _, e := range wrap {
		f := strings.Fields(e)
		if len(f) == 0 {
			continue
		}
		w := by[f[0]]
		if w == nil {
			w = &wrapped{prog: f[0]}
			by[f[0]] = w
			out = append(out, w)
		}
		if len(f) == 1 {
			w.always = true
		} else {
			w.words = append(w.words, f[1:])
		}
	}
	return out
}

// shArgs is the bash/zsh test that the arguments start with one of the
// entry's words; "" when the program is always wrapped.
func (w *wrapped) shArgs() string {
	if w.always {
		return ""
	}
	var alts []string
	for _, ws := range w.words {
		var c []string
		for i, x := range ws {
			c = append(c, fmt.Sprintf("${%d-} == %s", i+1, termtext.ShellQuote(x)))
		}
		alts = append(alts, "( "+strings.Join(c, " && ")+" )")
	}
	return " && [[ " + strings.Join(alts, " || ") + " ]]"
}

// fishArgs is shArgs for fish.
func (w *wrapped) fishArgs() string {
	if w.always {
		return ""
	}
	var alts []string
	for _, ws := range w.words {
		var c []string
		for i, x := range ws {
			c = append(c, fmt.Sprintf("test \"x$argv[%d]\" = %s", i+1, fishQuote("x"+x)))
		}
		alts = append(alts, "begin; "+strings.Join(c, "; and ")+"; end")
	}
	return "; and begin; " + strings.Join(alts, "; or ") + "; end"
}

// shFunction is one wrapped command for bash and zsh. "function NAME"
// rather than "NAME()": an alias of the same name is not expanded in it.
func shFunction(b *strings.Builder, w *wrapped, test, rac string) {
	fmt.Fprintf(b, "function %s {\n  if %s%s; then\n    %s run -- %s \"$@\"\n  else\n    command %s \"$@\"\n  fi\n}\n",
		w.prog, test, w.shArgs(), racCall(rac, termtext.ShellQuote), w.prog, w.prog)
}

func header(b *strings.Builder, o Options, what string) {
	fmt.Fprintf(b, "# rac shell-init %s%s: %s\n", o.Shell, map[bool]string{true: " --agent"}[o.Agent], what)
	b.WriteString("# 'command NAME' or RAC_DISABLE=1 runs a command without rac.\n")
}

func sessionExport(b *strings.Builder, o Options, fish bool) {
	name := o.Session
	keep := name == "" // the default never replaces a RAC_SESSION already set
	if keep {
		name = DefaultSession(o.User, o.UID)
	}
	switch {
	case fish && keep:
		fmt.Fprintf(b, "set -q RAC_SESSION[1]; or set -gx RAC_SESSION %s\n", fishQuote(name))
	case fish:
		fmt.Fprintf(b, "set -gx RAC_SESSION %s\n", fishQuote(name))
	case keep:
		fmt.Fprintf(b, "export RAC_SESSION=\"${RAC_SESSION:-%s}\"\n", name)
	default:
		fmt.Fprintf(b, "export RAC_SESSION=%s\n", termtext.ShellQuote(name))
	}
}

// peopleBash: bash 4.4+ marks a typed command from PS0 (expanded after
// the line is read, before it runs; the arithmetic in an unset array's
// subscript assigns without printing) and clears the mark first thing in
// PROMPT_COMMAND, put before the user's own: a prompt hook that runs git
// with stdout on the terminal (__git_ps1 in PROMPT_COMMAND mode runs git
// diff --quiet) must not record. The clearing keeps $?; PIPESTATUS is
// that of the clearing, as with bash-preexec. Older bash uses
// bash-preexec when it is loaded, else a DEBUG trap armed at the end of
// PROMPT_COMMAND (so the user's prompt hooks never count as typed), the
// way bash-preexec's works, keeping a trap already set.
func peopleBash(b *strings.Builder, o Options, rac string) {
	header(b, o, names(o.Wrap)+" run through rac run when typed at the prompt")
	sessionExport(b, o, false)
	for _, w := range programs(o.Wrap) {
		shFunction(b, w, shTyped, rac)
	}
	b.WriteString(bashHooks)
}

const bashHooks = `function __rac_precmd { local s=$?; __rac_typed=; return "$s"; }
function __rac_arm { local s=$?; __rac_ready=1; return "$s"; }
function __rac_preexec { __rac_typed=1; }
function __rac_debug {
  [[ -n ${COMP_LINE-} || -z ${__rac_ready-} ]] && return
  __rac_ready=
  __rac_typed=1
}
function __rac_debug_install {
  local prev
  prev=$(trap -p DEBUG)
  [[ $prev == *__rac_debug* ]] && return
  prev=${prev#"trap -- "}
  prev=${prev%" DEBUG"}
  eval "prev=${prev:-''}"
  trap -- "__rac_debug${prev:+; $prev}" DEBUG
}
function __rac_prompt_command_add {
  local d
  d=$(declare -p PROMPT_COMMAND 2>/dev/null)
  d=${d#declare -}
  d=${d%% *}
  if [[ $d == *a* ]]; then
    [[ " ${PROMPT_COMMAND[*]} " == *" __rac_precmd "* ]] || PROMPT_COMMAND=(__rac_precmd "${PROMPT_COMMAND[@]}")
    [[ -z $1 || " ${PROMPT_COMMAND[*]} " == *" $1 "* ]] || PROMPT_COMMAND+=("$1")
  else
    [[ ${PROMPT_COMMAND-} == *__rac_precmd* ]] || PROMPT_COMMAND=__rac_precmd${PROMPT_COMMAND:+$'\n'$PROMPT_COMMAND}
    [[ -z $1 || $PROMPT_COMMAND == *"$1"* ]] || PROMPT_COMMAND+=$'\n'$1
  fi
}
if (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then
  [[ ${PS0-} == *__rac_typed* ]] || PS0=${PS0-}'${__rac_z[__rac_typed=1]-}'
  __rac_prompt_command_add ""
elif [[ -n ${bash_preexec_imported-}${__bp_imported-} ]]; then
  [[ " ${preexec_functions[*]-} " == *" __rac_preexec "* ]] || preexec_functions+=(__rac_preexec)
  [[ " ${precmd_functions[*]-} " == *" __rac_precmd "* ]] || precmd_functions=(__rac_precmd "${precmd_functions[@]}")
else
  __rac_debug_install
  __rac_prompt_command_add __rac_arm
fi
`

// agentBash is for an agent's non-interactive bash: there the model's
// commands are what matters, so every call records, with rac's start
// line; nothing checks the prompt or the terminal. No RAC_SESSION
// unless asked: rac run finds the conversation's own session.
func agentBash(b *strings.Builder, o Options, rac string) {
	header(b, o, names(o.Wrap)+" run through rac run in this agent's shell")
	if o.Session != "" {
		sessionExport(b, o, false)
	}
	for _, w := range programs(o.Wrap) {
		shFunction(b, w, `[[ ${RAC_DISABLE:-0} == 0 ]]`, rac)
	}
}

// zshTyped adds to shTyped that no precmd function is on the call
// stack: zsh runs the function named precmd (where vcs_info often is,
// and its check-for-changes runs git diff with stdout on the terminal)
// before any hook of precmd_functions, so before the mark is cleared.
const zshTyped = `[[ $- == *i* && -n ${__rac_typed-} && -t 1 && ${RAC_DISABLE:-0} == 0 && ${funcstack[(I)precmd]} == 0 ]]`

// peopleZsh marks a typed command in preexec and clears the mark in
// precmd (add-zsh-hook), its hook moved first so that it runs before
// vcs_info or any other hook of precmd_functions.
func peopleZsh(b *strings.Builder, o Options, rac string) {
	header(b, o, names(o.Wrap)+" run through rac run when typed at the prompt")
	sessionExport(b, o, false)
	for _, w := range programs(o.Wrap) {
		shFunction(b, w, zshTyped, rac)
	}
	b.WriteString(`function __rac_preexec { __rac_typed=1 }
function __rac_precmd { local s=$?; __rac_typed=; return $s }
autoload -Uz add-zsh-hook
add-zsh-hook preexec __rac_preexec
add-zsh-hook precmd __rac_precmd
precmd_functions=(__rac_precmd ${precmd_functions:#__rac_precmd})
`)
}

// peopleFish marks a typed command between the fish_preexec and
// fish_postexec events; --wraps keeps each command's completions.
func peopleFish(b *strings.Builder, o Options, rac string) {
	header(b, o, names(o.Wrap)+" run through rac run when typed at the prompt")
	sessionExport(b, o, true)
	for _, w := range programs(o.Wrap) {
		fmt.Fprintf(b, "function %s --wraps %s\n    if %s%s\n        %s run -- %s $argv\n    else\n        command %s $argv\n    end\nend\n",
			w.prog, w.prog, fishTyped, w.fishArgs(), racCall(rac, fishQuote), w.prog, w.prog)
	}
	b.WriteString(`function __rac_preexec --on-event fish_preexec
    set -g __rac_typed 1
end
function __rac_postexec --on-event fish_postexec
    set -e __rac_typed
end
`)
}

// names lists the entries for the header line.
func names(wrap []string) string { return strings.Join(wrap, ", ") }
