package hook

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/rac-cli/rac/internal/procfs"
)

// FS is the file access the hook needs: the harnesses' settings files and,
// on Linux, /proc for the harness's command line.
type FS interface {
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
}

// OSFS reads the real file system.
type OSFS struct{}

// ReadFile reads name, at most 1 MiB (a settings file is small; a FIFO
// or a huge file must not hang the harness's call).
func (OSFS) ReadFile(name string) ([]byte, error) {
	// stat before open: opening a FIFO would wait for a writer
	if st, err := os.Stat(name); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() && !strings.HasPrefix(name, "/proc/") {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	_, err = b.ReadFrom(&limited{f, 1 << 20})
	return b.Bytes(), err
}

// ReadDir lists name.
func (OSFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }

type limited struct {
	f *os.File
	n int
}

func (l *limited) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, &fs.PathError{Op: "read", Path: l.f.Name(), Err: errTooLarge}
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= n
	return n, err
}

// ancestorArgs returns the command lines of pid and up to three of its
// ancestors, read from /proc (nothing where there is no /proc).
func ancestorArgs(fsys FS, pid int) [][]string {
	var out [][]string
	for range 4 {
		if pid <= 1 {
			break
		}
		dir := path.Join("/proc", strconv.Itoa(pid))
		if b, err := fsys.ReadFile(dir + "/cmdline"); err == nil {
			out = append(out, strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"))
		}
		stat, err := fsys.ReadFile(dir + "/stat")
		if err != nil {
			break
		}
		st, err := procfs.ParseStat(pid, stat)
		if err != nil {
			break
		}
		pid = st.PPID
	}
	return out
}

// claudeHiddenRules names a flag of the claude command line that carries
// permission rules rac cannot read (--settings FILE, --disallowedTools), or "".
func claudeHiddenRules(cmdlines [][]string) string {
	for _, args := range cmdlines {
		if len(args) == 0 || !strings.Contains(path.Base(args[0]), "claude") {
			continue
		}
		for _, a := range args[1:] {
			name, _, _ := strings.Cut(a, "=")
			switch name {
			case "--disallowedTools", "--disallowed-tools", "--settings", "--setting-sources":
				return name
			}
		}
	}
	return ""
}
