//go:build !linux

package main

import "github.com/rogpeppe/go-internal/testscript"

// waitgc finds detached gc passes through /proc (Linux); elsewhere it
// waits for nothing, and a size check after it can race a detached pass.
func cmdWaitgc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitgc")
	}
}
