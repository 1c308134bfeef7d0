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
