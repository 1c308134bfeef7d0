package capture

import (
	"os"
	"strconv"
	"syscall"

	"github.com/rac-cli/rac/internal/procfs"
)

// childSysProcAttr: the command gets SIGKILL when rac dies (kill -9 of rac
// alone), as rac's caller would expect of the command itself. It reaches
// the command only, not its own children (they are left as if the
// command had been killed), and exec of a setuid program clears it.
func childSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// descendants lists the processes below pid, parents before children, by
// the parent pid each /proc/PID/stat names.
func descendants(pid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	kids := map[int][]int{}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, ok := parentOf(p); ok {
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, k := range kids[p] {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
				queue = append(queue, k)
			}
		}
	}
	return out
}

// parentOf reads the parent pid from /proc/PID/stat.
func parentOf(pid int) (int, bool) {
	st, err := procfs.ReadStat(pid)
	return st.PPID, err == nil
}

// processState is the state letter of /proc/PID/stat (R, S, T, Z...); 0
// when it cannot be read.
func processState(pid int) byte {
	st, _ := procfs.ReadStat(pid)
	return st.State
}
