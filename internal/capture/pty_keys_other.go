//go:build !linux

package capture

// ptyReader: without /proc no reader of the pty can be seen, so no key is
// moved to it (a pager reading keys from its stderr's terminal waits).
func (r *ptyRun) ptyReader() (reader, bool) { return reader{}, false }
