package faults

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genLog writes about 2 MiB of go test -v output, different for each seed.
func genLog(seed int) string {
	return fmt.Sprintf(`awk 'BEGIN { for (i = 0; i < 30000; i++) printf "=== RUN   TestCase%d_%%d\n--- PASS: TestCase%d_%%d (0.%%02ds)\n", i, i, i %% 100 }'`, seed, seed)
}

// zstFiles counts the compressed files and the temporaries of compression
// under home.
func zstFiles(home string) (zst, temps int) {
	_ = filepath.WalkDir(home, func(_ string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case strings.Contains(d.Name(), ".ztmp-"):
			temps++
		case strings.HasSuffix(d.Name(), ".zst"):
			zst++
		}
		return nil
	})
	return zst, temps
}

// TestKillCompression kills rac out gc with SIGKILL at a random point while
// it compresses finished recordings: every recording still reads exactly
// as before (raw, or compressed, or some files of each), and the next gc
// finishes the work and leaves no temporary file.
func TestKillCompression(t *testing.T) {
	sc := newScenario(t, "kill -9 of gc while it compresses", true)
	n := iterations(20, 3)
	for range n {
		sc.iter()
		// recorded raw (automatic gc must not compress them first)
		st := newStore(t, "RAC_GC_MAX_AGE=3d", "RAC_RECORD_COMPRESS=false")
		for i := range 3 {
			if r := st.rac(time.Minute, "run", "-q", "--no-redact", "--", "sh", "-c", genLog(i)); r.code != 0 {
				sc.fail("rac run: exit %d: %s", r.code, r.stderr)
			}
		}
		es, err := st.list()
		if err != nil || len(es) != 3 {
			sc.fail("list: %v (%d recordings)", err, len(es))
			continue
		}
		want := map[string]string{}
		for _, e := range es {
			want[e.Ref] = st.rac(time.Minute, "out", "read", "--raw", e.Ref).stdout
		}
		check := func(when string) {
			for ref, w := range want {
				r := st.rac(time.Minute, "out", "read", "--raw", ref)
				if r.code != 0 || r.stdout != w {
					sc.fail("%s: %s reads differently (exit %d, %d bytes of %d): %s", when, ref, r.code, len(r.stdout), len(w), r.stderr)
				}
				if r := st.rac(time.Minute, "out", "read", "--tail", "3", ref); r.code != 0 {
					sc.fail("%s: read --tail of %s: exit %d: %s", when, ref, r.code, r.stderr)
				}
			}
		}
		st.env = append(st.env, "RAC_RECORD_COMPRESS=true")
		c := st.command("out", "gc")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		// a random point of the pass (compressing 6 MiB takes about half a
		// second here): not a wait for a state
		time.Sleep(time.Duration(sc.rng.IntN(600_000)) * time.Microsecond)
		killGroup(c.Process.Pid)
		_ = c.Wait()
		check("after a killed gc")
		if r := st.rac(5*time.Minute, "out", "gc"); r.code != 0 {
			sc.fail("gc after a killed one: exit %d: %s", r.code, r.stderr)
		}
		check("after the next gc")
		if zst, temps := zstFiles(st.home); zst == 0 || temps > 0 {
			sc.fail("after the next gc: %d compressed files, %d temporaries", zst, temps)
		}
	}
}
