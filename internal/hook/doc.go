// Package hook answers the agent harnesses' pre-tool hooks (Claude Code's
// and Codex's PreToolUse, Gemini CLI's BeforeTool): it reads the tool call
// the harness is about to run and, when the shell command runs a program
// of hook.wrap, answers with the same call whose command has "rac run -- "
// inserted before that program, so the call is recorded.
//
// It must never widen what the harness allows nor wedge a call: it answers
// only when the harness would run the original command anyway (see
// permissions.go), inserts text without re-printing the command, carries
// every other input field over unchanged, and on input it does not
// understand it answers nothing (the caller prints one line on stderr and
// exits 0; a JSON "allow" would grant a permission, a status of 2 would
// block the call).
//
// Nothing here runs at package init: rac run links this package and its
// start-up time is measured, so the shell parser is made per call.
package hook
