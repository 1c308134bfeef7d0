package harnesstest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// gemini is the Gemini API as Gemini CLI uses it:
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse for the main
// loop (its shell tool is run_shell_command), :generateContent and
// :countTokens for side requests.
type gemini struct{}

type gemContent struct {
	Role  string `json:"role"`
	Parts []struct {
		FunctionResponse *struct {
			ID       string          `json:"id"`
			Name     string          `json:"name"`
			Response json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	} `json:"parts"`
}

func (gemini) turn(r *http.Request, body []byte) (int, []ToolResult, bool) {
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		return 0, nil, false
	}
	var req struct {
		Contents []gemContent `json:"contents"`
		Tools    []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if json.Unmarshal(body, &req) != nil {
		return 0, nil, false
	}
	main := false
	for _, t := range req.Tools {
		for _, f := range t.FunctionDeclarations {
			main = main || f.Name == "run_shell_command"
		}
	}
	turns := 0
	var results []ToolResult
	for _, c := range req.Contents {
		if c.Role == "model" {
			turns++
			continue
		}
		for _, p := range c.Parts {
			if fr := p.FunctionResponse; fr != nil {
				var resp struct {
					Output string `json:"output"`
					Error  string `json:"error"`
				}
				out := string(fr.Response)
				if json.Unmarshal(fr.Response, &resp) == nil && resp.Output+resp.Error != "" {
					out = resp.Output + resp.Error
				}
				results = append(results, ToolResult{ID: fr.ID, Output: out, IsError: resp.Error != ""})
			}
		}
	}
	return turns, results, main
}

func (gemini) answer(w http.ResponseWriter, r *http.Request, step Step, id string, side bool) {
	body, _ := r.Context().Value(bodyKey{}).([]byte)
	switch {
	case strings.Contains(r.URL.Path, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"totalTokens":10}`))
		return
	case !strings.Contains(r.URL.Path, "GenerateContent") && !strings.Contains(r.URL.Path, "generateContent"):
		http.NotFound(w, r)
		return
	}
	if side {
		step = Say(sideAnswer(body))
	}
	var part map[string]any
	if step.Text != "" {
		part = map[string]any{"text": step.Text}
	} else {
		name, input := toolCall(step, "run_shell_command", "command")
		part = map[string]any{"functionCall": map[string]any{"id": id, "name": name, "args": input}}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-pro",
	}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
		return
	}
	sseHeader(w)
	sse(w, "", resp)
}

// sideAnswer is the text of a side request's answer: a JSON object that
// fills the request's response schema when it asks for JSON (the model
// router's complexity score, the next-speaker check), else "ok".
func sideAnswer(body []byte) string {
	var req struct {
		GenerationConfig struct {
			MimeType string `json:"responseMimeType"`
			Schema   struct {
				Properties map[string]struct {
					Type string   `json:"type"`
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	if json.Unmarshal(body, &req) != nil || req.GenerationConfig.MimeType != "application/json" {
		return "ok"
	}
	obj := map[string]any{}
	for name, p := range req.GenerationConfig.Schema.Properties {
		switch {
		case len(p.Enum) > 0:
			obj[name] = p.Enum[0]
		case strings.EqualFold(p.Type, "integer"), strings.EqualFold(p.Type, "number"):
			obj[name] = 10
		case strings.EqualFold(p.Type, "boolean"):
			obj[name] = false
		default:
			obj[name] = "user"
		}
	}
	b, _ := json.Marshal(obj)
	return string(b)
}
