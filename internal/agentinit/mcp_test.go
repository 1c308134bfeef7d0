package agentinit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	racExe = "/opt/rac/bin/rac"
	mcpExe = "/opt/rac/bin/rac-mcp"
)

// claudeState is the shape of ~/.claude.json, which Claude Code writes
// itself (JSON.stringify with two spaces).
const claudeState = `{
  "numStartups": 3,
  "projects": {
    "/w": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "gh-mcp",
      "args": [],
      "env": {}
    }
  }
}`

func mcpFileOf(t *testing.T, home string, o Options) string {
	t.Helper()
	o.Getenv = getenv(home)
	if o.Cwd == "" {
		o.Cwd = filepath.Join(home, "proj")
	}
	f, err := o.mcpFile()
	require.NoError(t, err)
	return f
}

// roundTrip installs (twice), checks, removes, and wants text back byte
// for byte (a missing file stays missing).
func roundTrip(t *testing.T, o Options, text string, check func(t *testing.T, b []byte)) {
	t.Helper()
	home := t.TempDir()
	o.MCP, o.Exe, o.MCPServer = true, racExe, mcpExe
	file := mcpFileOf(t, home, o)
	if text != "" {
		require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
		require.NoError(t, os.WriteFile(file, []byte(text), 0o640))
	}
	res := run(t, home, o)
	require.True(t, res.Changed)
	assert.Equal(t, file, res.Path)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	check(t, b)
	assert.False(t, run(t, home, o).Changed, "installed twice")
	// a rac that moved registers its new path in place, as in Codex's block
	other := o
	other.Exe = "/elsewhere/rac"
	assert.True(t, run(t, home, other).Changed, "not registered again by the new path")
	b, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(b), "/elsewhere/rac")
	assert.NotContains(t, string(b), racExe+`"`)
	assert.False(t, run(t, home, other).Changed, "installed twice by the new path")

	o.Remove = true
	res = run(t, home, o)
	assert.True(t, res.Changed)
	b, err = os.ReadFile(file)
	if text == "" {
		assert.ErrorIs(t, err, os.ErrNotExist, "a file rac made goes again: %s", b)
		assert.True(t, res.Deleted)
		return
	}
	require.NoError(t, err)
	assert.Equal(t, text, string(b))
	st, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), st.Mode().Perm())
	assert.False(t, run(t, home, o).Changed, "removed twice")
}

func checkJSONServer(t *testing.T, b []byte) {
	t.Helper()
	var s struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	require.NoError(t, json.Unmarshal(b, &s), "%s", b)
	var e mcpEntry
	require.NoError(t, json.Unmarshal(s.MCPServers["rac"], &e))
	assert.Equal(t, mcpEntry{Command: mcpExe, Args: []string{"--rac", racExe}}, e)
}

func TestMCPJSONRoundTrip(t *testing.T) {
	files := map[string]string{
		"missing":        "",
		"claude state":   claudeState + "\n",
		"no servers":     "{\n  \"model\": \"opus\"\n}\n",
		"compact":        `{"a":1,"mcpServers":{"x":{"command":"x","args":[]}}}`,
		"empty object":   "{}",
		"with our hooks": otherHooks,
		"tabs":           "{\n\t\"mcpServers\": {\n\t\t\"y\": {\"command\": \"y\"}\n\t}\n}\n",
	}
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"claude user", Options{Target: "claude"}},
		{"claude project", Options{Target: "claude", Project: true}},
		{"gemini user", Options{Target: "gemini"}},
		{"gemini project", Options{Target: "gemini", Project: true}},
	} {
		for name, text := range files {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				roundTrip(t, tc.o, text, checkJSONServer)
			})
		}
	}
}

func TestMCPJSONMissingFile(t *testing.T) {
	home := t.TempDir()
	res := run(t, home, Options{Target: "claude", Project: true, MCP: true, Exe: racExe, MCPServer: mcpExe})
	b, err := os.ReadFile(res.Path)
	require.NoError(t, err)
	assert.Equal(t, `{
  "mcpServers": {
    "rac": {
      "command": "/opt/rac/bin/rac-mcp",
      "args": [
        "--rac",
        "/opt/rac/bin/rac"
      ]
    }
  }
}
`, string(b))
	assert.Equal(t, filepath.Join(home, "proj", ".mcp.json"), res.Path)
}

