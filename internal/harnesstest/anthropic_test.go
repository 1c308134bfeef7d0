package harnesstest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// anthropic is the Messages API as Claude Code uses it: POST
// /v1/messages?beta=true, streamed (SSE). A request of the main loop
// offers the Bash tool; others (a title, a quota probe) get plain text.
type anthropic struct{}

type anthMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthBlock struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func (anthropic) turn(r *http.Request, body []byte) (int, []ToolResult, bool) {
	if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
		return 0, nil, false
	}
	var req struct {
		Messages []anthMessage `json:"messages"`
		Tools    []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if json.Unmarshal(body, &req) != nil {
		return 0, nil, false
	}
	main := false
	for _, t := range req.Tools {
		main = main || t.Name == "Bash"
	}
	turns := 0
	var results []ToolResult
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turns++
			continue
		}
		var blocks []anthBlock
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, ToolResult{ID: b.ToolUseID, Output: textOf(b.Content), IsError: b.IsError})
			}
		}
	}
	return turns, results, main
}

func (anthropic) answer(w http.ResponseWriter, r *http.Request, step Step, id string, side bool) {
	if !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		http.NotFound(w, r)
		return
	}
	if strings.Contains(r.URL.Path, "count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"input_tokens":10}`))
		return
	}
	if side {
		step = Say("ok")
	}
	sseHeader(w)
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_" + id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
	stop := "end_turn"
	if step.Text != "" {
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": step.Text}})
	} else {
		name, input := toolCall(step, "Bash", "command")
		b, err := json.Marshal(input)
		if err != nil {
			panic(err)
		}
		sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": "toolu_" + id, "name": name, "input": map[string]any{}}})
		sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(b)}})
		stop = "tool_use"
	}
	sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

// toolCall is the tool and input of a step: the shell tool with its
// command field, or the step's own tool.
func toolCall(step Step, shellTool, cmdField string) (string, map[string]any) {
	input := map[string]any{}
	for k, v := range step.Input {
		input[k] = v
	}
	if step.Tool != "" {
		return step.Tool, input
	}
	input[cmdField] = step.Shell
	return shellTool, input
}
