//go:build linux

package session

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// selfAs is the system's process table seen from another process: Identify
// then walks that process's real ancestors.
type selfAs struct {
	Proc
	pid int
}

func (s selfAs) Self() int { return s.pid }

// holdChain starts a real chain of depth processes below the benchmark,
// the top one with extra in its environment (inherited down the chain),
// and returns the deepest one's pid and environment. The chain ends when
// the benchmark ends.
func holdChain(b *testing.B, depth int, extra map[string]string) (int, func(string) string) {
	b.Helper()
	exe, err := os.Executable()
	require.NoError(b, err)
	env := cleanEnv(extra)
	stdinR, stdinW, err := os.Pipe()
	require.NoError(b, err)
	cmd := exec.Command(exe, "-test.run=^TestStandinHelper$", "--", helperMagic, "hold", strconv.Itoa(depth))
	cmd.Env, cmd.Stdin, cmd.Stderr = env, stdinR, os.Stderr
	out, err := cmd.StdoutPipe()
	require.NoError(b, err)
	require.NoError(b, cmd.Start())
	require.NoError(b, stdinR.Close())
	b.Cleanup(func() {
		_ = stdinW.Close() // the deepest process sees EOF, the chain unwinds
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(b, err)
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(b, err)
	return pid, envFunc(env)
}

// BenchmarkIdentify measures Identify on this machine's real /proc. The
// chain10 cases walk a real chain of 10 ancestors (the budget: under 2 ms),
// reading each one's stat and exec-time environment; "here" is Identify as
// rac run sees it in the shell running the benchmark.
func BenchmarkIdentify(b *testing.B) {
	markers := append([]MarkerVar{{Var: "RAC_BENCH_AGENT", Label: "bench"}}, DefaultMarkerVars...)
	ids := append([]IDVar{{Var: "RAC_BENCH_ID", Label: "bench"}}, DefaultIDVars...)

	b.Run("chain10/agent-marker", func(b *testing.B) {
		pid, getenv := holdChain(b, 10, map[string]string{"RAC_BENCH_AGENT": "1"})
		o := Options{Getenv: getenv, Proc: selfAs{SystemProc(), pid}, MarkerVars: markers, IDVars: ids}
		id, err := Identify(o)
		require.NoError(b, err)
		// The boundary is the benchmark process, 10 levels above.
		require.Equal(b, RuleAgentMarker, id.Rule)
		require.Contains(b, id.RawID, " pid="+strconv.Itoa(os.Getpid())+" ")
		b.ResetTimer()
		for b.Loop() {
			if _, err := Identify(o); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("chain10/env-vs-harness-id", func(b *testing.B) {
		pid, getenv := holdChain(b, 10, map[string]string{"RAC_SESSION": "bench", "RAC_BENCH_ID": "id-1"})
		o := Options{Getenv: getenv, Proc: selfAs{SystemProc(), pid}, MarkerVars: markers, IDVars: ids}
		id, err := Identify(o)
		require.NoError(b, err)
		require.Equal(b, RuleEnv, id.Rule, "injected together: RAC_SESSION wins the tie")
		for b.Loop() {
			if _, err := Identify(o); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("here", func(b *testing.B) {
		for b.Loop() {
			if _, err := Identify(Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
