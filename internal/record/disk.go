package record

import (
	"os"
	"syscall"
	"time"

	"github.com/rac-cli/rac/internal/store"
)

// Disk is what a recording folder held, footer.json aside, just before
// its footer was written: the apparent size, the bytes on disk
// (store.FileOnDisk) and the newest modification time of its files, and
// the folder's inode. GC's first pass over a store reads
// it in place of a stat of every file; it trusts it only while the
// folder's inode is the one noted and neither the folder nor any file in
// this summary is newer than the footer (adding, removing or renaming a
// file changes the folder's modification time, backdating the footer
// makes it older), and measures the folder file by file otherwise.
type Disk struct {
	Bytes  int64     `json:"bytes"`
	Newest time.Time `json:"newest"`
	Inode  uint64    `json:"inode"`
	// Allocated is what the files take on disk, which GC counts; -1 when
	// a footer does not say (an older rac wrote it): GC then measures.
	Allocated int64 `json:"allocated"`
}

// MeasureDir measures a recording folder as GC would, footer.json aside:
// one listing and one stat per file (os.Root's ReadDir stats each entry
// without following a symlink), so it costs a finishing recorder a few
// system calls. It returns nil when the folder holds a folder: a file
// changed in there would not change this folder's times, so no summary
// could be trusted.
func MeasureDir(dir *os.Root) (*Disk, error) {
	f, err := dir.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, nil
	}
	d := &Disk{Inode: uint64(st.Ino)}
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		switch {
		case e.IsDir():
			return nil, nil
		case !e.Type().IsRegular(), e.Name() == FooterFile, e.Name() == footerReserveFile:
			continue // GC counts regular files only; the reserve becomes the footer
		}
		fi, err := e.Info()
		if err != nil {
			return nil, err
		}
		d.Bytes += fi.Size()
		d.Allocated += store.FileOnDisk(fi)
		if t := fi.ModTime(); t.After(d.Newest) {
			d.Newest = t
		}
	}
	d.Newest = d.Newest.UTC()
	return d, nil
}
