package agentrun

import (
	"slices"
	"strings"
)

// claude decodes one frame of Claude Code's stream-json (or its one json
// result).
func (dec *Decoder) claude(m map[string]any) {
	switch str(m, "type") {
	case "system":
		if str(m, "subtype") == "init" {
			dec.claudeInit(m)
		}
	case "assistant":
		msg := obj(m, "message")
		dec.model(str(msg, "model"))
		for _, b := range arr(msg, "content") {
			bm, _ := b.(map[string]any)
			switch str(bm, "type") {
			case "tool_use":
				input := obj(bm, "input")
				dec.call(str(bm, "id"), str(bm, "name"), bm["input"])
				if slices.Contains([]string{"Write", "Edit", "MultiEdit", "NotebookEdit"}, str(bm, "name")) {
					dec.wrote(str(input, "file_path") + str(input, "notebook_path"))
				}
			case "text":
				// the last answer, until a result frame says it
				dec.finalText(str(bm, "text"))
			}
		}
		if sr := str(msg, "stop_reason"); sr != "" {
			dec.d.Result.StopReason = dec.field(sr)
		}
	case "user":
		for _, b := range arr(obj(m, "message"), "content") {
			bm, _ := b.(map[string]any)
			if str(bm, "type") == "tool_result" {
				isErr := boolean(bm, "is_error")
				dec.result(str(bm, "tool_use_id"), textOf(bm["content"]), isErr != nil && *isErr)
			}
		}
	case "result":
		dec.claudeResult(m)
	}
}

func (dec *Decoder) claudeInit(m map[string]any) {
	tools, mcps := len(arr(m, "tools")), len(arr(m, "mcp_servers"))
	in := &Init{
		Reduced: true, Type: "system", Subtype: "init", Model: dec.field(str(m, "model")),
		Version: dec.field(str(m, "claude_code_version")), PermissionMode: dec.field(str(m, "permissionMode")),
		SessionID: dec.field(str(m, "session_id")), ToolsCount: &tools, MCPServersCount: &mcps,
	}
	dec.d.Init = in
	dec.d.Result.SessionID = in.SessionID
	if in.Version != "" {
		dec.d.Result.HarnessVersion, dec.d.Agent.Version = in.Version, in.Version
	}
	dec.model(str(m, "model"))
}

func (dec *Decoder) claudeResult(m map[string]any) {
	r := &dec.d.Result
	r.Subtype = dec.field(str(m, "subtype"))
	r.IsError = boolean(m, "is_error")
	if sr := str(m, "stop_reason"); sr != "" {
		r.StopReason = dec.field(sr)
	}
	r.NumTurns, r.DurationMS, r.APIMS = num(m, "num_turns"), num(m, "duration_ms"), num(m, "duration_api_ms")
	r.CostUSD = float(m, "total_cost_usd")
	if id := str(m, "session_id"); id != "" {
		r.SessionID = dec.field(id)
	}
	r.PermissionDenials = len(arr(m, "permission_denials"))
	u := obj(m, "usage")
	r.Usage = Usage{
		Input: num(u, "input_tokens"), Output: num(u, "output_tokens"),
		CacheRead: num(u, "cache_read_input_tokens"), CacheCreation: num(u, "cache_creation_input_tokens"),
		Thinking: num(obj(u, "output_tokens_details"), "thinking_tokens"),
	}
	text, hasText := m["result"].(string)
	if hasText {
		dec.finalText(text)
	}
	failed := (r.IsError != nil && *r.IsError) || (r.Subtype != "" && r.Subtype != "success")
	if !failed {
		return
	}
	why := text
	if errs := arr(m, "errors"); len(errs) > 0 {
		parts := make([]string, 0, len(errs))
		for _, e := range errs {
			parts = append(parts, textOf(e))
		}
		why = strings.TrimSpace(why + "\n" + strings.Join(parts, "\n"))
	}
	if why == "" {
		why = r.Subtype
	}
	ex, cut := dec.lift(why, MaxExcerpt)
	dec.resultFail = &Failure{Kind: FailResult, Excerpt: ex, Truncated: cut, Line: dec.line}
}

// model notes the model the stream names, the first one met; Gemini CLI's
// "auto" is no model.
func (dec *Decoder) model(s string) {
	if s == "" || s == "auto" || dec.d.Result.ModelFrom == "stream" {
		return
	}
	dec.d.Result.Model, dec.d.Result.ModelFrom = dec.field(s), "stream"
}

