//go:build !linux

package capture

import (
	"os"
	"syscall"
	"time"
)

// witness is Linux only: elsewhere no file shows another process's
// pending signals, so rac cannot tell a signal to its pid alone from one
// to its group, and passes every one on. A signal to the whole group then
// reaches the command twice (once from the kernel, once from rac);
// commands end on the first SIGTERM, and one lost signal would be worse.
type witness struct{}

func startWitness() *witness { return nil }

func (*witness) reachedGroup(syscall.Signal, time.Duration) bool { return false }

func (*witness) close() {}

// canRaiseStop: elsewhere rac cannot stop itself by a signal it catches,
// so pipe mode leaves the stop signals at their default (kill -TSTP of
// rac's pid alone stops rac, not the command).
const canRaiseStop = false

// raiseStop stops rac with sig, which it does not catch.
func raiseStop(sig syscall.Signal) { _ = syscall.Kill(os.Getpid(), sig) }
