package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHeldConversation(t *testing.T) {
	const id = "01a2345c-40d0-7e43-9c24-611cb050c45d"
	const other = "01a2345c-0000-7e43-9c24-611cb050c45d"
	home := "/home/u/.codex/"
	cases := []struct {
		name  string
		paths []string
		want  string
		ok    bool
	}{
		{"none", []string{"/dev/null", "pipe:[1]", home + "sessions/2026/12/02/rollout-x-" + id + ".jsonl"}, "", false},
		{"one", []string{"/dev/null", home + "thread-writer-locks/" + id + ".lock", home + "logs_2.sqlite"}, "codex-" + id, true},
		// the same thread twice is one conversation
		{"twice", []string{home + "thread-writer-locks/" + id + ".lock", "/x/thread-writer-locks/" + id + ".lock"}, "codex-" + id, true},
		{"upper case is the same name", []string{home + "thread-writer-locks/01A2345C-40D0-7E43-9C24-611CB050C45D.lock"}, "codex-" + id, true},
		// two threads: which one a call belongs to cannot be told
		{"two", []string{home + "thread-writer-locks/" + id + ".lock", home + "thread-writer-locks/" + other + ".lock"}, "", false},
		{"not a uuid", []string{home + "thread-writer-locks/../../etc.lock", home + "thread-writer-locks/abc.lock"}, "", false},
		{"another folder", []string{home + "locks/" + id + ".lock"}, "", false},
		{"another suffix", []string{home + "thread-writer-locks/" + id + ".lock.tmp"}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok, why := heldConversation(c.paths, DefaultHeldFiles)
			assert.Equal(t, c.ok, ok, why)
			assert.Equal(t, c.want, got)
			assert.NotEmpty(t, why)
			if ok {
				require.NoError(t, CheckName(got, "session"))
			}
		})
	}
}

// The process's own open files are read: a lock this test holds is seen.
func TestHeldConversationSelf(t *testing.T) {
	if _, err := openFiles(os.Getpid()); err != nil {
		t.Skipf("no open-file listing here: %v", err)
	}
	const id = "01a2345c-40d0-7e43-9c24-611cb050c45e"
	dir := filepath.Join(t.TempDir(), "thread-writer-locks")
	require.NoError(t, os.Mkdir(dir, 0o700))
	f, err := os.Create(filepath.Join(dir, id+".lock"))
	require.NoError(t, err)
	name, ok, why := HeldConversation(os.Getpid())
	assert.True(t, ok, why)
	assert.Equal(t, "codex-"+id, name)
	require.NoError(t, f.Close())
	_, ok, why = HeldConversation(os.Getpid())
	assert.False(t, ok, "a closed file still counts: %s", why)
}
