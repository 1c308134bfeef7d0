package termtext

import (
	"bytes"
	"io"
)

// encoding/json escapes the C0 controls but writes the C1 controls
// (U+0080 to U+009F) as they are, and a terminal takes U+009B as CSI: a
// --json answer piped to a terminal or a pager would act on it. In JSON
// text these two-byte sequences can only be inside strings, where \u00XX
// reads back as the same character.

// EscapeC1JSON returns b, JSON text, with every C1 control written as a
// \u00XX escape; b itself when it holds none.
func EscapeC1JSON(b []byte) []byte {
	i := indexC1(b)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i >= 0 {
		out = append(out, b[:i]...)
		out = append(out, '\\', 'u', '0', '0', hexDigits[b[i+1]>>4], hexDigits[b[i+1]&0xf])
		b = b[i+2:]
		i = indexC1(b)
	}
	return append(out, b...)
}

// indexC1 is the offset of the first C1 control's UTF-8 encoding
// (0xC2 0x80-0x9F), -1 when none.
func indexC1(b []byte) int {
	off := 0
	for {
		i := bytes.IndexByte(b[off:], 0xc2)
		if i < 0 || off+i+1 >= len(b) {
			return -1
		}
		if c := b[off+i+1]; c >= 0x80 && c < 0xa0 {
			return off + i
		}
		off += i + 1
	}
}

// JSONWriter writes through to w with EscapeC1JSON applied to each Write:
// for a json.Encoder, which writes each value whole in one Write.
func JSONWriter(w io.Writer) io.Writer { return jsonWriter{w} }

type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(EscapeC1JSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}
