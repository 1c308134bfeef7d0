//go:build !linux

package gc

import (
	"errors"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/record"
)

// treeFd is tree over an open directory.
func treeFd(fd int, depth int) (size int64, newest time.Time, footer bool, err error) {
	ents, err := readDirFd(fd)
	if err != nil {
		return 0, time.Time{}, false, err
	}
	for i := range ents {
		e := &ents[i]
		var st unix.Stat_t
		if ok, err := statEntry(fd, e, &st); err != nil {
			return 0, time.Time{}, false, err
		} else if !ok {
			continue
		}
		switch {
		case e.typ == unix.DT_REG:
			size += st.Size
			if t := mtime(&st); t.After(newest) {
				newest = t
			}
			if depth == 0 && e.name == record.FooterFile {
				footer = true
			}
		case e.typ == unix.DT_DIR && depth < 8:
			s, t, _, err := tree(fd, e.name, depth+1)
			if err != nil && !errors.Is(err, unix.ENOENT) {
				return 0, time.Time{}, false, err
			}
			size += s
			if t.After(newest) {
				newest = t
			}
		}
	}
	return size, newest, footer, nil
}
