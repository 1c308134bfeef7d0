package mcpserver

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Size is what a result costs against the budget: the bytes of its text
// and of its structured content as JSON, together. (A harness may show the
// model either: Codex keeps only the structured content, Claude Code the
// text, so both carry everything and both are counted.)
func Size(text string, out any) int {
	b, err := json.Marshal(out)
	if err != nil {
		return len(text)
	}
	return len(text) + len(b)
}

// ResultSize is Size for a result as the client received it.
func ResultSize(r *mcp.CallToolResult) int {
	n := 0
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			n += len(t.Text)
		}
	}
	if r.StructuredContent != nil {
		b, _ := json.Marshal(r.StructuredContent)
		n += len(b)
	}
	return n
}

// textResult is a result whose text content is text.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// fit drops items (from the front with fromFront, else from the end) until
// build's text and structured content fit in budget, and returns how many
// were kept. build is called with the count to keep; it must make a
// result that shrinks with it.
func fit(n int, budget int, fromFront bool, build func(keep int, fromFront bool) (string, any)) int {
	keep := n
	for keep > 0 {
		text, out := build(keep, fromFront)
		over := Size(text, out) - budget
		if over <= 0 {
			return keep
		}
		// a step proportional to how far over, never less than one
		step := max(1, keep*over/(budget+over)/2)
		keep -= step
	}
	return 0
}

// cutString cuts s to at most n bytes on a rune boundary.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if n < 0 {
		n = 0
	}
	s = s[:n]
	return strings.ToValidUTF8(s, "")
}