func TestMCPTOMLRoundTrip(t *testing.T) {
	codexConfig := "model = \"mock-model\"\napproval_policy = \"never\"\n\n[model_providers.mock]\nname = \"mock\"\n"
	for name, text := range map[string]string{
		"missing":         "",
		"codex config":    codexConfig,
		"without newline": strings.TrimSuffix(codexConfig, "\n"),
		"blank line end":  codexConfig + "\n",
		"other servers":   codexConfig + "\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\n",
		"rac's env table": "[mcp_servers.rac.env]\nRAC_MCP_RUN = \"true\"\n",
	} {
		for _, project := range []bool{false, true} {
			t.Run(name+map[bool]string{true: "/project"}[project], func(t *testing.T) {
				roundTrip(t, Options{Target: "codex", Project: project}, text, func(t *testing.T, b []byte) {
					s := string(b)
					assert.True(t, strings.HasPrefix(s, text))
					assert.Contains(t, s, "\n[mcp_servers.rac]\ncommand = \"/opt/rac/bin/rac-mcp\"\nargs = [\"--rac\", \"/opt/rac/bin/rac\"]\n")
					assert.Contains(t, s, `env_vars = ["RAC_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "RAC_MCP_RUN", "RAC_MCP_BUDGET"]`)
					assert.Equal(t, 1, strings.Count(s, tomlBegin))
				})
			})
		}
	}
}

// A moved rac is registered again by its new path, in place.
func TestMCPTOMLUpdated(t *testing.T) {
	home := t.TempDir()
	o := Options{Target: "codex", MCP: true, Exe: racExe, MCPServer: mcpExe}
	file := mcpFileOf(t, home, o)
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
	require.NoError(t, os.WriteFile(file, []byte("a = 1\n"), 0o600))
	run(t, home, o)
	o.Exe, o.MCPServer = "/new/rac", "/new/rac-mcp"
	assert.True(t, run(t, home, o).Changed)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(b), `command = "/new/rac-mcp"`)
	assert.NotContains(t, string(b), racExe)
	assert.Equal(t, 1, strings.Count(string(b), tomlBegin))
}

// Flags the user added to rac's entry stay when it is pointed at rac-mcp.
func TestMCPUserFlagsKept(t *testing.T) {
	for _, text := range []string{
		`{"mcpServers": {"rac": {"command": "/old/rac", "args": ["mcp", "--session", "work"]}}}`,
		`{"mcpServers": {"rac": {"command": "/old/rac-mcp", "args": ["--rac", "/old/rac", "--session", "work"]}}}`,
		`{"mcpServers": {"rac": {"command": "/old/rac-mcp", "args": ["--session", "work", "--rac=/old/rac"]}}}`,
	} {
		home := t.TempDir()
		o := Options{Target: "claude", MCP: true, Exe: racExe, MCPServer: mcpExe}
		file := mcpFileOf(t, home, o)
		require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
		require.NoError(t, os.WriteFile(file, []byte(text), 0o600))
		assert.True(t, run(t, home, o).Changed)
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Contains(t, string(b), `"args": ["--rac","`+racExe+`","--session","work"]`, "%s", b)
		assert.Contains(t, string(b), `"command": "`+mcpExe+`"`)
		assert.False(t, run(t, home, o).Changed, "installed twice: %s", b)
	}
}

