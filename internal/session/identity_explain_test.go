package session

import (
	"fmt"
	"os"
)

// An agent started from a tmux pane where the user had exported
// RAC_SESSION: the agent's conversation id wins, and the report says why.
func ExampleIdentity_WriteExplain() {
	f, getenv := chain(
		lvl{set: []string{"PATH=/usr/bin"}},
		lvl{setsid: true, tty: 34816, argv: []string{"-bash"}, set: []string{"TMUX=/tmp/tmux-1000/default,77,0", "TMUX_PANE=%3"}},
		lvl{set: []string{"RAC_SESSION=work"}}, // the agent, started after `export RAC_SESSION=work`
		lvl{setsid: true, set: []string{"CLAUDECODE=1", "CLAUDE_CODE_SESSION_ID=0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"}},
		lvl{},
	)
	id, err := Identify(Options{Getenv: getenv, Proc: f})
	if err != nil {
		panic(err)
	}
	fmt.Println(id.Name)
	if err := id.WriteExplain(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// claude-0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b
	// rule 1 flag: skipped: --session not given
	// rule 2 env: skipped: RAC_SESSION was inherited from above the agent harness (CLAUDE_CODE_SESSION_ID was injected nearer), so it would merge the agent's conversations
	//   saw RAC_SESSION=work: injected by pid 10, 3 levels up (started without it)
	//   saw CLAUDE_CODE_SESSION_ID=0b7e6f4a… (claude): injected by pid 20, 2 levels up (started without it)
	// rule 3 harness-id: taken: CLAUDE_CODE_SESSION_ID is the only harness id set
	//   saw CLAUDE_CODE_SESSION_ID=0b7e6f4a… (claude)
	// rule 4 agent-marker: not reached: an earlier rule was taken
	//   saw CLAUDECODE=1 (claude)
	// rule 5 pane: not reached: an earlier rule was taken
	//   saw TMUX=/tmp/tmux-1000/default,77,0 TMUX_PANE=%3 (tmux)
	// rule 6 process-session: not reached: an earlier rule was taken
	// rule 7 default: not reached: an earlier rule was taken
}
