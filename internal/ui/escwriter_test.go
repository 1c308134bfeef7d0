package ui

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEscapingWriter(t *testing.T) {
	var b bytes.Buffer
	w := EscapingWriter(&b)
	n, err := w.Write([]byte("session: a\x1b]0;x\x07\n  saw TERM=\u009b2J\n"))
	require.NoError(t, err)
	assert.Equal(t, len("session: a\x1b]0;x\x07\n  saw TERM=\u009b2J\n"), n)
	_, err = w.Write([]byte("no newline\r"))
	require.NoError(t, err)
	assert.Equal(t, "session: a\\x1b]0;x\\x07\n  saw TERM=\\x9b2J\nno newline\\x0d", b.String())
	_, err = EscapingWriter(failWriter{}).Write([]byte("x\n"))
	assert.Error(t, err)
}