// codex decodes one event of Codex's exec --json.
func (dec *Decoder) codex(m map[string]any) {
	switch str(m, "type") {
	case "thread.started":
		dec.d.Result.SessionID = dec.field(str(m, "thread_id"))
	case "item.started":
		dec.codexItem(obj(m, "item"), false)
	case "item.completed":
		dec.codexItem(obj(m, "item"), true)
	case "turn.completed":
		dec.codexTurns++
		r := &dec.d.Result
		r.NumTurns, r.Subtype = &dec.codexTurns, "completed"
		f := false
		r.IsError = &f
		u := obj(m, "usage")
		addTo(&r.Usage.Input, num(u, "input_tokens"))
		addTo(&r.Usage.Output, num(u, "output_tokens"))
		addTo(&r.Usage.CacheRead, num(u, "cached_input_tokens"))
		addTo(&r.Usage.CacheCreation, num(u, "cache_write_input_tokens"))
		addTo(&r.Usage.Thinking, num(u, "reasoning_output_tokens"))
	case "turn.failed":
		dec.codexTurns++
		r := &dec.d.Result
		t := true
		r.NumTurns, r.Subtype, r.IsError = &dec.codexTurns, "failed", &t
		ex, cut := dec.lift(str(obj(m, "error"), "message"), MaxExcerpt)
		dec.resultFail = &Failure{Kind: FailResult, Excerpt: ex, Truncated: cut, Line: dec.line}
	case "error":
		ex, cut := dec.lift(str(m, "message"), MaxExcerpt)
		dec.eventFail = &Failure{Kind: FailEvent, Excerpt: ex, Truncated: cut, Line: dec.line}
	}
}

// codexItem is one item event: a tool call starts (or, for an item that
// has no start event, starts and ends) and completes.
func (dec *Decoder) codexItem(it map[string]any, done bool) {
	id, typ := str(it, "id"), str(it, "type")
	var name string
	var input any
	switch typ {
	case "agent_message":
		if done {
			dec.finalText(str(it, "text"))
		}
		return
	case "command_execution":
		name, input = typ, str(it, "command")
	case "file_change":
		name, input = typ, it["changes"]
		if done {
			for _, c := range arr(it, "changes") {
				cm, _ := c.(map[string]any)
				dec.wrote(str(cm, "path"))
			}
		}
	case "mcp_tool_call":
		name, input = "mcp:"+str(it, "server")+"/"+str(it, "tool"), it["arguments"]
	case "web_search":
		name, input = typ, str(it, "query")
	default:
		// reasoning, todo_list, a warning (an item of type error): not calls
		return
	}
	if id == "" || dec.open[id] == nil {
		// a start, or a completed item that had no start event
		dec.call(id, name, input)
	}
	if !done {
		return
	}
	status := str(it, "status")
	failed := status == "failed" || status == "declined"
	if code := num(it, "exit_code"); code != nil && *code != 0 {
		failed = true
	}
	out := str(it, "aggregated_output")
	if typ == "mcp_tool_call" {
		out = textOf(it["result"])
		if e := obj(it, "error"); e != nil {
			out, failed = str(e, "message"), true
		}
	}
	dec.result(id, out, failed)
}

// gemini decodes one event of Gemini CLI's stream-json.
func (dec *Decoder) gemini(m map[string]any) {
	switch str(m, "type") {
	case "init":
		id := dec.field(str(m, "session_id"))
		dec.d.Init = &Init{Reduced: true, Type: "init", Model: dec.field(str(m, "model")), SessionID: id}
		dec.d.Result.SessionID = id
		dec.model(str(m, "model"))
	case "message":
		if str(m, "role") == "assistant" {
			c := str(m, "content")
			dec.textBytes += len(c)
			if room := maxLifted - dec.text.Len(); room > 0 {
				dec.text.WriteString(c[:min(len(c), room)])
			}
		}
	case "tool_use":
		dec.text.Reset()
		dec.textBytes = 0
		params := obj(m, "parameters")
		dec.call(str(m, "tool_id"), str(m, "tool_name"), m["parameters"])
		if n := str(m, "tool_name"); n == "write_file" || n == "replace" {
			dec.wrote(str(params, "file_path"))
		}
	case "tool_result":
		out := str(m, "output")
		if e := obj(m, "error"); e != nil && out == "" {
			out = str(e, "message")
		}
		dec.result(str(m, "tool_id"), out, str(m, "status") == "error")
	case "error":
		if str(m, "severity") != "warning" {
			ex, cut := dec.lift(str(m, "message"), MaxExcerpt)
			dec.eventFail = &Failure{Kind: FailEvent, Excerpt: ex, Truncated: cut, Line: dec.line}
		}
	case "result":
		dec.geminiResult(m)
	}
}

// geminiFinal is the final text: what the assistant said after its last
// tool call (lifted once, at the end, not per piece).
func (dec *Decoder) geminiFinal() {
	if dec.format.Kind != GeminiCLI {
		return
	}
	dec.finalText(dec.text.String())
	dec.d.Final.Bytes = dec.textBytes
	dec.d.Final.Truncated = dec.d.Final.Truncated || dec.textBytes > dec.text.Len()
}

func (dec *Decoder) geminiResult(m map[string]any) {
	r := &dec.d.Result
	r.Subtype = dec.field(str(m, "status"))
	isErr := r.Subtype != "success"
	r.IsError = &isErr
	st := obj(m, "stats")
	r.DurationMS = num(st, "duration_ms")
	r.Usage = Usage{Input: num(st, "input_tokens"), Output: num(st, "output_tokens"), CacheRead: num(st, "cached")}
	models := obj(st, "models")
	names := make([]string, 0, len(models))
	for k := range models {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) > 0 {
		dec.model(names[0])
	}
	if isErr {
		why := str(obj(m, "error"), "message")
		if why == "" {
			why = r.Subtype
		}
		ex, cut := dec.lift(why, MaxExcerpt)
		dec.resultFail = &Failure{Kind: FailResult, Excerpt: ex, Truncated: cut, Line: dec.line}
	}
}
