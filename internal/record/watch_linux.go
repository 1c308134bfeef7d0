package record

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

type dirWatch struct{ fd int }

// newDirWatch watches the recording folder for writes and new files.
// inotify needs a path: /proc/self/fd names the folder the os.Root holds,
// so no path is rebuilt from user input.
func newDirWatch(r *os.Root) (*dirWatch, error) {
	d, err := dirFile(r)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	path := fmt.Sprintf("/proc/self/fd/%d", d.Fd())
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_MODIFY|unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_CLOSE_WRITE|unix.IN_DELETE_SELF); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &dirWatch{fd: fd}, nil
}

func (w *dirWatch) wait(bound time.Duration) error {
	fds := []unix.PollFd{{Fd: int32(w.fd), Events: unix.POLLIN}}
	_, err := unix.Poll(fds, int(bound.Milliseconds()))
	if err != nil && err != unix.EINTR {
		return err
	}
	var buf [4096]byte
	for {
		n, err := unix.Read(w.fd, buf[:])
		if n <= 0 || err != nil {
			return nil
		}
	}
}

func (w *dirWatch) close() { unix.Close(w.fd) }
