package termtext

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEscapeC1JSON(t *testing.T) {
	for _, s := range []string{"plain", "csi \u009b31m here", "\u0080\u009f\u00a0é\u009b", "\xc2", "é\xc2"} {
		b, err := json.Marshal(map[string]string{"v": s})
		require.NoError(t, err)
		out := EscapeC1JSON(b)
		for i := 0; i+1 < len(out); i++ {
			assert.False(t, out[i] == 0xc2 && out[i+1] >= 0x80 && out[i+1] < 0xa0, "a raw C1 control is left in %q", out)
		}
		var back map[string]string
		require.NoError(t, json.Unmarshal(out, &back))
		var want map[string]string
		require.NoError(t, json.Unmarshal(b, &want))
		assert.Equal(t, want, back, "reads back as the same text")
	}
	var buf bytes.Buffer
	require.NoError(t, json.NewEncoder(JSONWriter(&buf)).Encode([]string{"a\u009bb"}))
	assert.Equal(t, `["a\u009bb"]`+"\n", buf.String())
}
