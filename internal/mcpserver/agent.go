package mcpserver

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// explainAgent is explain's answer for a recording of an agent's
// transcript: the digest's text, and its JSON (at most 8 KiB) as the
// structured content; nil, nil for any other recording.
func (s *Server) explainAgent(ctx context.Context, c *callApp, ref string) (*mcp.CallToolResult, error) {
	d, err := c.ExplainAgent(ctx, ref)
	if err != nil || d == nil {
		return nil, err
	}
	var tb strings.Builder
	if err := d.WriteText(&tb); err != nil {
		return nil, err
	}
	text := tb.String()
	for _, n := range c.notes {
		text += "rac: " + n + "\n"
	}
	budget := int(s.o.Budget)
	// the digest gets the room the text leaves, and at least half
	j, err := d.JSONWithin(max(budget-len(text), budget/2))
	if err != nil {
		return nil, err
	}
	res := textResult(text)
	res.StructuredContent = json.RawMessage(j)
	if ResultSize(res) > budget {
		// the text gives way; the structured content has the digest
		t := res.Content[0].(*mcp.TextContent)
		room := max(0, budget-ResultSize(res)+len(t.Text)-64)
		t.Text = cutString(t.Text, room) + "\nrac: cut: budget: the text ends here; the structured content has the digest\n"
	}
	return res, nil
}
