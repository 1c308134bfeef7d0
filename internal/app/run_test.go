package app

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBoundArgv(t *testing.T) {
	small := []string{"git", "log", "-3"}
	assert.Equal(t, small, boundArgv(small, 100))
	big := []string{"echo", strings.Repeat("x", 60), strings.Repeat("é", 30), "tail"}
	got := boundArgv(big, 100)
	assert.Equal(t, "echo", got[0])
	assert.Equal(t, strings.Repeat("x", 60), got[1])
	assert.LessOrEqual(t, len(got[2]), 36)
	assert.True(t, strings.HasPrefix(got[2], "éé"))
	assert.NotContains(t, got[2], "\uFFFD")
	assert.Equal(t, "[rac: 28 more bytes of arguments not stored, 4 arguments in all]", got[len(got)-1])
}
