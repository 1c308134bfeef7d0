package termtext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDefuse(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                 "plain",
		"caf\u00e9 \u20ac":      "caf\u00e9 \u20ac", // 0x82, 0xac inside valid runes stay
		"a\x9b2Jb":              "a\uFFFD2Jb",
		"x\x9d0;title\x07y":     "x\uFFFD0;title\x07y",
		"bin\xff\xfe":           "bin\xff\xfe", // not C1: left for --raw-like fidelity
		"\xc2\x9b":              "\xc2\x9b",    // a valid C1 rune: CleanLine's job
		"mixed\x85\xe2\x82\xac": "mixed\uFFFD\u20ac",
	} {
		assert.Equal(t, want, string(Defuse([]byte(in))), "%q", in)
	}
	b := []byte("clean")
	assert.Equal(t, &b[0], &Defuse(b)[0], "clean text is not copied")
}
