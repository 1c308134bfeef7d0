package gc

import (
	"bytes"
	"encoding/binary"
	"sync"

	"golang.org/x/sys/unix"
)

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// readDirFd lists a directory by its descriptor with getdents64: the
// names and the types the file system reports, without a stat per entry
// (os.File.ReadDir does one for every entry of a folder opened in an
// os.Root), without an os.File around the descriptor. A type of
// unix.DT_UNKNOWN is resolved by the caller's stat.
func readDirFd(fd int) ([]dirent, error) {
	bp := direntBufs.Get().(*[]byte)
	defer direntBufs.Put(bp)
	buf := *bp
	var out []dirent
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return out, nil
		}
		for off := 0; ; {
			typ, name, next := direntAt(buf[:n], off)
			if next < 0 {
				break
			}
			off = next
			if s := string(name); s != "" && s != "." && s != ".." {
				out = append(out, dirent{name: s, typ: typ})
			}
		}
	}
}

// direntAt reads the linux_dirent64 record at buf[off:]: its type, its
// name and where the next record starts (-1: no whole record there). The
// name is empty for a record whose name does not end in a NUL, never to be
// used as a name; otherwise the NUL follows it in buf, so &name[0] is a C
// string for a system call.
func direntAt(buf []byte, off int) (typ byte, name []byte, next int) {
	if off+19 > len(buf) {
		return 0, nil, -1
	}
	reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
	if reclen == 0 || off+reclen > len(buf) {
		return 0, nil, -1
	}
	name = buf[off+19 : off+reclen]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	} else {
		name = nil
	}
	return buf[off+18], name, off + reclen
}
