package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// refCompletionGaps are the commands taking a REF that do not complete it
// yet: each needs ValidArgsFunction: completeRef(c) (completeRefs(c) for
// rm) in its constructor. The test fails once one does, so that it is
// removed here.
var refCompletionGaps = map[string]bool{}

// TestRefsComplete: every visible command whose usage takes a REF
// completes references (cli_completion.txtar tests what they offer).
func TestRefsComplete(t *testing.T) {
	var refCmds []string
	for _, cmd := range visible(testTree()) {
		if !slices.ContainsFunc(strings.Fields(cmd.Use), func(w string) bool { return strings.Trim(w, "[].") == "REF" }) {
			continue
		}
		path := cmd.CommandPath()
		refCmds = append(refCmds, path)
		if refCompletionGaps[path] {
			assert.Nil(t, cmd.ValidArgsFunction, "%s completes references now: remove it from refCompletionGaps", path)
			continue
		}
		assert.NotNil(t, cmd.ValidArgsFunction, "%s takes a REF: give it ValidArgsFunction: completeRef(c)", path)
	}
	assert.Contains(t, refCmds, "rac out read")
	for path := range refCompletionGaps {
		assert.Contains(t, refCmds, path, "%s in refCompletionGaps takes no REF", path)
	}
}
