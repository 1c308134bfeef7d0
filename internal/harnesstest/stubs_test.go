package harnesstest

// Helpers of the agent-init and MCP tests (mcp_test.go, hooks_test.go).

// agentInit runs rac agent-init in the world (home and working folder),
// for the route of one harness.
func (w *World) agentInit(args ...string) string {
	w.t.Helper()
	return w.Run(w.Rac, append([]string{"agent-init"}, args...)...)
}

// mcpCall is a step calling one of rac's MCP tools as Claude Code names
// them (mcp__SERVER__TOOL; Codex uses the same form).
func mcpCall(tool string, input map[string]any) Step {
	return Step{Tool: "mcp__rac__" + tool, Input: input}
}
