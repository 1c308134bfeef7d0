package app

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The view forwards the head up to its room, at a line end, holds the rest
// back but for a tail from a line start, and names the lines held back.
func TestAgentViewShapes(t *testing.T) {
	v := &agentView{room: 1000, tailMax: 300, streams: map[string]*viewStream{}}
	var fwd bytes.Buffer
	w := v.shape()("combined", &fwd)
	var all bytes.Buffer
	for i := 1; i <= 500; i++ {
		line := fmt.Sprintf("line %03d\n", i) // 9 bytes
		all.WriteString(line)
		n, err := w.Write([]byte(line))
		require.NoError(t, err)
		require.Equal(t, len(line), n)
	}
	assert.LessOrEqual(t, fwd.Len(), 1000)
	assert.True(t, strings.HasSuffix(fwd.String(), "\n"), "the head ends at a line end")
	assert.True(t, strings.HasPrefix(all.String(), fwd.String()))
	head := bytes.Count(fwd.Bytes(), []byte{'\n'})
	end := (&App{}).agentEnd(t.Context(), v, Outcome{Status: StatusExited}, nil)
	require.NotNil(t, end)
	require.Len(t, end.Tails, 1)
	tail := end.Tails[0].Bytes
	assert.LessOrEqual(t, len(tail), 300)
	assert.True(t, strings.HasSuffix(all.String(), string(tail)), "the tail is the output's end")
	assert.True(t, strings.HasPrefix(string(tail), "line "), "the tail starts at a line start")
	shown := bytes.Count(tail, []byte{'\n'})
	assert.Equal(t, []string{fmt.Sprintf("combined lines %d to %d not shown, kept for the harness's window: rac out read the recording --stream combined --lines %d:%d",
		head+1, 500-shown, head+1, 500-shown)}, end.Lines)
}

// An output within the room passes whole, and the view has no end.
func TestAgentViewWithinTheWindow(t *testing.T) {
	v := &agentView{room: 1000, tailMax: 300, streams: map[string]*viewStream{}}
	var fwd bytes.Buffer
	w := v.shape()("stdout", &fwd)
	_, err := io.WriteString(w, strings.Repeat("x", 999)+"\n")
	require.NoError(t, err)
	assert.Equal(t, 1000, fwd.Len())
	assert.Nil(t, (&App{}).agentEnd(t.Context(), v, Outcome{Status: StatusExited}, nil))
	var nilView *agentView
	assert.Nil(t, nilView.shape(), "no view: capture forwards as it is")
}

// rac's stdout is what the harness captures only when it is the open file
// of the session leader's fd 1: never a pipe into another program.
func TestHarnessCapturesNotAPipe(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.False(t, harnessCaptures(w), "a pipe of this process is nobody's captured output")
}
