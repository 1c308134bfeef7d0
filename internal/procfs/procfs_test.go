package procfs

import (
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestParseStat(t *testing.T) {
	line := "4242 (a) b (c) R 17 4242 4000 34816 4242 4194304 98 0 0 0 0 0 0 0 20 0 1 0 63932 3133440 382 18446744073709551615\n"
	st, err := ParseStat(4242, []byte(line))
	require.NoError(t, err)
	assert.Equal(t, Stat{PID: 4242, State: 'R', PPID: 17, PGRP: 4242, SID: 4000, TTY: 34816, Start: 63932}, st)

	for _, bad := range []string{"", "1 (x", "1 (x) R 1 2 3", "1 (x) R a 2 3 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 5\n",
		"1 (x) RR 1 2 3 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 5\n"} {
		_, err := ParseStat(1, []byte(bad))
		assert.ErrorIs(t, err, ErrMalformed, "%q", bad)
	}
}

func TestReadStat(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc")
	}
	st, err := ReadStat(os.Getpid())
	require.NoError(t, err)
	assert.Equal(t, os.Getppid(), st.PPID)
	assert.Equal(t, unix.Getpgrp(), st.PGRP)
	sid, err := unix.Getsid(0)
	require.NoError(t, err)
	assert.Equal(t, sid, st.SID)
	// /proc/PID/stat is the main thread's: running, or asleep while
	// another thread reads the file
	assert.Contains(t, "RS", string(st.State))
	assert.NotZero(t, st.Start)
	_, err = ReadStat(-1)
	assert.Error(t, err)

	b, err := ReadAll(Path(os.Getpid(), "cmdline"))
	require.NoError(t, err)
	assert.Contains(t, string(b), os.Args[0]+"\x00")
	var small [4]byte
	_, err = ReadInto(Path(os.Getpid(), "stat"), small[:])
	assert.Error(t, err, "a file larger than the buffer")
}

func TestParseStatus(t *testing.T) {
	st, err := ParseStatus([]byte("Name:\tsleep\nState:\tS (sleeping)\nSigPnd:\t0000000000000100\nShdPnd:\t0000000000000002\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000004\nSigCgt:\t0000000000080000\nvoluntary_ctxt_switches:\t42\nnonvoluntary_ctxt_switches:\t7\n"))
	require.NoError(t, err)
	assert.Equal(t, Status{State: 'S', SigPnd: 0x100, ShdPnd: 2, SigIgn: 4, SigCgt: 0x80000, Sleeps: 42}, st)
	_, err = ParseStatus([]byte("SigCgt:\tzz\n"))
	assert.ErrorIs(t, err, ErrMalformed)
	if runtime.GOOS == "linux" {
		self, err := ReadStatus(os.Getpid())
		require.NoError(t, err)
		// the state is the main thread's: running, or asleep while
		// another thread reads the file
		assert.Contains(t, "RS", string(self.State))
		assert.NotZero(t, self.SigCgt, "the Go runtime catches signals")
	}
}
