package ui

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rac-cli/rac/internal/config"
)

var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func listColumns() []Column {
	return []Column{{Header: "REF"}, {Header: "STATUS"}, {Header: "SIZE", Right: true}, {Header: "COMMAND", Cut: true}}
}

func TestTable(t *testing.T) {
	rows := [][]string{
		{"s/0001-make", "exit 2", "2.9 KiB", "make test"},
		{"s/0002-sleep", "running", "0 B", "sleep 100"},
		{"s/0010-go-test", "SIGTERM", "212 MiB", "go test ./... -run 'Test Total'"},
	}
	for _, tc := range []struct {
		name  string
		width int
		want  string
	}{
		{"no width: nothing cut", 0, `
REF             STATUS      SIZE  COMMAND
s/0001-make     exit 2   2.9 KiB  make test
s/0002-sleep    running      0 B  sleep 100
s/0010-go-test  SIGTERM  212 MiB  go test ./... -run 'Test Total'
`},
		{"wide terminal", 200, `
REF             STATUS      SIZE  COMMAND
s/0001-make     exit 2   2.9 KiB  make test
s/0002-sleep    running      0 B  sleep 100
s/0010-go-test  SIGTERM  212 MiB  go test ./... -run 'Test Total'
`},
		{"cut to 50 columns", 50, `
REF             STATUS      SIZE  COMMAND
s/0001-make     exit 2   2.9 KiB  make test
s/0002-sleep    running      0 B  sleep 100
s/0010-go-test  SIGTERM  212 MiB  go test ./... -…
`},
		{"cut no narrower than 8", 20, `
REF             STATUS      SIZE  COMMAND
s/0001-make     exit 2   2.9 KiB  make te…
s/0002-sleep    running      0 B  sleep 1…
s/0010-go-test  SIGTERM  212 MiB  go test…
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			tb := NewTable(&b, tc.width, listColumns()...)
			for _, r := range rows {
				tb.Row(Plain(r[0]), Plain(r[1]), Plain(r[2]), Plain(r[3]))
			}
			require.NoError(t, tb.Render())
			assert.Equal(t, strings.TrimPrefix(tc.want, "\n"), b.String())
			if tc.width >= 50 {
				for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
					assert.LessOrEqual(t, runes(l), tc.width, l)
				}
			}
		})
	}
}

// TestTableColour: coloured cells align exactly as uncoloured ones; only
// the escapes differ.
func TestTableColour(t *testing.T) {
	s, _, out, _ := Test()
	s.SetColorMode(config.ColorAlways, env(nil))
	c := s.OutColors()
	render := func(styled bool) string {
		out.Reset()
		tb := NewTable(out, 46, listColumns()...)
		pick := func(st Style, text string) Cell {
			if styled {
				return st.Cell(text)
			}
			return Plain(text)
		}
		if styled {
			tb.HeaderStyle = c.Bold
		}
		tb.Row(pick(c.Bold, "s/0001-make"), pick(c.Failed, "exit 2"), pick(c.Dim, "2.9 KiB"), pick(c.Match, "make test"))
		tb.Row(pick(c.Bold, "s/0002-sleep"), pick(c.Running, "running"), pick(c.Dim, "0 B"), Plain("sleep 100"))
		tb.Row(pick(c.Bold, "s/0010-go-test"), pick(c.OK, "exit 0"), pick(c.Dim, "212 MiB"), pick(c.Match, "go test ./... -run 'Test Total'"))
		require.NoError(t, tb.Render())
		return out.String()
	}
	plain := render(false)
	coloured := render(true)
	assert.NotEqual(t, plain, coloured)
	assert.Contains(t, coloured, "\x1b[")
	assert.Equal(t, plain, sgr.ReplaceAllString(coloured, ""), "same text and alignment without the escapes")
	assert.Contains(t, coloured, "\x1b[31mexit 2\x1b[0m   ", "padding outside the colour")
	assert.Contains(t, coloured, "\x1b[31;1mgo test ./.…\x1b[0;22m\n", "cut inside the colour")
}

func TestTableEdges(t *testing.T) {
	t.Run("no header, no trailing space, missing cells", func(t *testing.T) {
		var b bytes.Buffer
		tb := NewTable(&b, 0, Column{}, Column{}, Column{})
		tb.Row(Plain("a"), Plain("bb"), Plain("c"))
		tb.Row(Plain("aaa"))
		tb.Row(Plain("x"), Plain(""), Plain("y"), Plain("extra"))
		require.NoError(t, tb.Render())
		assert.Equal(t, "a    bb  c\naaa\nx        y  extra\n", b.String())
	})
	t.Run("cells escaped and measured escaped", func(t *testing.T) {
		var b bytes.Buffer
		tb := NewTable(&b, 0, Column{Header: "NOTE"}, Column{Header: "N", Right: true})
		tb.Row(Plain("a\tb\x1b[2J\u009b"), Plain("1"))
		tb.Row(Plain("héllo"), Plain("10"))
		require.NoError(t, tb.Render())
		assert.Equal(t, "NOTE              N\n"+`a\tb\x1b[2J\x9b`+"   1\nhéllo            10\n", b.String())
	})
	t.Run("empty", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, NewTable(&b, 80, Column{}).Render())
		assert.Empty(t, b.String())
	})
	t.Run("header only", func(t *testing.T) {
		var b bytes.Buffer
		require.NoError(t, NewTable(&b, 80, Column{Header: "REF"}, Column{Header: "SIZE"}).Render())
		assert.Equal(t, "REF  SIZE\n", b.String())
	})
	t.Run("write error", func(t *testing.T) {
		tb := NewTable(failWriter{}, 0, Column{})
		tb.Row(Plain("x"))
		assert.Error(t, tb.Render())
	})
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "ab…"},
		{"héllo", 3, "hé…"},
		{"abc", 1, "…"},
		{"abc", 0, ""},
	} {
		assert.Equal(t, tc.want, cut(tc.s, tc.w), "%q %d", tc.s, tc.w)
	}
}
