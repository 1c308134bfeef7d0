package mcpserver

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTransport holds the end of the client's input back until every
// request read has been answered: a client that writes its requests and
// closes stdin (a script, a test, a harness shutting down) still gets
// every answer, where the SDK would close the connection at the end of
// input and drop the answers under way.
type drainTransport struct {
	mcp.Transport
	atEOF func() // called at the end of input, before the wait
}

func (t drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, closed: make(chan struct{}), atEOF: t.atEOF}, nil
}

// drainLimit bounds the wait for answers after the end of input: the
// longest a run may take.
const drainLimit = maxRunTimeout*time.Second + runGrace

type drainConn struct {
	mcp.Connection
	mu sync.Mutex
	// pending are the ids of the requests read and not yet answered: a
	// set, not a count, since a client may reuse an id the SDK answers
	// once, and a request the client cancels leaves it (the SDK sends no
	// answer to a cancelled request)
	pending map[jsonrpc.ID]bool
	idle    chan struct{} // closed when pending reaches 0 after the end of input
	once    sync.Once
	closed  chan struct{}
	atEOF   func()
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.mu.Lock()
		var idle chan struct{}
		if len(c.pending) > 0 {
			c.idle = make(chan struct{})
			idle = c.idle
		}
		c.mu.Unlock()
		if idle != nil {
			if c.atEOF != nil {
				c.atEOF()
			}
			select {
			case <-idle:
			case <-c.closed:
			case <-ctx.Done():
			case <-time.After(drainLimit):
			}
		}
		return nil, err
	}
	if r, ok := msg.(*jsonrpc.Request); ok {
		c.mu.Lock()
		switch {
		case r.ID.IsValid():
			if c.pending == nil {
				c.pending = make(map[jsonrpc.ID]bool)
			}
			c.pending[r.ID] = true
		case r.Method == "notifications/cancelled":
			if id, ok := cancelledID(r.Params); ok {
				c.answered(id)
			}
		}
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if r, ok := msg.(*jsonrpc.Response); ok && r.ID.IsValid() {
		c.mu.Lock()
		c.answered(r.ID)
		c.mu.Unlock()
	}
	return err
}

// answered takes id off the pending requests; c.mu is held.
func (c *drainConn) answered(id jsonrpc.ID) {
	delete(c.pending, id)
	if len(c.pending) == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// cancelledID is the request a notifications/cancelled names.
func cancelledID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestID == nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	return id, err == nil && id.IsValid()
}

func (c *drainConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Connection.Close()
}
