//go:build !linux

package capture

// ptyReader: without /proc no read on the pty can be seen (pid -1), so
// while the command's modes there are non-canonical every key typed is
// taken for it: a pager reading keys from its stderr's terminal gets
// them, and a line typed ahead then goes to the pty too.
func (r *ptyRun) ptyReader() (reader, bool) { return reader{pid: -1, count: 4096}, true }
