package capture

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// RunOptions.Contain is the rule of rac-mcp's run tool, where no person
// is there to see what a command leaves running: rac is a child subreaper
// (Linux), so every process the command starts stays below rac even when
// its parent ends or it calls setsid (the kernel hands such an orphan to
// rac instead of init); when the command has ended and its output is
// drained, rac kills everything still below it; and containGrace after a
// SIGTERM to rac (rac-mcp's cancel, or its parent-death signal for rac),
// which rac passes on as ever, it kills everything below it, whether the
// command ended or not: before rac-mcp's own SIGKILL of the group, 5
// seconds after its SIGTERM, which rac would not survive.
//
// Limits: a process that rac no longer sees below it is not reached: one
// that a subreaper of its own took in, and everything once rac itself is
// killed with SIGKILL (its orphans then go to the next subreaper up, or
// init). Elsewhere than Linux, only the command (see signalTree).

// containStart makes rac a child subreaper when o.Contain asks for it.
func containStart(o RunOptions) {
	if o.Contain {
		becomeSubreaper()
	}
}

// killLeft sends SIGKILL to every live process below rac, again until a
// walk finds none (a process may fork while it is walked), at most
// killLeftRounds times. rac's own helpers (the witness) go too: by then
// they have no work left.
func killLeft() {
	for range killLeftRounds {
		live := 0
		for _, d := range descendants(unix.Getpid()) {
			if st := processState(d.pid); st == 'Z' || st == 'X' || st == 0 {
				continue
			}
			live++
			_ = unix.Kill(d.pid, syscall.SIGKILL)
		}
		if live == 0 {
			return
		}
	}
}

const killLeftRounds = 100

// containGrace is how long after a SIGTERM rac kills everything below it
// (RunOptions.Contain): shorter than rac-mcp's cancelGrace.
const containGrace = 3 * time.Second