// A server named rac that is not rac mcp is the user's: install refuses
// to touch the file, remove leaves it.
func TestMCPNotOurs(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		o          Options
	}{
		{"claude", `{"mcpServers": {"rac": {"command": "/usr/bin/racket", "args": ["mcp"]}}}`, Options{Target: "claude"}},
		{"gemini args", `{"mcpServers": {"rac": {"command": "rac", "args": ["serve"]}}}`, Options{Target: "gemini"}},
		{"gemini url", `{"mcpServers": {"rac": {"httpUrl": "http://x"}}}`, Options{Target: "gemini"}},
		// keys as the file spells them, and once: a harness may read them otherwise
		{"another case", `{"mcpServers": {"rac": {"Command": "/x/rac", "args": ["mcp"]}}}`, Options{Target: "claude"}},
		{"command twice", `{"mcpServers": {"rac": {"command": "/x/rac-mcp", "command": "/x/other"}}}`, Options{Target: "claude"}},
		{"args twice", `{"mcpServers": {"rac": {"command": "/x/rac", "args": ["mcp"], "args": ["other"]}}}`, Options{Target: "claude"}},
		{"args not strings", `{"mcpServers": {"rac": {"command": "/x/rac", "args": ["mcp", 1]}}}`, Options{Target: "claude"}},
		{"codex table", "[mcp_servers.rac]\ncommand = \"other\"\n", Options{Target: "codex"}},
		{"codex quoted", "[ mcp_servers . \"rac\" ]\ncommand = \"other\"\n", Options{Target: "codex"}},
		{"codex dotted", "mcp_servers.rac.command = \"other\"\n", Options{Target: "codex"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			o := tc.o
			o.MCP, o.Exe, o.MCPServer, o.Getenv = true, racExe, mcpExe, getenv(home)
			file := mcpFileOf(t, home, o)
			require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
			require.NoError(t, os.WriteFile(file, []byte(tc.text), 0o600))
			_, err := Run(o)
			require.Error(t, err)
			assert.Contains(t, err.Error(), `an MCP server named "rac" that is not rac's (rac-mcp or rac mcp)`)
			assert.Contains(t, err.Error(), "nothing was changed")
			o.Remove = true
			res, err := Run(o)
			require.NoError(t, err)
			assert.False(t, res.Changed)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Equal(t, tc.text, string(b))
		})
	}
}

func TestMCPRefusedAndUsage(t *testing.T) {
	home := t.TempDir()
	for name, text := range map[string]string{
		"invalid":         `{"mcpServers": {`,
		"array":           `[]`,
		"servers a list":  `{"mcpServers": []}`,
		"comments (json)": "{\n  // x\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(home, name, ".mcp.json")
			require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
			require.NoError(t, os.WriteFile(file, []byte(text), 0o600))
			for _, remove := range []bool{false, true} {
				_, err := Run(Options{Target: "claude", Project: true, MCP: true, MCPServer: mcpExe, Remove: remove, Cwd: filepath.Dir(file), Getenv: getenv(home)})
				require.Error(t, err)
				assert.Contains(t, err.Error(), "nothing was changed")
				b, _ := os.ReadFile(file)
				assert.Equal(t, text, string(b))
			}
		})
	}
	for _, o := range []Options{
		{Target: "agents-md", MCP: true},
		{Target: "claude", MCP: true, Rewrite: true},
	} {
		o.Getenv = getenv(home)
		_, err := Run(o)
		assert.ErrorIs(t, err, ErrUsage, "%+v", o)
	}
	_, err := Run(Options{Target: "codex", MCP: true, Exe: "/bad\xff/rac", MCPServer: mcpExe, Getenv: getenv(home)})
	assert.ErrorContains(t, err, "not UTF-8")
	// no rac-mcp to register: a clear error, no file
	for _, target := range []string{"claude", "codex", "gemini"} {
		_, err = Run(Options{Target: target, MCP: true, Exe: racExe, Getenv: getenv(home)})
		assert.ErrorContains(t, err, "neither beside rac nor on PATH")
	}
	assert.NoFileExists(t, filepath.Join(home, ".claude.json"))
}

