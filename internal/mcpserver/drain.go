package mcpserver

import (
	"context"
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
type drainTransport struct{ mcp.Transport }

func (t drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, closed: make(chan struct{})}, nil
}

// drainLimit bounds the wait for answers after the end of input: the
// longest a run may take.
const drainLimit = maxRunTimeout*time.Second + runGrace

type drainConn struct {
	mcp.Connection
	mu      sync.Mutex
	pending int
	idle    chan struct{} // closed when pending reaches 0 after the end of input
	once    sync.Once
	closed  chan struct{}
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err != nil {
		c.mu.Lock()
		var idle chan struct{}
		if c.pending > 0 {
			c.idle = make(chan struct{})
			idle = c.idle
		}
		c.mu.Unlock()
		if idle != nil {
			select {
			case <-idle:
			case <-c.closed:
			case <-ctx.Done():
			case <-time.After(drainLimit):
			}
		}
		return nil, err
	}
	if r, ok := msg.(*jsonrpc.Request); ok && r.ID.IsValid() {
		c.mu.Lock()
		c.pending++
		c.mu.Unlock()
	}
	return msg, nil
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if r, ok := msg.(*jsonrpc.Response); ok && r.ID.IsValid() {
		c.mu.Lock()
		if c.pending > 0 {
			c.pending--
		}
		if c.pending == 0 && c.idle != nil {
			close(c.idle)
			c.idle = nil
		}
		c.mu.Unlock()
	}
	return err
}

func (c *drainConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Connection.Close()
}
