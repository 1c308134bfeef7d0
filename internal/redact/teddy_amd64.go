//go:build amd64 && !purego

package redact

import "sync"

// haveTeddy says teddyFind runs here: it needs AVX2 and an OS that saves
// the YMM registers. It is asked on first use, by the CPU itself, and not
// through golang.org/x/sys/cpu: that package runs about a dozen CPUID
// instructions in its initialiser on every rac start, and in a virtual
// machine each one exits to the hypervisor (0.8% of rac run's start-up
// profile here, about 50 µs a start), while the first redactor is built
// in the background, off that path.
var haveTeddy = sync.OnceValue(func() bool {
	const osxsave, avx = 1 << 27, 1 << 28
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0 // AVX2
})

// haveTeddy64 says teddyFind64 runs here: AVX-512 F, BW and VBMI, and an
// OS that saves the opmask and ZMM registers.
var haveTeddy64 = sync.OnceValue(func() bool {
	if !haveTeddy() {
		return false
	}
	const zmmState = 0xe6 // XMM, YMM, opmask, ZMM0-15 upper halves, ZMM16-31
	if xcr0, _ := xgetbv(); xcr0&zmmState != zmmState {
		return false
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	const avx512f, avx512bw, avx512vbmi = 1 << 16, 1 << 30, 1 << 1
	return ebx7&avx512f != 0 && ebx7&avx512bw != 0 && ecx7&avx512vbmi != 0
})

// cpuid and xgetbv are the instructions (teddy_amd64.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// teddyFind is teddyFindGo in AVX2, 32 positions a round (teddy_amd64.s).
//
//go:noescape
func teddyFind(t *teddy, src []byte, i int) (at int, mask uint32)

// teddyFind64 is teddyFind64Go in AVX-512 VBMI, 128 positions a round
// (teddy_amd64.s).
//
//go:noescape
func teddyFind64(t *teddy, src []byte, i int) (at int, lo, hi uint64)
