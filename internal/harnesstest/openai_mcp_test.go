package harnesstest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// openaiMCP is openai with Codex's form of an MCP tool call: Codex offers
// a server's tools as one tool of type "namespace" named mcp__SERVER
// holding plain function names, so the model calls one as a
// function_call with "namespace": "mcp__SERVER" and "name": TOOL (a
// flat mcp__rac__read is answered "unsupported call"). Other steps are
// openai's.
type openaiMCP struct{ openai }

func (p openaiMCP) answer(w http.ResponseWriter, r *http.Request, step Step, id string, side bool) {
	ns, name, ok := splitMCPTool(step.Tool)
	if side || !ok || !strings.HasSuffix(r.URL.Path, "/responses") {
		p.openai.answer(w, r, step, id, side)
		return
	}
	args, err := json.Marshal(step.Input)
	if err != nil {
		panic(err)
	}
	sseHeader(w)
	respID := "resp_" + id
	item := map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": id, "namespace": ns, "name": name, "arguments": string(args), "status": "completed"}
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID}})
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": respID, "usage": map[string]any{"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15},
	}})
}

// splitMCPTool splits mcp__SERVER__TOOL into mcp__SERVER and TOOL.
func splitMCPTool(tool string) (ns, name string, ok bool) {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok {
		return "", "", false
	}
	server, name, ok := strings.Cut(rest, "__")
	return "mcp__" + server, name, ok && server != "" && name != ""
}
