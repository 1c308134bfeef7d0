//go:build !linux

package gc

import (
	"errors"

	"golang.org/x/sys/unix"
)

// treeFd is tree over an open directory.
func treeFd(fd int, depth int) (u usage, err error) {
	ents, err := readDirFd(fd)
	if err != nil {
		return usage{}, err
	}
	for i := range ents {
		e := &ents[i]
		var st unix.Stat_t
		if ok, err := statEntry(fd, e, &st); err != nil {
			return usage{}, err
		} else if !ok {
			continue
		}
		switch {
		case e.typ == unix.DT_REG:
			u.file(e.name, depth, statDisk(&st), mtime(&st))
		case e.typ == unix.DT_DIR && depth < 8:
			sub, err := tree(fd, e.name, depth+1)
			if err != nil && !errors.Is(err, unix.ENOENT) {
				return usage{}, err
			}
			u.add(sub)
		}
	}
	return u, nil
}
