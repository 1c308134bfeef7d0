//go:build amd64 && !purego

package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/cpu"
)

// rac's own CPUID check says what golang.org/x/sys/cpu says (which only
// the tests link).
func TestHaveTeddyIsAVX2(t *testing.T) {
	assert.Equal(t, cpu.X86.HasAVX2, haveTeddy())
}
