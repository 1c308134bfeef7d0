//go:build !linux

package gc

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// readDirFd lists a directory by its descriptor (a duplicate is read, so
// the caller's descriptor and offset stay its own).
func readDirFd(fd int) ([]dirent, error) {
	nfd, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(nfd), ".")
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirent, 0, len(ents))
	for _, e := range ents {
		var typ uint8 = unix.DT_UNKNOWN
		switch t := e.Type(); {
		case t.IsRegular():
			typ = unix.DT_REG
		case t.IsDir():
			typ = unix.DT_DIR
		case t&fs.ModeSymlink != 0:
			typ = unix.DT_LNK
		default:
			typ = unix.DT_FIFO // anything else rac never opens
		}
		out = append(out, dirent{name: e.Name(), typ: typ})
	}
	return out, nil
}
