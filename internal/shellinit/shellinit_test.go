package shellinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScriptParses(t *testing.T) {
	wrap := []string{"git", "kubectl", "docker build", "python -m pytest"}
	for _, tc := range []struct {
		shell string
		agent bool
		check []string
	}{
		{"bash", false, []string{"bash", "-n"}},
		{"bash", true, []string{"bash", "-n"}},
		{"zsh", false, []string{"zsh", "-n"}},
		{"fish", false, []string{"fish", "--no-execute"}},
	} {
		t.Run(tc.shell, func(t *testing.T) {
			if _, err := exec.LookPath(tc.check[0]); err != nil {
				t.Skipf("%s is not installed", tc.check[0])
			}
			s, err := Script(Options{Shell: tc.shell, Wrap: wrap, Agent: tc.agent, User: "ann", Rac: "/opt/my rac/it's/rac"})
			require.NoError(t, err)
			cmd := exec.Command(tc.check[0], tc.check[1:]...)
			cmd.Stdin = strings.NewReader(s)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s:\n%s", out, s)
		})
	}
}

func TestScriptRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"unknown shell", Options{Shell: "tcsh"}, `unknown shell "tcsh"`},
		{"agent zsh", Options{Shell: "zsh", Agent: true}, "--agent is for an agent's bash only"},
		{"metacharacter", Options{Shell: "bash", Wrap: []string{"git;rm"}}, `wrap entry "git;rm"`},
		{"path", Options{Shell: "bash", Wrap: []string{"/usr/bin/git"}}, `wrap entry "/usr/bin/git"`},
		{"option first", Options{Shell: "bash", Wrap: []string{"-x"}}, `wrap entry "-x"`},
		{"glob word", Options{Shell: "bash", Wrap: []string{"docker b*"}}, `wrap entry "docker b*"`},
		{"session", Options{Shell: "bash", Session: "My Session"}, `invalid session name "My Session" from --session`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Script(tc.o)
			require.ErrorIs(t, err, ErrUsage)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "usage:")
		})
	}
}

func TestDefaultSession(t *testing.T) {
	for _, tc := range []struct {
		user string
		uid  int
		want string
	}{
		{"ann", 1000, "user-ann"},
		{"j.doe_2", 1000, "user-j.doe_2"},
		{"", 1001, "user-1001"},
	} {
		assert.Equal(t, tc.want, DefaultSession(tc.user, tc.uid), tc.user)
	}
	// a name that is no valid session name still gives a valid, stable one
	for _, user := range []string{"Ann", "DOMAIN\\ann", strings.Repeat("a", 80)} {
		got := DefaultSession(user, 1)
		assert.Regexp(t, `^user-[a-z0-9][a-z0-9._-]*$`, got)
		assert.LessOrEqual(t, len(got), 64)
		assert.Equal(t, got, DefaultSession(user, 2))
	}
	assert.NotEqual(t, DefaultSession("Ann", 1), DefaultSession("ann", 1))
}

func TestScriptSession(t *testing.T) {
	people, err := Script(Options{Shell: "bash", Wrap: []string{"git"}, User: "ann"})
	require.NoError(t, err)
	assert.Contains(t, people, `export RAC_SESSION="${RAC_SESSION:-user-ann}"`)
	named, err := Script(Options{Shell: "zsh", Wrap: []string{"git"}, Session: "work"})
	require.NoError(t, err)
	assert.Contains(t, named, "export RAC_SESSION=work\n")
	fish, err := Script(Options{Shell: "fish", Wrap: []string{"git"}, User: "ann"})
	require.NoError(t, err)
	assert.Contains(t, fish, "set -q RAC_SESSION[1]; or set -gx RAC_SESSION user-ann\n")
	// an agent's session is its conversation's, unless named
	agent, err := Script(Options{Shell: "bash", Wrap: []string{"git"}, Agent: true, User: "ann"})
	require.NoError(t, err)
	assert.NotContains(t, agent, "RAC_SESSION")
}

func TestProgram(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "rac")
	require.NoError(t, os.WriteFile(exe, nil, 0o755))
	link := filepath.Join(dir, "bin-rac")
	require.NoError(t, os.Symlink(exe, link))
	other := filepath.Join(dir, "other")
	require.NoError(t, os.WriteFile(other, nil, 0o755))
	assert.Equal(t, "rac", Program(exe, link), "the rac on PATH is this binary")
	assert.Equal(t, exe, Program(exe, other), "another rac on PATH")
	assert.Equal(t, exe, Program(exe, ""), "no rac on PATH")
	assert.Equal(t, "rac", Program("", ""))
}

// fakeTools makes a bin folder with a fake rac and fake wrapped programs
// that each append their name and arguments to log.
func fakeTools(t *testing.T, names ...string) (bin, log string) {
	t.Helper()
	bin = t.TempDir()
	log = filepath.Join(t.TempDir(), "log")
	for _, n := range append(names, "rac") {
		script := "#!/bin/sh\necho \"" + n + " $*\" >> '" + log + "'\n"
		require.NoError(t, os.WriteFile(filepath.Join(bin, n), []byte(script), 0o755))
	}
	return bin, log
}

// A shell that copied the functions (an agent's snapshot, a script that
// sources the rc file) is not interactive: the real command runs, never
// rac. In the agent mode every call goes through rac run, except with
// command or RAC_DISABLE=1, and only the configured first words.
func TestFunctionsNonInteractive(t *testing.T) {
	wrap := []string{"git", "docker build"}
	calls := `git status --short; command git log; RAC_DISABLE=1 git diff; docker build .; docker ps; x=$(git rev-parse HEAD)`
	for _, tc := range []struct {
		name  string
		shell string
		agent bool
		run   []string
		want  string
	}{
		{"bash", "bash", false, []string{"bash", "-c"},
			"git status --short\ngit log\ngit diff\ndocker build .\ndocker ps\ngit rev-parse HEAD\n"},
		{"zsh", "zsh", false, []string{"zsh", "-c"},
			"git status --short\ngit log\ngit diff\ndocker build .\ndocker ps\ngit rev-parse HEAD\n"},
		{"bash agent", "bash", true, []string{"bash", "-c"},
			"rac run -- git status --short\ngit log\ngit diff\nrac run -- docker build .\ndocker ps\nrac run -- git rev-parse HEAD\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := exec.LookPath(tc.run[0]); err != nil {
				t.Skipf("%s is not installed", tc.run[0])
			}
			bin, log := fakeTools(t, "git", "docker")
			s, err := Script(Options{Shell: tc.shell, Wrap: wrap, Agent: tc.agent, User: "ann", Rac: filepath.Join(bin, "rac")})
			require.NoError(t, err)
			init := filepath.Join(t.TempDir(), "init")
			require.NoError(t, os.WriteFile(init, []byte(s), 0o600))
			cmd := exec.Command(tc.run[0], append(tc.run[1:], ". '"+init+"'; "+calls)...)
			cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "RAC_DISABLE=")
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			got, err := os.ReadFile(log)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

func TestFishNonInteractive(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish is not installed")
	}
	bin, log := fakeTools(t, "git")
	s, err := Script(Options{Shell: "fish", Wrap: []string{"git"}, User: "ann", Rac: filepath.Join(bin, "rac")})
	require.NoError(t, err)
	init := filepath.Join(t.TempDir(), "init.fish")
	require.NoError(t, os.WriteFile(init, []byte(s), 0o600))
	cmd := exec.Command("fish", "--no-config", "-c", "source '"+init+"'; git status; set x (git rev-parse HEAD)")
	cmd.Env = append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, "git status\ngit rev-parse HEAD\n", string(got))
}
