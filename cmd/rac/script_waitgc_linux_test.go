//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// waitgc: wait until no detached gc pass of this script's store runs
// ("rac out gc --background" with this RAC_HOME; bounded: a minute). An
// automatic pass that outgrows its budget goes on in such a process, and
// one started while another holds the gc lock does nothing, so a size
// check right after rac run can race both. The process exists before the
// rac run that started it exits, so what is found here is all there is.
func cmdWaitgc(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitgc")
	}
	if err := waitDetachedGC(ts.Getenv("RAC_HOME")); err != nil {
		ts.Fatalf("waitgc: %v", err)
	}
}

// waitDetachedGC waits until no detached gc pass of the store at home
// runs (bounded: a minute each). A test that removes a store a rac run
// used calls it first: a pass compressing the run's recording would
// otherwise write a frame file into a folder being removed.
func waitDetachedGC(home string) error {
	want := []byte("RAC_HOME=" + home)
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return err
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		argv, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil || !bytes.HasSuffix(argv, []byte("\x00out\x00gc\x00--background\x00")) {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", p.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, env...), append(append([]byte{0}, want...), 0)) {
			continue
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue // ended meanwhile
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			n, err := unix.Poll(fds, 60_000)
			if err == unix.EINTR {
				continue
			}
			unix.Close(fd)
			if err != nil || n == 0 {
				return fmt.Errorf("the gc pass of pid %d still runs after a minute (%v)", pid, err)
			}
			break
		}
	}
	return nil
}

// waitexit PIDFILE: the process whose pid the file holds has ended (a
// zombie counts: it runs no more), awaited by pidfd, bounded by a minute
// (times RAC_TEST_SCALE). A pid that names no process has ended already:
// once reaped, its number may even be someone else's, so nothing is sent
// to it. It stands where a script used to kill a command's child that
// rac's parent-death signal had already killed.
func cmdWaitexit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitexit PIDFILE")
	}
	b, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	ts.Check(err)
	fd, err := unix.PidfdOpen(pid, 0)
	if err == unix.ESRCH {
		return
	}
	ts.Check(err)
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(testScale(time.Minute).Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		ts.Check(err)
		if n == 0 {
			ts.Fatalf("waitexit: pid %d still runs", pid)
		}
		return
	}
}
