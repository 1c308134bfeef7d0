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

// haveTeddy64 says what golang.org/x/sys/cpu says of AVX-512 F, BW and VBMI
// (x/sys/cpu checks the OS saves their registers too).
func TestHaveTeddy64IsAVX512VBMI(t *testing.T) {
	want := cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI
	assert.Equal(t, want, haveTeddy64())
}
