package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/mcpserver"
)

const (
	initFrame = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	listFrame = `{"jsonrpc":"2.0","id":"last","method":"tools/list"}` + "\n"
)

type answer struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// serve runs one server on in (closed at its end) and returns its answers.
func serve(t *testing.T, in string) []answer {
	t.Helper()
	f := newFixture(t)
	var out strings.Builder
	srv := mcpserver.New(mcpserver.Options{App: f.app("s1"), Budget: budget})
	require.NoError(t, srv.ServeIO(context.Background(), strings.NewReader(in), &out))
	var as []answer
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var a answer
		require.NoError(t, json.Unmarshal(sc.Bytes(), &a), "every answer is one JSON line: %q", sc.Text())
		as = append(as, a)
	}
	return as
}

func byID(as []answer, id any) (answer, bool) {
	for _, a := range as {
		if fmt.Sprint(a.ID) == fmt.Sprint(id) {
			return a, true
		}
	}
	return answer{}, false
}

// Each malformed frame gets the error JSON-RPC names for it, and the
// server goes on to answer the calls after it.
func TestMalformedFramesAreAnsweredAndServed(t *testing.T) {
	for _, tc := range []struct {
		name, frame string
		code        int64
		id          any // the id the error repeats (nil: null)
	}{
		{"not JSON", `hello`, -32700, nil},
		{"truncated object", `{"jsonrpc":"2.0","id":5,"method":"tools/li`, -32700, nil},
		{"version 1.0", `{"jsonrpc":"1.0","id":6,"method":"tools/list"}`, -32600, 6.0},
		{"no version", `{"id":7,"method":"tools/list"}`, -32600, 7.0},
		{"empty object", `{}`, -32600, nil},
		{"null", `null`, -32600, nil},
		{"true", `true`, -32600, nil},
		{"a number", `12`, -32600, nil},
		{"a string", `"tools/list"`, -32600, nil},
		{"object as id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, nil},
		{"array as id", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}`, -32600, nil},
		{"method not a string", `{"jsonrpc":"2.0","id":8,"method":3}`, -32600, 8.0},
		{"empty batch", `[]`, -32600, nil},
		{"batch", `[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]`, -32600, nil},
		{"trailing data", `{"jsonrpc":"2.0","id":10,"method":"tools/list"} x`, -32700, nil},
		{"two objects", `{"jsonrpc":"2.0","id":11,"method":"tools/list"}{"jsonrpc":"2.0","id":12,"method":"tools/list"}`, -32700, nil},
		{"binary", "\x00\xff\xfe{\x01", -32700, nil},
		{"over the limit", `{"jsonrpc":"2.0","id":13,"method":"tools/list","params":{"x":"` + strings.Repeat("a", mcpserver.MaxFrame) + `"}}`, -32600, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := serve(t, initFrame+tc.frame+"\n"+listFrame)
			var errs []answer
			for _, a := range as {
				if a.Error != nil {
					errs = append(errs, a)
				}
			}
			require.Len(t, errs, 1, "one error answer: %+v", as)
			assert.Equal(t, tc.code, errs[0].Error.Code, errs[0].Error.Message)
			assert.Equal(t, tc.id, errs[0].ID)
			last, ok := byID(as, "last")
			require.True(t, ok, "tools/list after the bad frame is answered: %+v", as)
			assert.Contains(t, string(last.Result), `"name":"read"`)
		})
	}
}

// Blank lines and CRLF line ends are not errors.
func TestBlankLinesAndCRLF(t *testing.T) {
	in := strings.ReplaceAll(initFrame, "\n", "\r\n") + "\n  \n\r\n" + listFrame
	as := serve(t, in)
	for _, a := range as {
		assert.Nil(t, a.Error, "%+v", a)
	}
	_, ok := byID(as, "last")
	assert.True(t, ok)
}

// 10,000 random malformed frames, each of a kind a broken or hostile client
// sends (cut, flipped, spliced, random bytes, wrong types), and the server
// still answers tools/list after them.
func TestTenThousandMalformedFrames(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261207, 1))
	good := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"list","arguments":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
	}
	var b strings.Builder
	b.WriteString(initFrame)
	for range 10000 {
		b.WriteString(malformed(rng, good[rng.IntN(len(good))]))
		b.WriteByte('\n')
	}
	b.WriteString(listFrame)
	as := serve(t, b.String())
	last, ok := byID(as, "last")
	require.True(t, ok, "tools/list after 10,000 malformed frames is answered (%d answers)", len(as))
	assert.Contains(t, string(last.Result), `"name":"read"`)
	assert.Greater(t, len(as), 5000, "most malformed frames get an answer of their own")
}

// malformed makes one bad frame (no newline inside) from a good one.
func malformed(rng *rand.Rand, good string) string {
	var s string
	switch rng.IntN(7) {
	case 0: // cut short
		s = good[:rng.IntN(len(good))]
	case 1: // a byte changed
		b := []byte(good)
		b[rng.IntN(len(b))] = byte(rng.IntN(256))
		s = string(b)
	case 2: // random bytes
		b := make([]byte, rng.IntN(64))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		s = string(b)
	case 3: // a wrong version
		s = strings.Replace(good, `"2.0"`, []string{`"1.0"`, `2`, `null`, `"2.0 "`}[rng.IntN(4)], 1)
	case 4: // a wrong id
		s = strings.Replace(good, `"jsonrpc":"2.0"`, `"jsonrpc":"2.0","id":`+[]string{`{}`, `[]`, `true`, `1.5`, `{"x":[1]}`}[rng.IntN(5)], 1)
	case 5: // not an object
		s = []string{`null`, `[]`, `[` + good + `]`, `"x"`, `-0`, `{`, `}`, good + good}[rng.IntN(8)]
	default: // two frames spliced
		s = good[:rng.IntN(len(good))] + good[rng.IntN(len(good)):]
	}
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}

// FuzzFrame: whatever one line is, the server answers tools/list after it.
func FuzzFrame(f *testing.F) {
	for _, s := range []string{`hello`, `{}`, `null`, `[]`, `{"jsonrpc":"2.0","id":{},"method":"x"}`, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, frame string) {
		frame = strings.NewReplacer("\n", " ", "\r", " ").Replace(frame)
		as := serve(t, initFrame+frame+"\n"+listFrame)
		_, ok := byID(as, "last")
		require.True(t, ok, "tools/list after %q is answered", frame)
	})
}

// A client that reuses an id while the first request is under way gets
// one answer for it from the SDK: the end of input does not wait for a
// second.
func TestReusedIDDoesNotHoldTheEnd(t *testing.T) {
	var b strings.Builder
	b.WriteString(initFrame)
	for range 20 {
		b.WriteString(`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"list","arguments":{}}}` + "\n")
	}
	b.WriteString(listFrame)
	as := serve(t, b.String())
	_, ok := byID(as, "last")
	assert.True(t, ok)
}
