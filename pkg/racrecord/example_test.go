package racrecord_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"

	"github.com/rac-cli/rac/pkg/racrecord"
)

// A remote runner: it opens the recording and publishes its reference
// before it connects to the builder, writes each chunk of the builder's
// response into the recording as it arrives (before it parses anything),
// and finishes with the builder's exit code, or with a transport error
// when the connection drops first.
func Example() {
	dir, err := os.MkdirTemp("", "racrecord-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	env := map[string]string{"RAC_HOME": filepath.Join(dir, "store"), "HOME": dir}
	getenv := func(k string) string { return env[k] }

	// a fake remote builder on 127.0.0.1: two chunks, then exit code 101
	addr := fakeBuilder([]string{"   Compiling demo v0.1.0\n", "error[E0308]: mismatched types\n"}, 101, false, nil)

	ctx := context.Background()
	rec, err := racrecord.Open(ctx, racrecord.Options{
		Session: "example", Description: "cargo build --remote", Getenv: getenv,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("rac: recording", rec.Ref()) // published before connecting

	code, err := runRemote(addr, rec)
	if err != nil {
		_ = rec.Finish(racrecord.TransportError(err.Error()))
		fmt.Println("transport error:", err)
		return
	}
	if err := rec.Finish(racrecord.Exited(code)); err != nil {
		panic(err)
	}
	fmt.Println("the builder exited with", code)
	// Output:
	// rac: recording example/0001-cargo-build
	// the builder exited with 101
}

// The builder's protocol: frames of a kind byte ('o' output, 'x' exit),
// a 4-byte length and the payload (the output, or the exit code).

// runRemote connects to the builder and copies each output frame into w
// as it arrives; it returns the exit code, or an error when the
// connection ends before it.
func runRemote(addr string, w io.Writer) (int, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	var head [5]byte
	for {
		if _, err := io.ReadFull(conn, head[:]); err != nil {
			return 0, fmt.Errorf("the builder's stream ended before its exit status: %w", err)
		}
		body := make([]byte, binary.BigEndian.Uint32(head[1:]))
		if _, err := io.ReadFull(conn, body); err != nil {
			return 0, fmt.Errorf("the builder's stream ended before its exit status: %w", err)
		}
		switch head[0] {
		case 'o':
			// the raw chunk is recorded first; parsing (not shown) comes after
			if _, err := w.Write(body); err != nil {
				return 0, err
			}
		case 'x':
			if len(body) != 4 {
				return 0, errors.New("a bad exit frame")
			}
			return int(binary.BigEndian.Uint32(body)), nil
		}
	}
}

// fakeBuilder listens on 127.0.0.1 and answers one connection with the
// chunks and then the exit code; drop closes the connection after the
// first chunk instead. accepted, when not nil, is called on the
// connection before anything is sent.
func fakeBuilder(chunks []string, code int, drop bool, accepted func()) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		defer ln.Close()
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		if accepted != nil {
			accepted()
		}
		frame := func(kind byte, body []byte) {
			var head [5]byte
			head[0] = kind
			binary.BigEndian.PutUint32(head[1:], uint32(len(body)))
			_, _ = conn.Write(append(head[:], body...))
		}
		for i, c := range chunks {
			frame('o', []byte(c))
			if drop && i == 0 {
				return
			}
		}
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], uint32(code))
		frame('x', b[:])
	}()
	return ln.Addr().String()
}
