package capture

import (
	"bytes"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/rac-cli/rac/internal/procfs"
)

// ptyReader finds a process of the command (the command or one of its
// descendants) blocked in read(2) on the pty, by /proc/PID/syscall (the
// system call a blocked process is in, with its arguments) and the
// descriptor's link.
func (r *ptyRun) ptyReader() (reader, bool) {
	pids := []int{r.proc.pid}
	for _, d := range descendants(r.proc.pid) {
		pids = append(pids, d.pid)
	}
	for _, pid := range pids {
		b, err := procfs.ReadAll(procfs.Path(pid, "syscall"))
		if err != nil {
			continue
		}
		f := bytes.Fields(b)
		if len(f) < 4 || string(f[0]) != strconv.Itoa(unix.SYS_READ) {
			continue
		}
		fd, err1 := strconv.ParseUint(string(bytes.TrimPrefix(f[1], []byte("0x"))), 16, 32)
		count, err2 := strconv.ParseUint(string(bytes.TrimPrefix(f[3], []byte("0x"))), 16, 32)
		if err1 != nil || err2 != nil || count == 0 {
			continue
		}
		if link, err := os.Readlink(procfs.Path(pid, "fd/"+strconv.FormatUint(fd, 10))); err != nil || link != r.slave {
			continue
		}
		st, err := procfs.ReadStatus(pid)
		if err != nil {
			continue
		}
		return reader{pid: pid, count: int(count), sleeps: st.Sleeps}, true
	}
	return reader{}, false
}
