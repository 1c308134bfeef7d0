package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxFrame bounds one line of the client's input. A call to rac's tools is
// a few hundred bytes; a line over the bound is read to its newline and
// dropped, never held, and answered with an error.
const MaxFrame = 1 << 20

// The SDK's stdio transport ends the connection at the first line it cannot
// decode (not JSON, an object that is not JSON-RPC 2.0, an id of the wrong
// type, a batch after protocol 2025-06-18, a line over its limit), so one
// bad frame would cost the harness every later call. frameFilter stands
// between the client's input and the SDK: a line the SDK would refuse is
// answered here with the JSON-RPC error the specification names for it
// (-32700 for what is not JSON, -32600 for JSON that is not a request) and
// never reaches the SDK; every other line is passed on unchanged.

// lockedWriter serialises the SDK's answers and the filter's: each is one
// Write of one whole line.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// filterFrames copies the good lines of in to out and answers the bad ones
// on answers, until in ends or fails (then out is closed with that error:
// io.EOF closes it cleanly). It returns when in is done.
func filterFrames(in io.Reader, out *io.PipeWriter, answers io.Writer) {
	br := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	for {
		frame, over, err := readFrame(br, line[:0])
		line = frame
		switch {
		case over:
			answerError(answers, nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("frame over %d bytes, dropped", MaxFrame))
		case len(bytes.TrimSpace(frame)) > 0:
			if code, id, msg := checkFrame(frame); code != 0 {
				answerError(answers, id, code, msg)
			} else if _, werr := out.Write(append(bytes.TrimRight(frame, "\r\n"), '\n')); werr != nil {
				return // the SDK has stopped reading
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			_ = out.CloseWithError(err)
			return
		}
	}
}

// readFrame reads one line into buf (without its newline); a line longer
// than MaxFrame is read to its end and dropped: over is true and the frame
// is empty. err is the reader's (io.EOF after the last line).
func readFrame(br *bufio.Reader, buf []byte) (frame []byte, over bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !over {
			if len(buf)+len(chunk) > MaxFrame+2 { // room for "\r\n"
				over, buf = true, buf[:0]
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, over, err
	}
}

// checkFrame returns 0 for a frame the SDK accepts, else the error code, the
// id to answer (nil: null) and a message.
func checkFrame(frame []byte) (code int64, id any, msg string) {
	frame = bytes.TrimSpace(frame)
	if !json.Valid(frame) {
		return jsonrpc.CodeParseError, nil, "parse error: the line is not JSON"
	}
	if frame[0] != '{' {
		if frame[0] == '[' {
			return jsonrpc.CodeInvalidRequest, nil, "invalid request: batches are not supported (MCP 2025-06-18 removed them); send one request a line"
		}
		return jsonrpc.CodeInvalidRequest, nil, "invalid request: not a JSON-RPC 2.0 object"
	}
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(frame, &head)
	id = answerID(head.ID)
	if _, err := jsonrpc.DecodeMessage(frame); err != nil {
		return jsonrpc.CodeInvalidRequest, id, "invalid request: " + err.Error()
	}
	return 0, nil, ""
}

// answerID is a frame's id as an error may repeat it: a string or a whole
// number; anything else (an object, a fraction, absent) is null.
func answerID(raw json.RawMessage) any {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v := v.(type) {
	case string:
		return v
	case float64:
		if v == float64(int64(v)) {
			return int64(v)
		}
	}
	return nil
}

// errorAnswer is a JSON-RPC error response; ID is null when nil.
type errorAnswer struct {
	JSONRPC string    `json:"jsonrpc"`
	ID      any       `json:"id"`
	Error   errorBody `json:"error"`
}

type errorBody struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func answerError(w io.Writer, id any, code int64, msg string) {
	b, err := json.Marshal(errorAnswer{JSONRPC: "2.0", ID: id, Error: errorBody{Code: code, Message: msg}})
	if err != nil {
		return
	}
	_, _ = w.Write(append(b, '\n'))
}
