//go:build !amd64 || purego

package redact

// haveTeddy is false: this architecture has no vector version of teddyFind,
// and the scalar start filter alone is faster than teddyFindGo.
func haveTeddy() bool { return false }

func teddyFind(t *teddy, src []byte, i int) (int, uint32) { return teddyFindGo(t, src, i) }

func haveTeddy64() bool { return false }

func teddyFind64(t *teddy, src []byte, i int) (int, uint64, uint64) { return teddyFind64Go(t, src, i) }