// A registration of rac mcp that an earlier rac wrote is rac's: install
// replaces it with rac-mcp in place (other servers and keys kept), and
// remove takes it out.
func TestMCPOldRegistrationReplaced(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		o          Options
		gone       string
	}{
		{"claude", "{\n  \"mcpServers\": {\n    \"docs\": {\"command\": \"docs\"},\n    \"rac\": {\n      \"command\": \"/usr/local/bin/rac\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n", Options{Target: "claude"}, `"mcp"`},
		{"gemini alone", `{"mcpServers": {"rac": {"command": "rac", "args": ["mcp"], "trust": true}}}`, Options{Target: "gemini"}, `"mcp"`},
		{"args first, a long path", "{\"mcpServers\":{\"rac\":{\"args\":[\"mcp\"],\"command\":\"/" + strings.Repeat("p", 600) + "/rac\"}}}", Options{Target: "claude"}, strings.Repeat("p", 600)},
		{"claude no args", "{\"mcpServers\": {\"rac\": {\"env\": {\"RAC_MCP_RUN\": \"true\"}, \"command\": \"/x/rac-mcp\"}}}", Options{Target: "claude"}, `/x/rac-mcp`},
		{"codex", "a = 1\n" + tomlBegin + "\n[mcp_servers.rac]\ncommand = \"/usr/local/bin/rac\"\nargs = [\"mcp\"]\n" + tomlEnd + "\n", Options{Target: "codex"}, `["mcp"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			o := tc.o
			o.MCP, o.Exe, o.MCPServer = true, racExe, mcpExe
			file := mcpFileOf(t, home, o)
			require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o700))
			require.NoError(t, os.WriteFile(file, []byte(tc.text), 0o600))
			assert.True(t, run(t, home, o).Changed)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Contains(t, string(b), mcpExe)
			assert.NotContains(t, string(b), tc.gone)
			assert.Equal(t, 1, strings.Count(string(b), `rac`+map[bool]string{true: "]", false: `"`}[o.Target == "codex"]+map[bool]string{true: "", false: ":"}[o.Target == "codex"]), "one rac server: %s", b)
			if o.Target != "codex" {
				checkJSONServer(t, b)
			}
			t.Logf("%s", b)
			switch tc.name {
			case "claude":
				assert.Contains(t, string(b), `"docs": {"command": "docs"}`)
			case "gemini alone":
				assert.Contains(t, string(b), `"trust": true`, "a key the user added to rac's entry is kept")
			case "claude no args":
				assert.Contains(t, string(b), `"env": {"RAC_MCP_RUN": "true"}`, "a key the user added to rac's entry is kept")
			}
			assert.False(t, run(t, home, o).Changed, "installed twice")
			o.Remove = true
			assert.True(t, run(t, home, o).Changed)
			b, _ = os.ReadFile(file)
			assert.NotContains(t, string(b), "rac")
		})
	}
}

func TestMCPFiles(t *testing.T) {
	env := map[string]string{"HOME": "/h", "CODEX_HOME": "/ch", "GEMINI_CLI_HOME": "/gh", "CLAUDE_CONFIG_DIR": "/cc"}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Target: "claude"}, "/cc/.claude.json"},
		{Options{Target: "codex"}, "/ch/config.toml"},
		{Options{Target: "gemini"}, "/gh/.gemini/settings.json"},
		{Options{Target: "claude", Project: true}, "/p/.mcp.json"},
		{Options{Target: "codex", Project: true}, "/p/.codex/config.toml"},
		{Options{Target: "gemini", Project: true}, "/p/.gemini/settings.json"},
	} {
		tc.o.Cwd, tc.o.Getenv = "/p", func(k string) string { return env[k] }
		f, err := tc.o.mcpFile()
		require.NoError(t, err)
		assert.Equal(t, tc.want, f)
	}
	for target, want := range map[string]string{"claude": "/h/.claude.json", "codex": "/h/.codex/config.toml", "gemini": "/h/.gemini/settings.json"} {
		f, err := Options{Target: target, Getenv: getenv("/h")}.mcpFile()
		require.NoError(t, err)
		assert.Equal(t, want, f)
	}
}

func TestTOMLQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/rac":     `"/usr/bin/rac"`,
		`/a "b"\c/rac`:     `"/a \"b\"\\c/rac"`,
		"/caf\u00e9/rac":   "\"/caf\u00e9/rac\"",
		"/tab\there/rac":   `"/tab\u0009here/rac"`,
		"/del\x7fhere/rac": `"/del\u007Fhere/rac"`,
	} {
		assert.Equal(t, want, tomlQuote(in), in)
	}
}
