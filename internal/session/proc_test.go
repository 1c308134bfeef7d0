package session

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnvBlock(t *testing.T) {
	env := []byte("A=1\x00AB=2\x00B=\x00C=x=y\x00A=dup\x00D")
	for _, tt := range []struct {
		name, want string
		ok         bool
	}{
		{"A", "1", true}, {"AB", "2", true}, {"B", "", true}, {"C", "x=y", true},
		{"D", "", false}, {"", "", false}, {"X", "", false}, {"A=1", "", false},
	} {
		got, ok := envLookup(env, tt.name)
		assert.Equal(t, tt.ok, ok, tt.name)
		assert.Equal(t, tt.want, got, tt.name)
	}
	assert.True(t, envHas(env, "A", "1"))
	assert.False(t, envHas(env, "A", "dup"), "the first entry counts, as for getenv")
	assert.False(t, envHas(env, "AB", "1"))
	assert.True(t, envHas(env, "B", ""))
	assert.False(t, envHas(nil, "A", "1"))
}

func TestLooksLikeOneCommand(t *testing.T) {
	for argv, want := range map[string]bool{
		"bash\x00-c\x00make\x00":              true,
		"/bin/sh\x00-lc\x00x\x00":             true,
		"zsh\x00-ic\x00x\x00":                 true,
		"-bash\x00":                           false,
		"bash\x00":                            false,
		"bash\x00--login\x00":                 false,
		"bash\x00script.sh\x00-c\x00":         true,
		"vim\x00-c1\x00":                      false,
		"":                                    false,
		"-c\x00":                              false,
		"fish\x00--command=x\x00":             false,
		"python3\x00-c\x00print(1)\x00":       true,
		"tmux\x00new-session\x00-d\x00-s\x00": false,
	} {
		assert.Equal(t, want, looksLikeOneCommand([]byte(argv)), "%q", argv)
	}
}

func TestParseProcArgs(t *testing.T) {
	build := func(argc uint32, body string) []byte {
		b := binary.NativeEndian.AppendUint32(nil, argc)
		return append(b, body...)
	}
	buf := build(2, "/bin/zsh\x00\x00\x00\x00-zsh\x00-l\x00HOME=/Users/u\x00CLAUDECODE=1\x00\x00executable_path=/bin/zsh\x00ptr_munge=\x00")
	argv, env, err := parseProcArgs(buf)
	require.NoError(t, err)
	assert.Equal(t, "-zsh\x00-l\x00", string(argv))
	assert.Equal(t, "HOME=/Users/u\x00CLAUDECODE=1\x00", string(env))
	v, ok := envLookup(env, "CLAUDECODE")
	assert.True(t, ok)
	assert.Equal(t, "1", v)
	_, ok = envLookup(env, "executable_path")
	assert.False(t, ok, "apple strings are not environment")

	// No environment at all, and a truncated one.
	_, env, err = parseProcArgs(build(1, "/bin/sh\x00sh\x00\x00"))
	require.NoError(t, err)
	assert.Empty(t, env)
	_, env, err = parseProcArgs(build(1, "/bin/sh\x00sh\x00A=1\x00B=2"))
	require.NoError(t, err)
	assert.Equal(t, "A=1\x00", string(env))

	for _, bad := range [][]byte{nil, {1, 0}, build(1, "/no/terminator"), build(3, "/bin/sh\x00a\x00b")} {
		_, _, err := parseProcArgs(bad)
		assert.Error(t, err, "%q", bad)
	}
}
