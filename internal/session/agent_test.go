package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAgentPresent(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
		v    string
	}{
		{map[string]string{}, false, ""},
		{map[string]string{"RAC_SESSION": "me"}, false, ""},
		{map[string]string{"RAC_SESSION": "me", "CLAUDECODE": "1"}, true, "CLAUDECODE"},
		{map[string]string{"CODEX_SESSION_ID": "0b7e6f4a-1c2d-4e5f-8a9b-0c1d2e3f4a5b"}, true, "CODEX_SESSION_ID"},
		{map[string]string{"AGENT_SESSION_ID": "x"}, false, ""}, // goose's id needs its marker
		{map[string]string{"AGENT_SESSION_ID": "x", "GOOSE_TERMINAL": "1"}, true, "AGENT_SESSION_ID"},
		{map[string]string{"GEMINI_CLI": "1"}, true, "GEMINI_CLI"},
	} {
		got, v := AgentPresent(func(k string) string { return tc.env[k] }, nil, nil)
		assert.Equal(t, tc.want, got, tc.env)
		assert.Equal(t, tc.v, v, tc.env)
	}
}
