package gc

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

// direntRecord builds one linux_dirent64 record: ino, off, reclen, type, name.
func direntRecord(typ byte, name string, pad int) []byte {
	b := make([]byte, 19+len(name)+pad)
	binary.NativeEndian.PutUint16(b[16:], uint16(len(b)))
	b[18] = typ
	copy(b[19:], name)
	return b
}

func TestDirentAt(t *testing.T) {
	buf := append(direntRecord(8, "stdout", 5), direntRecord(4, "tail", 1)...)
	buf = append(buf, direntRecord(8, "no-nul", 0)...) // name fills the record: no NUL
	typ, name, next := direntAt(buf, 0)
	require.Equal(t, byte(8), typ)
	require.Equal(t, "stdout", string(name))
	require.Equal(t, byte(0), buf[next-5], "the NUL follows the name in buf")
	typ, name, next = direntAt(buf, next)
	require.Equal(t, byte(4), typ)
	require.Equal(t, "tail", string(name))
	_, name, next = direntAt(buf, next)
	require.Empty(t, name, "a name without its NUL is never a name")
	require.Equal(t, len(buf), next)
	_, _, next = direntAt(buf, next)
	require.Equal(t, -1, next, "the end")

	short := direntRecord(8, "x", 3)
	_, _, next = direntAt(short[:len(short)-1], 0)
	require.Equal(t, -1, next, "a record running past the buffer")
	zero := direntRecord(8, "x", 3)
	binary.NativeEndian.PutUint16(zero[16:], 0)
	_, _, next = direntAt(zero, 0)
	require.Equal(t, -1, next, "a zero length stops the walk")
}
