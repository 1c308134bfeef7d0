//go:build linux

package session

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestParseStat(t *testing.T) {
	line := "4242 (a) b (c) R 17 4242 4000 34816 4242 4194304 98 0 0 0 0 0 0 0 20 0 1 0 63932 3133440 382 18446744073709551615\n"
	st, err := parseStat(4242, []byte(line))
	require.NoError(t, err)
	assert.Equal(t, ProcStat{PID: 4242, PPID: 17, SID: 4000, TTY: 34816, Start: 63932}, st)

	for _, bad := range []string{"", "1 (x", "1 (x) R 1 2 3", "1 (x) R a 2 3 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 5\n"} {
		_, err := parseStat(1, []byte(bad))
		assert.Error(t, err, "%q", bad)
	}
}

func TestLinuxProc(t *testing.T) {
	p := SystemProc()
	require.Equal(t, os.Getpid(), p.Self())

	st, err := p.Stat(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, os.Getppid(), st.PPID)
	sid, err := unix.Getsid(0)
	require.NoError(t, err)
	assert.Equal(t, sid, st.SID)
	assert.NotZero(t, st.Start)
	parent, err := p.Stat(os.Getppid())
	require.NoError(t, err)
	assert.LessOrEqual(t, parent.Start, st.Start, "a parent starts before its child")

	env, err := p.Environ(os.Getpid())
	require.NoError(t, err)
	path, ok := envLookup(env, "PATH")
	assert.True(t, ok)
	assert.Equal(t, os.Getenv("PATH"), path, "exec-time environment of this process")

	argv, err := p.Cmdline(os.Getpid())
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(argv), os.Args[0]+"\x00"))

	boot, err := p.BootID()
	require.NoError(t, err)
	assert.NotEmpty(t, boot)
	again, err := p.BootID()
	require.NoError(t, err)
	assert.Equal(t, boot, again)

	_, err = p.Stat(-1)
	assert.Error(t, err)
	_, err = p.Environ(1 << 30)
	assert.Error(t, err)
}
