package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"time"
)

func init() { register("prompt", benchPrompt) }

// promptFiles is the size of the repository git status runs in.
const promptFiles = 1000

// promptSlack is what rac may add at the prompt beyond the floor, a Go
// program that links rac's libraries and only starts the command
// (bench/startupref), at the median.
const promptSlack = 3 * time.Millisecond

// benchPrompt: what a wrapped git status costs a person at the prompt. In
// a repository of 1,000 committed files, bare git status against the same
// command started by startupref (the floor of any Go wrapper), by rac run
// in pipe mode (as an agent or a pipe gets it), in pty mode (as a
// terminal gets it) and in passthrough mode (the start-up without the
// capture: rac's session, store and metadata), interleaved round by round
// with the first variant rotating. Each variant's cost is its time minus
// bare git status's in the same round (median and p90 of those), so a
// slow phase of the host counts against neither.
func benchPrompt(b *bench) {
	git, err := exec.LookPath("git")
	if err != nil {
		fmt.Println("prompt: skipped: git is not installed")
		return
	}
	repo := b.promptRepo(git)
	ref := b.buildStartupRef()
	vs := []*measured{
		{argv: []string{git, "-C", repo, "status"}},
		{argv: []string{ref, "run", "-q", "--", git, "-C", repo, "status"}},
		{argv: []string{b.rac, "run", "--", git, "-C", repo, "status"}},
		{argv: []string{b.rac, "run", "--mode", "pty", "--", git, "-C", repo, "status"}},
		{argv: []string{b.rac, "run", "--mode", "passthrough", "--", git, "-C", repo, "status"}},
	}
	names := []string{"git status (bare)", "floor: startupref run -- git status", "rac run -- git status (pipe mode)",
		"rac run --mode pty -- git status", "rac run --mode passthrough -- git status"}
	n := 20 * *runs
	var env []string
	for i := 0; i < n; i++ {
		if i%50 == 0 {
			// a store of its own every 50 rounds: no session folder grows
			env = append(slices.Clip(b.env), "RAC_HOME="+filepath.Join(b.work, fmt.Sprintf("prompt-store-%d", i/50)))
		}
		for k := range vs {
			v := vs[(i+k)%len(vs)]
			v.t = append(v.t, b.timeCmdErr(env, true, v.argv...).wall)
		}
	}
	fmt.Printf("%-44s %8s %18s %18s\n", "", "median", "added: median", "added: p90")
	added := make([]time.Duration, len(vs))
	for i, v := range vs {
		d := diffs(v.t, vs[0].t)
		added[i] = d[len(d)/2]
		if i == 0 {
			fmt.Printf("%-44s %6.2f ms\n", names[i], ms(median(v.t)))
			continue
		}
		fmt.Printf("%-44s %6.2f ms %15.2f ms %15.2f ms\n", names[i], ms(median(v.t)), ms(added[i]), ms(d[min(len(d)*9/10, len(d)-1)]))
	}
	fmt.Printf("prompt overhead: rac adds %.2f ms (pipe) and %.2f ms (pty) to git status at the median, the floor %.2f ms (target <= floor + %.0f ms: pipe %s, pty %s) over %d interleaved rounds\n",
		ms(added[2]), ms(added[3]), ms(added[1]), ms(promptSlack),
		verdict(added[2] <= added[1]+promptSlack), verdict(added[3] <= added[1]+promptSlack), n)
	fmt.Printf("breakdown (medians of the added times): start-up, session, store and metadata above the floor %.2f ms (passthrough - floor); pipes, redaction and the output's files %.2f ms (pipe - passthrough); the pseudo-terminal %.2f ms (pty - pipe)\n",
		ms(added[4]-added[1]), ms(added[2]-added[4]), ms(added[3]-added[2]))
}

// diffs are t[i]-ref[i], sorted.
func diffs(t, ref []time.Duration) []time.Duration {
	d := make([]time.Duration, min(len(t), len(ref)))
	for i := range d {
		d[i] = t[i] - ref[i]
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d
}

// promptRepo is a git repository of promptFiles committed files, one
// changed and one untracked, so git status has something to say.
func (b *bench) promptRepo(git string) string {
	repo := filepath.Join(b.work, "prompt-repo")
	for i := range promptFiles {
		dir := filepath.Join(repo, fmt.Sprintf("d%02d", i/50))
		check(os.MkdirAll(dir, 0o755))
		check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), fmt.Appendf(nil, "file %d\n", i), 0o644))
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-q", "-m", "files"},
	} {
		c := exec.Command(git, append([]string{"-C", repo}, args...)...)
		c.Stderr = os.Stderr
		check(c.Run())
	}
	check(os.WriteFile(filepath.Join(repo, "d00", "f0000.txt"), []byte("changed\n"), 0o644))
	check(os.WriteFile(filepath.Join(repo, "untracked.txt"), []byte("new\n"), 0o644))
	return repo
}
