package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func init() { register("startup", benchStartup) }

const minimalWrapper = `package main

import (
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		os.Exit(1)
	}
}
`

// benchStartup: rac run -- true against a minimal Go program that only
// execs true.
func benchStartup(b *bench) {
	dir := filepath.Join(b.work, "wrapper")
	check(os.MkdirAll(dir, 0o755))
	check(os.WriteFile(filepath.Join(dir, "main.go"), []byte(minimalWrapper), 0o644))
	check(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module wrapper\n\ngo 1.26\n"), 0o644))
	wrapper := filepath.Join(dir, "wrapper")
	build := exec.Command("go", "build", "-o", wrapper, ".")
	build.Dir = dir
	build.Stderr = os.Stderr
	check(build.Run())
	truePath, err := exec.LookPath("true")
	check(err)
	n := 40 * *runs
	var racT, wrapT []time.Duration
	for i := 0; i < n; i++ {
		if i%50 == 0 {
			b.resetStore()
		}
		racT = append(racT, b.timeCmd(b.env, b.rac, "run", "-q", "--", truePath).wall)
		wrapT = append(wrapT, b.timeCmd(b.env, wrapper, truePath).wall)
	}
	b.resetStore()
	r, w := median(racT), median(wrapT)
	fmt.Printf("rac run -- true        %7.2f ms\n", float64(r.Microseconds())/1000)
	fmt.Printf("minimal Go wrapper     %7.2f ms\n", float64(w.Microseconds())/1000)
	fmt.Printf("start-up ratio %.2fx (target <= 1.8x: %s) over %d interleaved runs each\n", r.Seconds()/w.Seconds(), verdict(r.Seconds()/w.Seconds() <= 1.8), n)
}

func (b *bench) timeCmdQuiet(argv ...string) string {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = b.env
	out, _ := cmd.CombinedOutput()
	return string(out)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
