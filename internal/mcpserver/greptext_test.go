package mcpserver

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rac-cli/rac/internal/app"
)

// The grep tool's text marks a cut line as rac out grep does: its
// marker follows the line, the hit's own or a context line.
func TestGrepTextMarksCutLine(t *testing.T) {
	out := GrepOut{Total: 2, Hits: []app.GrepHit{
		{Ref: "s/0001-a", Stream: "stdout", Line: 1, Text: "error: whole", After: []app.GrepLine{{Line: 2, Text: "half a li", Cut: true}}},
		{Ref: "s/0002-b", Stream: "stdout", Line: 7, Text: "error: half", Cut: true},
	}}
	got := grepText(out, GrepIn{Text: "error", Context: 1})
	assert.Equal(t, "2 hits for \"error\":\n"+
		"s/0001-a:stdout:1:error: whole\ns/0001-a-stdout-2-half a li\n"+app.CutLineMarker(2, "stdout")+"\n"+
		"--\ns/0002-b:stdout:7:error: half\n"+app.CutLineMarker(7, "stdout")+"\n", got)
}
