//go:build !amd64 || purego

package redact

// haveTeddy is false: this architecture has no vector version of teddyFind,
// and the scalar start filter alone is faster than teddyFindGo.
func haveTeddy() bool { return false }

func teddyFind(t *teddy, src []byte, i int) (int, uint32) { return teddyFindGo(t, src, i) }
