//go:build linux

package session

import (
	"os"
	"strconv"
)

// openFiles is where the open descriptors of pid point, from
// /proc/PID/fd (readable for a process of the same user that is not
// non-dumpable). A descriptor closed while it is read is skipped.
func openFiles(pid int) ([]string, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(ents))
	for _, e := range ents {
		if p, err := os.Readlink(dir + e.Name()); err == nil {
			paths = append(paths, p)
		}
	}
	return paths, nil
}
