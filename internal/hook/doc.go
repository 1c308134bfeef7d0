// Package hook answers the agent harnesses' hooks. The pre-tool hooks
// (Claude Code's and Codex's PreToolUse, Gemini CLI's BeforeTool, in
// handle.go): it reads the tool call the harness is about to run and,
// when the shell command runs a program of hook.wrap, answers with the
// same call whose command has "rac run -- " inserted before that program,
// so the call is recorded. Claude Code's SessionStart hook (rac hook
// claude-session, in session.go): it appends rac shell-init bash
// --agent's code and the conversation's session to CLAUDE_ENV_FILE and
// notes the conversation under the harness's pid in the store.
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
