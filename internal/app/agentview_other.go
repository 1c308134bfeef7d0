//go:build !linux

package app

import "os"

// harnessCaptures cannot tell without kcmp: the view stays off under
// auto (run.agent_view on still turns it on).
func harnessCaptures(*os.File) bool { return false }
