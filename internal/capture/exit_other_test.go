//go:build !linux

package capture

import (
	"testing"
	"time"
)

// awaitExit is Linux only: the tests that use it skip elsewhere.
func awaitExit(t *testing.T, _ int, _ time.Duration) bool {
	t.Skip("needs a pidfd")
	return false
}
