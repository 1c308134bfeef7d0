package harnesstest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// openai is the Responses API as Codex uses it: POST /v1/responses,
// streamed (SSE). Its one shell tool is exec_command ({"cmd": ...}).
type openai struct{}

type respItem struct {
	Type   string          `json:"type"`
	Role   string          `json:"role"`
	CallID string          `json:"call_id"`
	Output json.RawMessage `json:"output"`
}

func (openai) turn(r *http.Request, body []byte) (int, []ToolResult, bool) {
	if !strings.HasSuffix(r.URL.Path, "/responses") {
		return 0, nil, false
	}
	var req struct {
		Input []respItem `json:"input"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if json.Unmarshal(body, &req) != nil {
		return 0, nil, false
	}
	turns := 0
	var results []ToolResult
	for _, it := range req.Input {
		switch {
		case it.Type == "function_call", it.Type == "message" && it.Role == "assistant":
			turns++
		case it.Type == "function_call_output":
			results = append(results, ToolResult{ID: it.CallID, Output: outputText(it.Output)})
		}
	}
	return turns, results, len(req.Tools) > 0
}

// outputText is a function_call_output's output: a string, or an object
// or list carrying the text.
func outputText(raw json.RawMessage) string {
	var obj struct {
		Content string `json:"content"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Content != "" {
		return obj.Content
	}
	return textOf(raw)
}

func (openai) answer(w http.ResponseWriter, r *http.Request, step Step, id string, side bool) {
	if !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	if side {
		step = Say("ok")
	}
	sseHeader(w)
	respID := "resp_" + id
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID}})
	var item map[string]any
	if step.Text != "" {
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_" + id,
			"content": []any{map[string]any{"type": "output_text", "text": step.Text, "annotations": []any{}}}}
	} else {
		name, input := toolCall(step, "exec_command", "cmd")
		b, err := json.Marshal(input)
		if err != nil {
			panic(err)
		}
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": id, "name": name, "arguments": string(b), "status": "completed"}
	}
	sse(w, "response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": respID, "usage": map[string]any{"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15},
	}})
}
