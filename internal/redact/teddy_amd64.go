//go:build amd64 && !purego

package redact

import "golang.org/x/sys/cpu"

// haveTeddy says teddyFind runs here: it needs AVX2.
var haveTeddy = cpu.X86.HasAVX2

// teddyFind is teddyFindGo in AVX2, 32 positions a round (teddy_amd64.s).
//
//go:noescape
func teddyFind(t *teddy, src []byte, i int) (at int, mask uint32)
