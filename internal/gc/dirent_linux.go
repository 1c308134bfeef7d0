package gc

import (
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
		for off := 0; off+19 <= n; {
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			if reclen == 0 || off+reclen > n {
				break
			}
			typ := buf[off+18]
			name := buf[off+19 : off+reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			off += reclen
			if s := string(name); s != "." && s != ".." {
				out = append(out, dirent{name: s, typ: typ})
			}
		}
	}
}
