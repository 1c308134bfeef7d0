//go:build !linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// waitgc finds detached gc passes through /proc (Linux); elsewhere it
// waits for nothing, and a size check after it can race a detached pass.
func cmdWaitgc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitgc")
	}
}

// waitDetachedGC waits for nothing here (see cmdWaitgc).
func waitDetachedGC(string) error { return nil }

// waitexit: without pidfds and a parent-death signal the child may outlive
// its recorder; end it.
func cmdWaitexit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitexit PIDFILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	ts.Check(err)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
