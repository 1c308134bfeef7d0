package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrivateGroup(t *testing.T) {
	dir := t.TempDir()
	passwd := filepath.Join(dir, "passwd")
	group := filepath.Join(dir, "group")
	_ = os.WriteFile(passwd, []byte("root:x:0:0:root:/root:/bin/bash\n# comment\nann:x:1000:1000:Ann:/home/ann:/bin/bash\nbob:x:1001:100::/home/bob:/bin/sh\n"), 0o644)
	_ = os.WriteFile(group, []byte("root:x:0:\nusers:x:100:bob,ann\nann:x:1000:\ndev:x:2000:ann\nsolo:x:3000:ann\n"), 0o644)
	for _, tc := range []struct {
		name           string
		gid, uid       uint32
		private, known bool
	}{
		{"ann's own group", 1000, 1000, true, true},
		{"a shared group", 100, 1001, false, true},
		{"a group that is not the primary one", 3000, 1000, false, true},
		{"a group the file does not name", 4000, 1000, false, false},
		{"a user the file does not name", 1000, 5000, false, false},
	} {
		private, known := privateGroup(tc.gid, tc.uid, group, passwd)
		assert.Equal(t, tc.private, private, tc.name)
		assert.Equal(t, tc.known, known, tc.name)
	}
	private, known := privateGroup(1000, 1000, filepath.Join(dir, "none"), passwd)
	assert.False(t, private)
	assert.False(t, known, "no group file: rac cannot tell")
}
